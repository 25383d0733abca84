import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { answerClientError } from './client-error';

let t: TestApp;
let server: ReturnType<typeof serve>;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  server.on('clientError', answerClientError);
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.dispose();
});

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

describe("requests Node's parser refuses", () => {
  it('headers over the limit get a 431 in the contract shape', async () => {
    const answer = await raw(`GET /api/settings HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });

  it('broken framing gets a 400 in the contract shape', async () => {
    const answer = await raw(
      'GET /api/settings HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"success":false');
    expect(answer).toContain('"code":"bad_request"');
  });
});
