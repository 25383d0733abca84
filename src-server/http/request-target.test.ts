import { describe, expect, it } from 'vitest';
import { rawRequest, serveTestApp } from '../testing/http-server';

const app = serveTestApp();
const raw = (request: string) => rawRequest(app.port, request);

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
