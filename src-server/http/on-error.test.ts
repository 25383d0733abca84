// The error handler over a real socket: a refused request's body is read to the end and thrown
// away, so the connection stays usable; a body declared larger than the server reads closes it.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../testing/http-server';
import { MAX_DISCARDED_BODY_BYTES } from './node-server';

const app = serveTestApp();
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => keepAlive.destroy());

function request(
  method: string,
  path: string,
  body?: Buffer,
  headers: Record<string, string> = {},
): Promise<{ res: http.IncomingMessage; socket: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port: app.port, host: '127.0.0.1', method, path, agent: keepAlive, headers },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ res, socket: req.socket, text }));
      },
    );
    req.on('error', reject);
    if (body) req.setHeader('Content-Type', 'application/json');
    req.end(body);
  });
}

describe('connections after a refusal', () => {
  it('keeps the connection of a request with a body refused before it was read, and reads the next request on it', async () => {
    const first = await request('POST', '/api/withdraws', Buffer.alloc(64 * 1024, 'a'));
    expect(first.res.statusCode).toBe(401);
    expect(first.res.headers.connection).toBe('keep-alive');
    expect(JSON.parse(first.text).error.code).toBe('unauthorized');
    const second = await request('GET', '/api/settings');
    expect(second.res.statusCode).toBe(200);
    expect(second.socket).toBe(first.socket);
  });

  it('keeps the connection of a refused request without a body', async () => {
    const { res } = await request('GET', '/api/users/me');
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('keep-alive');
  });

  it('closes the connection when the declared body is more than the server reads to throw away', async () => {
    const { res } = await new Promise<{ res: http.IncomingMessage }>((resolve, reject) => {
      const req = http.request(
        {
          port: app.port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/withdraws',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(MAX_DISCARDED_BODY_BYTES + 1),
          },
        },
        (res) => {
          res.resume();
          resolve({ res });
        },
      );
      req.on('error', reject);
      req.write('{');
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
  });
});
