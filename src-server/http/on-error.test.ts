// The error handler over a real socket: a refusal of a request with a body closes the
// connection (so no client reuses a socket the adapter is about to destroy), a refusal without
// one keeps it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let server: ReturnType<typeof serve>;
let port: number;
const keepAlive = new http.Agent({ keepAlive: true });
beforeAll(async () => {
  t = await createTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  keepAlive.destroy();
  await new Promise((r) => server.close(r));
  await t.dispose();
});

function request(method: string, path: string, body?: Buffer): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method, path, agent: keepAlive }, (res) => {
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
