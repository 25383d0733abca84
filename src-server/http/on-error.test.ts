// The error handler over a real socket: a refusal of a request with a body closes the
// connection (so no client reuses a socket the adapter is about to destroy), a refusal without
// one keeps it.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../testing/http-server';

const app = serveTestApp();
const keepAlive = new http.Agent({ keepAlive: true });
afterAll(() => keepAlive.destroy());

function request(method: string, path: string, body?: Buffer): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port: app.port, host: '127.0.0.1', method, path, agent: keepAlive }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    if (body) req.setHeader('Content-Type', 'application/json');
    req.end(body);
  });
}

describe('connections after a refusal', () => {
  it('closes the connection when a request with a body is refused before it was read', async () => {
    const res = await request('POST', '/api/withdraws', Buffer.alloc(64 * 1024, 'a'));
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('close');
  });

  it('keeps the connection of a refused request without a body', async () => {
    const res = await request('GET', '/api/users/me');
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('keep-alive');
  });
});
