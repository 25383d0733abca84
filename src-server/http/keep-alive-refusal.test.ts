// A refused request must not break the next one on the same keep-alive connection: a browser
// reuses the tab's connection for its next request, and a reset there shows as a network error.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser, TEST_PASSWORD } from '../testing/factories';
import { serveTestApp } from '../testing/http-server';

const served = serveTestApp();
const BOUNDARY = 'keep-alive-boundary';

interface Answer {
  status: number;
  connection: string;
  code: string | undefined;
  /** the client's end of the connection: the same port means the same connection */
  localPort: number;
}

// one connection at most: the second request can only go over the first one's socket, or a new
// one when that was closed (the local port tells them apart)
let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterEach(() => {
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});

function send(
  method: string,
  path: string,
  options: { body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: served.port,
        method,
        path,
        agent,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          // a body sent in chunks has no length
          ...(body && !options.headers?.['transfer-encoding']
            ? { 'content-length': String(body.length) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        // read now: the socket goes back to the agent's pool at the end
        const localPort = res.socket.localPort ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => {
          let code: string | undefined;
          try {
            code = JSON.parse(text)?.error?.code;
          } catch {
            code = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            connection: String(res.headers.connection ?? ''),
            code,
            localPort,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The refusal, then a plain request that must succeed on the same connection. */
async function refusalThenRequest(refused: () => Promise<Answer>, status: number, code: string) {
  const refusal = await refused();
  expect(refusal).toMatchObject({ status, code });
  expect(refusal.connection).toBe('keep-alive');
  const next = await send('GET', '/api/settings');
  expect(next.status).toBe(200);
  expect(next.localPort).toBe(refusal.localPort);
  // and the one after it, a POST with a body, which a stuck parser would not reach
  const user = await makeUser(served.t.deps.db);
  const after = await send('POST', '/api/auth/login', {
    body: JSON.stringify({ email: user.email, password: TEST_PASSWORD }),
  });
  expect(after.status).toBe(200);
  expect(after.localPort).toBe(refusal.localPort);
}

function multipart(size: number): Buffer {
  const file = Buffer.alloc(size, 0x41);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(file);
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="task"\r\n\r\nsome-task\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="proofImage"; filename="p.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe('a refusal, then a request on the same keep-alive connection', { timeout: 30_000 }, () => {
  it('413 for a 1 MB JSON body (refused from its Content-Length)', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(1024 * 1024) });
    await refusalThenRequest(() => send('POST', '/api/auth/login', { body }), 413, 'payload_too_large');
  });

  it('413 for a JSON body over the limit sent in chunks, without a Content-Length', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(400 * 1024) });
    await refusalThenRequest(
      () => send('POST', '/api/auth/login', { body, headers: { 'transfer-encoding': 'chunked' } }),
      413,
      'payload_too_large',
    );
  });

  it('413 for an upload over its limit', async () => {
    const token = await served.t.tokenFor(await makeUser(served.t.deps.db));
    await refusalThenRequest(
      () =>
        send('POST', '/api/submissions', {
          body: multipart(6_000_000),
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          },
        }),
      413,
      'file_too_large',
    );
  });

  it('400 for malformed JSON', async () => {
    const body = `{"email": "nobody@example.com", "password": "${'x'.repeat(100 * 1024)}"`;
    await refusalThenRequest(() => send('POST', '/api/auth/login', { body }), 400, 'malformed_json');
  });

  it('401 for a bad token, its JSON body unread', async () => {
    const body = JSON.stringify({ amount: 100, note: 'x'.repeat(200 * 1024) });
    await refusalThenRequest(
      () => send('POST', '/api/withdraws', { body, headers: { authorization: 'Bearer not-a-token' } }),
      401,
      'invalid_token',
    );
  });

  it('401 for an upload without a token, its body unread', async () => {
    await refusalThenRequest(
      () =>
        send('POST', '/api/submissions', {
          body: multipart(3_000_000),
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        }),
      401,
      'unauthorized',
    );
  });
});
