import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let server: ReturnType<typeof serve>;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.dispose();
});

/** One raw request (the HTTP client would not send an absolute-form target); the whole answer. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString();
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('absolute-form request targets', () => {
  it.each([
    ['GET', 'http://admin:pw@127.0.0.1/api/users/me', ''],
    ['GET', 'http://user@127.0.0.1/api/settings', ''],
    ['POST', 'http://a:b@127.0.0.1/api/auth/login', '{}'],
  ])('%s %s with credentials is a 400 in the contract shape, not a 500', async (method, target, body) => {
    const answer = await raw(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"bad_request"');
  });

  it('an absolute-form target without credentials is served', async () => {
    const answer = await raw(
      `GET http://127.0.0.1/api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
