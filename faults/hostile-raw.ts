// Requests no HTTP client library will send: raw bytes on a socket. Path tricks the client
// would normalise, broken framing (duplicate Content-Length, lying chunks, smuggling shapes),
// NUL bytes, overlong lines, absolute-form targets, missing or broken Host headers.
import net from 'node:net';
import type { World } from './hostile-world';

export interface RawCase {
  label: string;
  bytes: Buffer;
  /** the client stops sending before the request is complete: no answer is owed, the server must just cope */
  incomplete?: boolean;
  /**
   * answered by Node's HTTP parser or the node adapter before the app (a request line or
   * Host header no URL can be built from): any 4xx, no JSON body owed
   */
  parserLevel?: boolean;
}

/** Whether the case's request line targets an /api path (its 4xx answers owe the JSON error shape). */
export function targetsApi(c: RawCase): boolean {
  const line = c.bytes.subarray(0, 300).toString('latin1').split('\r\n')[0];
  return /^[A-Z]+ (https?:\/\/[^/]+)?\/api[/?]/.test(line);
}

export interface RawResult {
  label: string;
  statuses: number[];
  /** no bytes came back before the timeout */
  hang: boolean;
  reset: boolean;
  /** the bodies of the answers (for the JSON shape check) */
  bodies: string[];
  incomplete: boolean;
  parserLevel: boolean;
}

const CRLF = '\r\n';

function req(lines: string[], body = ''): Buffer {
  return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), Buffer.from(body, 'latin1')]);
}

export function rawCases(w: World, host: string): RawCase[] {
  const user = w.identities.find((i) => i.name === 'user')?.authorization ?? '';
  const admin = w.identities.find((i) => i.kind === 'admin')?.authorization ?? '';
  const get = (target: string, extra: string[] = []) =>
    req([`GET ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...extra]);
  const cases: RawCase[] = [];
  const add = (label: string, bytes: Buffer, o: Partial<RawCase> = {}) => cases.push({ label, bytes, ...o });

  // path tricks, sent as written
  for (const target of [
    '/api/../secret.key',
    '/api/../../secret.key',
    '/api/files/proofs/../../secret.key',
    '/api/files/proofs/../../taskreward.db',
    '/api/files/images/../../secret.key',
    '/api/files/images/..%2f..%2fsecret.key',
    '/api/files/images/%2e%2e%2f%2e%2e%2fsecret.key',
    '/api/files/images/..%5c..%5csecret.key',
    '/api/files/images/%252e%252e%252fsecret.key',
    '/api/files/images/..;/..;/secret.key',
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/secret.key',
    '/./././api/settings',
    '/api/./settings',
    '/api/tasks/../admin/users',
    '/api/admin/../users/me',
    `/api/files/proofs/${w.proofFile}`,
    `/api/files/proofs/${w.proofFile}?exp=1&sig=x`,
    `/api/files/proofs/${w.proofFile}?exp=99999999999&sig=${'A'.repeat(43)}`,
    `/api/files/images/${w.proofFile}`,
    `/api/files/proofs/${w.imageFile}`,
    '/api/tasks%00',
    '/api/tasks/%00',
    '/api/files/images/%00.png',
    '/api/tasks?q=%00%01%02',
    '/api/tasks?q=%ff%fe',
    '/api/tasks?%=%',
    '/api/tasks?&&&=&=',
    '/api/tasks#fragment',
    '/api\\tasks',
    '/api/tasks/\u00e7',
    '*',
    'api/tasks',
    `/api/tasks?q=${'x'.repeat(8000)}`,
  ]) {
    // a raw non-ASCII byte in the target is refused by Node's parser itself
    add(`GET ${target.slice(0, 60)}`, get(target, [`Authorization: ${user}`]), {
      parserLevel: /[^\x21-\x7e]/.test(target),
    });
  }
  // absolute-form targets and Host tricks
  add('absolute-form target', get(`http://evil.example/api/settings`));
  add('absolute-form to an admin route', get(`http://${host}/api/admin/users`, [`Authorization: ${admin}`]));
  add('absolute-form with userinfo', get(`http://admin:pw@${host}/api/users/me`));
  add('absolute-form https', get(`https://${host}/api/tasks`));
  add('no Host header', req(['GET /api/settings HTTP/1.1', 'Connection: close']), { parserLevel: true });
  add('empty Host header', req(['GET /api/settings HTTP/1.1', 'Host:', 'Connection: close']), {
    parserLevel: true,
  });
  add('Host with spaces', req(['GET /api/settings HTTP/1.1', 'Host: a b c', 'Connection: close']), {
    parserLevel: true,
  });
  add('Host with a broken IPv6', req(['GET /api/settings HTTP/1.1', 'Host: [::1', 'Connection: close']), {
    parserLevel: true,
  });
  add(
    'Host with a path',
    req(['GET /api/settings HTTP/1.1', 'Host: evil.example/x?y', 'Connection: close']),
    { parserLevel: true },
  );
  add(
    'Host with a huge port',
    req(['GET /api/settings HTTP/1.1', 'Host: localhost:999999', 'Connection: close']),
    { parserLevel: true },
  );
  add(
    'two Host headers',
    req(['GET /api/settings HTTP/1.1', `Host: ${host}`, 'Host: evil.example', 'Connection: close']),
    { parserLevel: true },
  );
  add('HTTP/1.0 without Host', req(['GET /api/settings HTTP/1.0']), { parserLevel: true });
  // no HTTP version: the parser waits for the rest of a request line that never comes
  add('HTTP/0.9 request line', Buffer.from(`GET /api/settings${CRLF}`), {
    parserLevel: true,
    incomplete: true,
  });
  add('HTTP/2 preface on HTTP/1', Buffer.from(`PRI * HTTP/2.0${CRLF}${CRLF}SM${CRLF}${CRLF}`), {
    parserLevel: true,
  });
  add('HTTP/9.9', req(['GET /api/settings HTTP/9.9', `Host: ${host}`]), { parserLevel: true });
  add('unknown method FOO', req(['FOO /api/tasks HTTP/1.1', `Host: ${host}`, 'Connection: close']), {
    parserLevel: true,
  });
  add('lower-case method', req(['get /api/tasks HTTP/1.1', `Host: ${host}`, 'Connection: close']), {
    parserLevel: true,
  });
  add('NUL in the path', get('/api/tasks\u0000/x'), { parserLevel: true });
  add('space in the path', req([`GET /api/ta sks HTTP/1.1`, `Host: ${host}`, 'Connection: close']), {
    parserLevel: true,
  });
  add('tab in the path', req([`GET /api/\ttasks HTTP/1.1`, `Host: ${host}`, 'Connection: close']), {
    parserLevel: true,
  });
  add('overlong URL (100 KB)', get(`/api/tasks?q=${'x'.repeat(100_000)}`), { parserLevel: true });
  add('header block over 16 KB', get('/api/tasks', [`X-Big: ${'h'.repeat(20_000)}`]), { parserLevel: true });
  add(
    '2000 headers',
    get(
      '/api/tasks',
      Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`),
    ),
    { parserLevel: true },
  );
  add('NUL in a header', get('/api/users/me', [`Authorization: Bearer a\u0000b`]), { parserLevel: true });
  add('control byte in a header', get('/api/users/me', ['X-Test: a\u0001b']), { parserLevel: true });
  add('header without a colon', get('/api/users/me', ['Authorization Bearer x']), { parserLevel: true });
  add('obs-fold header', get('/api/users/me', ['Authorization: Bearer', ' continued']), {
    parserLevel: true,
  });
  add('space before the colon', get('/api/users/me', ['Authorization : Bearer x']), { parserLevel: true });
  add('bare LF line ends', Buffer.from(`GET /api/settings HTTP/1.1\nHost: ${host}\nConnection: close\n\n`), {
    parserLevel: true,
  });
  add('non-ASCII in Authorization', get('/api/users/me', ['Authorization: Bearer \u00e7\u00fc\u00f6']));
  add(
    'Authorization with 10 spaces',
    get('/api/users/me', [`Authorization: Bearer          ${'x'.repeat(10)}`]),
  );

  // bodies and framing
  const post = (path: string, headers: string[], body: string, o: Partial<RawCase> = {}, label = '') =>
    add(
      label || `POST ${path}`,
      req([`POST ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...headers], body),
      o,
    );
  const jsonType = 'Content-Type: application/json';
  const register = '{"name":"Raw","email":"raw@hostile.test","password":"raw-password-1"';
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: 5', 'Content-Length: 50'],
    `${register}}`,
    { parserLevel: true },
    'two different Content-Lengths',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: 5, 50'],
    `${register}}`,
    { parserLevel: true },
    'a Content-Length list',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: -1'],
    `${register}}`,
    { parserLevel: true },
    'a negative Content-Length',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: 1e3'],
    `${register}}`,
    { parserLevel: true },
    'Content-Length in exponent form',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: 99999999999999999999'],
    '{}',
    { parserLevel: true, incomplete: true },
    'a Content-Length beyond 64 bits',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Content-Length: 10', 'Transfer-Encoding: chunked'],
    `5${CRLF}{"a":${CRLF}0${CRLF}${CRLF}`,
    { parserLevel: true },
    'Content-Length and chunked (smuggling)',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked', 'Transfer-Encoding: identity'],
    `2${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    { parserLevel: true },
    'two Transfer-Encodings',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: gzip, chunked'],
    `2${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    {},
    'gzip, chunked',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: xchunked'],
    '{}',
    { parserLevel: true },
    'an unknown Transfer-Encoding',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked'],
    `zz${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    { parserLevel: true },
    'a chunk size that is not hex',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked'],
    `3${CRLF}${register}}${CRLF}0${CRLF}${CRLF}`,
    { parserLevel: true },
    'a chunk longer than it says',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked'],
    `ffffffffffffffffff${CRLF}{}${CRLF}`,
    { parserLevel: true },
    'a chunk size beyond 64 bits',
  );
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked'],
    `2;${'e'.repeat(20_000)}${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    { parserLevel: true },
    'a 20 KB chunk extension',
  );
  const shortPassword = `${register.replace('raw-password-1', '1')}}`;
  post(
    '/api/auth/register',
    [jsonType, 'Transfer-Encoding: chunked'],
    `${shortPassword.length.toString(16)}${CRLF}${shortPassword}${CRLF}0${CRLF}X-Trailer: ${'t'.repeat(100)}${CRLF}${CRLF}`,
    {},
    'a chunked body with a trailer (short password)',
  );
  const big = `{"pad":"${'x'.repeat(300_000)}"}`;
  const chunks = big.match(/[\s\S]{1,16384}/g) ?? [];
  post(
    '/api/tasks',
    [jsonType, `Authorization: ${admin}`, 'Transfer-Encoding: chunked'],
    `${chunks.map((c) => `${c.length.toString(16)}${CRLF}${c}${CRLF}`).join('')}0${CRLF}${CRLF}`,
    {},
    'a chunked JSON body over the limit (no Content-Length)',
  );
  post(
    '/api/withdraws',
    [jsonType, `Authorization: ${user}`, 'Content-Length: 5'],
    '{"amount":25,"paymentMethod":"papara","accountDetails":{"fullName":"A","accountNumber":"1234567890"}}',
    // the rest of the body is parsed as a next request: Node refuses it and closes, maybe before the first answer
    { parserLevel: true },
    'Content-Length shorter than the body',
  );
  post(
    '/api/withdraws',
    [jsonType, `Authorization: ${user}`, 'Content-Length: 500'],
    '{"amount":',
    { incomplete: true },
    'Content-Length longer than the body',
  );
  post(
    '/api/submissions',
    [`Authorization: ${user}`, 'Content-Type: multipart/form-data; boundary=zz', 'Content-Length: 100000'],
    `--zz${CRLF}Content-Disposition: form-data; name="task"${CRLF}${CRLF}${w.tasks.inProgress}${CRLF}--zz${CRLF}Content-Disposition: form-data; name="proofImage"; filename="a.png"${CRLF}Content-Type: image/png${CRLF}${CRLF}\u0089PNG`,
    { incomplete: true },
    'a multipart upload that stops mid-file',
  );
  post(
    '/api/settings/logo',
    [
      `Authorization: ${admin}`,
      'Content-Type: multipart/form-data; boundary=zz',
      'Transfer-Encoding: chunked',
    ],
    `5${CRLF}--zz${CRLF}`,
    { incomplete: true },
    'a chunked upload that never ends',
  );
  post(
    '/api/auth/login',
    ['Content-Type: application/json', 'Expect: 100-continue', 'Content-Length: 2'],
    '{}',
    {},
    'Expect: 100-continue',
  );
  post(
    '/api/auth/login',
    ['Content-Type: application/json', 'Expect: teapot', 'Content-Length: 2'],
    '{}',
    { parserLevel: true },
    'an unknown Expect',
  );
  post(
    '/api/users/me',
    [`Authorization: ${user}`, 'Content-Type: application/json', 'Content-Length: 0'],
    '',
    {},
    'POST with no body to a PUT route',
  );

  // pipelining: a good request, a broken one, another good one
  add(
    'pipelined requests with garbage between',
    Buffer.concat([
      req(['GET /api/settings HTTP/1.1', `Host: ${host}`]),
      Buffer.from(`\u0000\u0001garbage${CRLF}${CRLF}`, 'latin1'),
      req(['GET /api/tasks HTTP/1.1', `Host: ${host}`, 'Connection: close']),
    ]),
    { parserLevel: true },
  );
  add(
    'pipelined: a valid GET then a bad PUT',
    Buffer.concat([
      req(['GET /api/users/me HTTP/1.1', `Host: ${host}`, `Authorization: ${user}`]),
      req(
        [
          'PUT /api/users/me HTTP/1.1',
          `Host: ${host}`,
          `Authorization: ${user}`,
          jsonType,
          'Content-Length: 11',
          'Connection: close',
        ],
        '{"name":42}',
      ),
    ]),
  );
  add('binary noise', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 97 + 13) & 0xff)), {
    parserLevel: true,
  });
  add('TLS client hello on plain HTTP', Buffer.from('16030100a5010000a10303', 'hex'), { parserLevel: true });
  return cases;
}

/** Sends one raw case on a fresh socket; reads until the server closes or `timeoutMs` of silence. */
export function sendRaw(url: string, c: RawCase, timeoutMs: number): Promise<RawResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let reset = false;
    let done = false;
    let timer: NodeJS.Timeout;
    const finish = (hang: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses: number[] = [];
      const bodies: string[] = [];
      const parts = text.split(/(?=HTTP\/1\.[01] \d{3} )/);
      for (const part of parts) {
        const m = /^HTTP\/1\.[01] (\d{3}) /.exec(part);
        if (!m) continue;
        statuses.push(Number(m[1]));
        const i = part.indexOf('\r\n\r\n');
        bodies.push(i >= 0 ? part.slice(i + 4) : '');
      }
      resolve({
        label: c.label,
        statuses,
        hang: hang && chunks.length === 0,
        reset,
        bodies,
        incomplete: c.incomplete === true,
        parserLevel: c.parserLevel === true,
      });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(true), timeoutMs);
    };
    arm();
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      arm();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      finish(false);
    });
    socket.on('close', () => finish(false));
    socket.write(c.bytes);
  });
}
