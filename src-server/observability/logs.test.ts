import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../storage/image-fixtures';
import { fund, listen, makeIban, makeTask } from '../testing/money-factories';
import { createTestApp, type TestApp } from '../testing/test-app';
import { captureLines, createLogger, type Logger, log, logOptionsFrom, scrub, setLogger } from './logger';

type Line = Record<string, unknown> & { msg: string };

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let captured: ReturnType<typeof captureLines>;
let before: Logger;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1', NODE_NAME: 'node-a' } });
  server = await listen(t.app);
  captured = captureLines();
  before = log();
  // debug: the most a site would turn on, so the test also covers lines below info
  setLogger(await createLogger({ level: 'debug', format: 'json', node: 'node-a' }, captured.stream));
});
afterAll(async () => {
  setLogger(before);
  await server.close();
  await t.dispose();
});

const lines = (): Line[] => captured.lines.map((l) => JSON.parse(l) as Line);

async function call(
  method: string,
  path: string,
  init: { body?: unknown; token?: string; form?: FormData } = {},
) {
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.form) body = init.form;
  else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('the request log', () => {
  it('writes no password, token, payout account, signature or image bytes of a whole session', async () => {
    const email = `logged-${Date.now()}@example.com`;
    const password = 'first-Secret-9431';
    const newPassword = 'second-Secret-7710';
    const registered = await call('POST', '/api/auth/register', {
      body: { name: 'Log Tester', email, password, confirmPassword: password },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const signedIn = await call('POST', '/api/auth/login', { body: { email, password } });
    expect(signedIn.status).toBe(200);
    const token: string = signedIn.body.token;
    const { _id: userId } = await t.deps.db
      .selectFrom('users')
      .select('_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

    const changed = await call('PUT', '/api/users/me', {
      token,
      body: { name: 'Log Tester', password: newPassword, currentPassword: password },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const token2: string = changed.body.token;

    // an upload: a profile photo, then a proof whose signed link is fetched
    const photo = pngFile(64, 48, { text: 'PHOTO-BYTES-MARKER' });
    const form = new FormData();
    form.append('name', 'Log Tester');
    form.append('profileImage', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'me.png');
    expect((await call('PUT', '/api/users/me', { token: token2, form })).status).toBe(200);
    const taskId = await makeTask(t.deps.db);
    expect((await call('POST', `/api/tasks/${taskId}/start`, { token: token2 })).status).toBe(201);
    const proof = new FormData();
    proof.append('task', taskId);
    proof.append('proofImage', new Blob([new Uint8Array(pngFile(80, 60))], { type: 'image/png' }), 'p.png');
    const sent = await call('POST', '/api/submissions', { token: token2, form: proof });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const mine = await call('GET', '/api/submissions/user', { token: token2 });
    const proofUrl: string = JSON.stringify(mine.body).match(/\/api\/files\/proofs\/[^"]+/)?.[0] ?? '';
    const signature = /sig=([^&"]+)/.exec(proofUrl)?.[1] ?? '';
    expect(signature).not.toBe('');
    expect((await call('GET', proofUrl.replaceAll('\\u0026', '&'))).status).toBe(200);

    const iban = makeIban();
    await fund(t.deps.db, userId, 10_000);
    const withdrawn = await call('POST', '/api/withdraws', {
      token: token2,
      body: {
        amount: 50,
        paymentMethod: 'iban',
        accountDetails: { fullName: 'Log Tester', accountNumber: iban },
      },
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(201);
    // the saved account: read back, and used again with no number sent
    expect((await call('GET', '/api/withdraws/account', { token: token2 })).status).toBe(200);
    const again = await call('POST', '/api/withdraws', {
      token: token2,
      body: { amount: 20, useSavedAccount: true },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    // a failing request too: its error line goes through the same redaction
    expect((await call('POST', '/api/auth/login', { body: { email, password } })).status).toBe(401);

    const text = captured.lines.join('\n');
    for (const secret of [password, newPassword, token, token2, iban, iban.slice(4), signature]) {
      expect(text, `a log line holds ${secret}`).not.toContain(secret);
    }
    expect(text).not.toContain('PHOTO-BYTES-MARKER');
    expect(text).not.toContain(Buffer.from(photo).toString('base64').slice(0, 40));
    // one line per request, with what an operator needs
    const requests = lines().filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(9);
    const withdrawal = requests.find((l) => l.route === '/api/withdraws' && l.method === 'POST');
    expect(withdrawal).toMatchObject({ status: 201, userId, node: 'node-a', level: 'info' });
    expect(typeof withdrawal?.ms).toBe('number');
    expect(withdrawal?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    // patterns, never paths
    expect(requests.map((l) => l.route)).toContain('/api/tasks/:id/start');
    expect(text).not.toContain(`/api/tasks/${taskId}`);
    for (const l of lines()) expect(typeof l.time).toBe('string');
  });

  it('takes X-Request-Id from a trusted proxy, echoes it, and makes one when it is missing or odd', async () => {
    const given = await fetch(`${server.url}/api/settings`, { headers: { 'X-Request-Id': 'lb-1234' } });
    expect(given.headers.get('X-Request-Id')).toBe('lb-1234');
    expect(lines().some((l) => l.reqId === 'lb-1234' && l.route === '/api/settings')).toBe(true);
    const odd = await fetch(`${server.url}/api/settings`, { headers: { 'X-Request-Id': 'a b\u00e7"' } });
    expect(odd.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await fetch(`${server.url}/api/nothing/here`);
    expect(none.status).toBe(404);
    expect(none.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ignores X-Request-Id without TRUST_PROXY', async () => {
    const other = await createTestApp();
    try {
      const res = await other.app.request('/api/settings', { headers: { 'X-Request-Id': 'client-chosen' } });
      expect(res.headers.get('X-Request-Id')).not.toBe('client-chosen');
    } finally {
      await other.dispose();
    }
  });
});

describe('the log settings', () => {
  it.each([
    [{}, false, { level: 'info', format: 'json' }],
    [{}, true, { level: 'info', format: 'pretty' }],
    [{ LOG_FORMAT: 'pretty' }, false, { level: 'info', format: 'pretty' }],
    [{ LOG_FORMAT: 'json' }, true, { level: 'info', format: 'json' }],
    [{ LOG_LEVEL: 'WARN' }, false, { level: 'warn', format: 'json' }],
  ])('reads %j (terminal: %s) as %j', (env, terminal, expected) => {
    expect(logOptionsFrom(env, 'n', terminal)).toEqual({ ...expected, node: 'n' });
  });

  it('keeps lines under LOG_LEVEL out, and prints readable lines when pretty', async () => {
    const quiet = captureLines();
    const warnOnly = await createLogger({ level: 'warn', format: 'json', node: 'n' }, quiet.stream);
    warnOnly.info('not this');
    warnOnly.warn('this');
    expect(quiet.lines.map((l) => JSON.parse(l).msg)).toEqual(['this']);
    const pretty = captureLines();
    const readable = await createLogger({ level: 'info', format: 'pretty', node: 'n' }, pretty.stream);
    readable.info({ iban: 'TR330006100519786457841326' }, 'listening on http://127.0.0.1:1');
    const text = pretty.lines.join('\n');
    expect(text).toContain('INFO');
    expect(text).toContain('listening on http://127.0.0.1:1');
    expect(text).not.toContain('{"level"');
    // a payout account that reaches a line anyway keeps only its last 4
    expect(text).toContain('****1326');
    expect(text).not.toContain('TR330006100519786457841326');
  });
});

describe('the scrub of what a line carries', () => {
  it('replaces secrets and masks payout accounts one and two levels deep, and copies only then', () => {
    const plain = { reqId: 'r1', method: 'GET', route: '/api/tasks', status: 200, ms: 1.5 };
    expect(scrub(plain)).toBe(plain);
    const nested = {
      user: { id: 'u1', Password: 'hunter2-secret', iban: 'TR33 0006 1005 1978 6457 8413 26' },
      Token: 'eyJ.abc.def',
      withdrawal: { papara: '1234567890', amount: 50 },
      err: new Error('boom'),
    };
    const out = scrub(nested);
    expect(out).not.toBe(nested);
    expect(out.Token).toBe('[redacted]');
    expect(out.user).toEqual({ id: 'u1', Password: '[redacted]', iban: '****1326' });
    expect(out.withdrawal).toEqual({ papara: '****7890', amount: 50 });
    expect(out.err).toBe(nested.err);
    // what was logged is left as the caller made it
    expect(nested.user.Password).toBe('hunter2-secret');
    expect(JSON.stringify(out)).not.toMatch(/hunter2|eyJ|1978|123456/);
  });
});
