import { describe, expect, it } from 'vitest';
import { rawRequest, serveTestApp } from '../testing/http-server';

const app = serveTestApp();
const raw = (request: string) => rawRequest(app.port, request);

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
