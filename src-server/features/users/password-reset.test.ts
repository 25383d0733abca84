import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { linkIn, SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { sendDueMail } from '../mail/outbox.job';
import { FORGOT_PASSWORD_FLOOR_MS } from './account-mail.service';

let sink: SmtpSink;
let t: TestApp;
// the app's clock: tests move it forward to pass a link's lifetime
let offsetMs = 0;
let n = 0;
const fresh = (prefix = 'user') => `${prefix}-${++n}-${Date.now()}@example.test`;
const forgot = (email: string, ip = '10.0.0.1') =>
  t.call('POST', '/api/auth/forgot-password', { body: { email }, headers: { 'X-Forwarded-For': ip } });
const reset = (body: unknown, ip = '10.0.1.1') =>
  t.call('POST', '/api/auth/reset-password', { body, headers: { 'X-Forwarded-For': ip } });
const login = (email: string, password: string) =>
  t.call('POST', '/api/auth/login', {
    body: { email, password },
    headers: { 'X-Forwarded-For': '10.9.9.9' },
  });

/** Sends what is queued and returns the mails that arrived meanwhile. */
async function deliver() {
  const before = sink.mails.length;
  const outcome = await sendDueMail(t.deps);
  expect(outcome.ok).toBe(true);
  return sink.mails.slice(before);
}

beforeAll(async () => {
  sink = await new SmtpSink().start();
  t = await createTestApp({
    env: { SMTP_URL: sink.url, MAIL_FROM: '"TaskReward" <no-reply@taskreward.test>', TRUST_PROXY: '1' },
    clock: () => new Date(Date.now() + offsetMs),
    throttle: { mailsPerRecipient: 3, mailsPerAddress: 50, tokenGuessesPerAddress: 20 },
  });
});
afterAll(async () => {
  await t.dispose();
  await sink.stop();
});

describe('POST /api/auth/forgot-password', () => {
  it('mails a reset link, text and HTML in the account language, to the request origin', async () => {
    const user = await makeUser(t.deps.db, { email: fresh(), name: 'Jane Doe', language: 'en' });
    const res = await forgot(user.email);
    expect(res.status).toBe(200);
    const mails = await deliver();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.recipients).toEqual([user.email]);
    expect(mail.parsed.subject).toBe('Reset your TaskReward password');
    expect(mail.parsed.from?.text).toContain('no-reply@taskreward.test');
    expect(mail.parsed.text).toContain('Hello Jane Doe');
    expect(mail.parsed.html).toContain('Choose a new password');
    const { url, token } = linkIn(mail, '/reset-password');
    expect(url.origin).toBe('http://localhost');
    // 32 random bytes in base64url
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only a digest is stored
    const rows = await t.deps.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('user_id', '=', user._id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].digest).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);
    // a sent mail keeps no body: the link is not in the database any more
    const outbox = await t.deps.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('user_id', '=', user._id)
      .execute();
    expect(outbox[0]).toMatchObject({ status: 'sent', text_body: '', html_body: '' });
  });

  it('writes in Turkish for a Turkish account', async () => {
    const user = await makeUser(t.deps.db, { email: fresh(), name: 'Ayşe', language: 'tr' });
    await forgot(user.email);
    const [mail] = await deliver();
    expect(mail.parsed.subject).toBe('TaskReward şifreni sıfırla');
    expect(mail.parsed.text).toContain('Merhaba Ayşe');
  });

  it('answers an unknown, a banned and a known address alike, and mails only the known one', async () => {
    const known = await makeUser(t.deps.db, { email: fresh() });
    const banned = await makeUser(t.deps.db, { email: fresh(), status: 'banned', ban_reason: 'fraud' });
    const replies = await Promise.all([
      forgot(known.email, '10.0.2.1'),
      forgot(fresh('nobody'), '10.0.2.2'),
      forgot(banned.email, '10.0.2.3'),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const mails = await deliver();
    expect(mails.map((m) => m.recipients[0])).toEqual([known.email]);
  });

  it('takes the same time for an address with and without an account', async () => {
    const known = await makeUser(t.deps.db, { email: fresh() });
    const time = async (email: string, ip: string) => {
      const start = performance.now();
      expect((await forgot(email, ip)).status).toBe(200);
      return performance.now() - start;
    };
    const withAccount: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 3; i++) {
      // a fresh recipient for the unknown side; the known one stays within its three an hour
      withAccount.push(await time(known.email, `10.0.3.${i}`));
      without.push(await time(fresh('ghost'), `10.0.4.${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    for (const ms of [...withAccount, ...without])
      expect(ms).toBeGreaterThanOrEqual(FORGOT_PASSWORD_FLOOR_MS - 5);
    expect(Math.abs(median(withAccount) - median(without))).toBeLessThan(60);
    await deliver();
  });

  it('throttles per email (known or not) and per client address', async () => {
    for (const email of [fresh('throttled'), (await makeUser(t.deps.db, { email: fresh() })).email]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email, `10.0.5.${i}`)).status).toBe(200);
      const refused = await forgot(email, '10.0.5.9');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('too_many_requests');
    }
    await deliver();
  });

  it('refuses a malformed email with 422 and ignores other fields', async () => {
    const bad = await forgot('not-an-email', '10.0.6.1');
    expect(bad.status).toBe(422);
    const user = await makeUser(t.deps.db, { email: fresh() });
    const other = await makeUser(t.deps.db, { email: fresh() });
    const res = await t.call('POST', '/api/auth/forgot-password', {
      body: { email: user.email, userId: other._id, to: other.email },
      headers: { 'X-Forwarded-For': '10.0.6.2' },
    });
    expect(res.status).toBe(200);
    const mails = await deliver();
    expect(mails.map((m) => m.recipients)).toEqual([[user.email]]);
  });
});

describe('POST /api/auth/reset-password', () => {
  async function resetLink(email: string, ip: string) {
    expect((await forgot(email, ip)).status).toBe(200);
    const [mail] = await deliver();
    return linkIn(mail, '/reset-password').token;
  }

  it('sets the password, ends every old session and signs the user in', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const oldSession = await t.tokenFor(user, true);
    expect((await t.call('GET', '/api/users/me', { token: oldSession })).status).toBe(200);
    const token = await resetLink(user.email, '10.0.7.1');
    const res = await reset({ token, password: 'brand-new-pass' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ _id: user._id, emailVerified: true });
    expect((await t.call('GET', '/api/users/me', { token: oldSession })).status).toBe(401);
    expect((await t.call('GET', '/api/users/me', { token: res.body.token })).status).toBe(200);
    expect((await login(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await login(user.email, 'brand-new-pass')).status).toBe(200);
    // used once: the same link again is refused
    const again = await reset({ token, password: 'another-pass' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_token');
  });

  it('voids an earlier link when a new one is asked for', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const first = await resetLink(user.email, '10.0.8.1');
    const second = await resetLink(user.email, '10.0.8.2');
    expect((await reset({ token: first, password: 'pass-one1' })).body.error.code).toBe('invalid_token');
    expect((await reset({ token: second, password: 'pass-two2' })).status).toBe(200);
  });

  it('refuses a link past its 30 minutes', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const token = await resetLink(user.email, '10.0.9.1');
    offsetMs = 31 * 60_000;
    try {
      const res = await reset({ token, password: 'too-late-pass' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_token');
    } finally {
      offsetMs = 0;
    }
    expect((await login(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses a link mailed to an address the account no longer has', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const token = await resetLink(user.email, '10.0.10.1');
    await t.deps.db
      .updateTable('users')
      .set({ email: fresh('moved') })
      .where('_id', '=', user._id)
      .execute();
    expect((await reset({ token, password: 'hijacked-pass' })).body.error.code).toBe('invalid_token');
  });

  it('lets one of two simultaneous uses of a link through', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const token = await resetLink(user.email, '10.0.11.1');
    const replies = await Promise.all([
      reset({ token, password: 'racer-one-1' }, '10.0.11.2'),
      reset({ token, password: 'racer-two-2' }, '10.0.11.3'),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = replies.find((r) => r.status === 200)!.body.token;
    expect((await t.call('GET', '/api/users/me', { token: winner })).status).toBe(200);
  });

  it('ignores fields other than the token and password (the token alone names the account)', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    const victim = await makeUser(t.deps.db, { email: fresh() });
    const token = await resetLink(user.email, '10.0.12.1');
    const res = await reset({
      token,
      password: 'mine-only-1',
      userId: victim._id,
      email: victim.email,
      role: 'admin',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ _id: user._id, role: 'user' });
    expect((await login(victim.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses guessed tokens, then throttles the guessing address', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    await resetLink(user.email, '10.0.13.1');
    const guess = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await reset({ token: guess(), password: 'guessing-1' }, '10.0.13.9')).status);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await reset({ token: 'x'.repeat(5000), password: 'guessing-1' }, '10.0.13.8')).status).toBe(422);
    expect((await login(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('checks the new password like registration does', async () => {
    const res = await reset({ token: 'whatever', password: '123' }, '10.0.14.1');
    expect(res.status).toBe(422);
  });
});

describe('mail headers', () => {
  it('keeps a name with line breaks on one header line: no injected Bcc or second recipient', async () => {
    const user = await makeUser(t.deps.db, {
      email: fresh(),
      name: 'Evil\r\nBcc: victim@example.test\r\nSubject: pwned',
      language: 'en',
    });
    await forgot(user.email, '10.0.15.1');
    const [mail] = await deliver();
    expect(mail.recipients).toEqual([user.email]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.subject).toBe('Reset your TaskReward password');
    const headers = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/^Subject: pwned/im);
    expect(mail.raw).not.toMatch(/^Bcc:/im);
    expect(mail.parsed.text).toContain('Hello Evil Bcc: victim@example.test Subject: pwned,');
  });
});

describe('without SMTP_URL', () => {
  it('says mail is not set up and refuses with 503 email_not_configured', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.call('GET', '/api/auth/mail-status')).body.data).toEqual({ configured: false });
      const user = await makeUser(plain.deps.db);
      const res = await plain.call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('email_not_configured');
      const me = await plain.call('POST', '/api/users/me/verify-email', {
        token: await plain.tokenFor(user),
      });
      expect(me.status).toBe(503);
      // registration goes on as before, with nothing queued
      const reg = await plain.call('POST', '/api/auth/register', {
        body: { name: 'No Mail', email: 'nomail@example.test', password: 'secret123' },
      });
      expect(reg.status).toBe(201);
      expect(reg.body.data.emailVerified).toBe(false);
      expect(await plain.deps.db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
    } finally {
      await plain.dispose();
    }
  });

  it('uses PUBLIC_URL for links when set', async () => {
    const site = await createTestApp({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@taskreward.test',
        PUBLIC_URL: 'https://tasks.example.test/',
      },
    });
    try {
      const user = await makeUser(site.deps.db);
      const before = sink.mails.length;
      await site.call('POST', '/api/auth/forgot-password', {
        body: { email: user.email },
        headers: { Host: 'evil.test' },
      });
      await sendDueMail(site.deps);
      const mail = sink.mails.slice(before).find((m) => m.recipients.includes(user.email))!;
      expect(linkIn(mail, '/reset-password').url.origin).toBe('https://tasks.example.test');
    } finally {
      await site.dispose();
    }
  });
});

describe('two-factor through every way of signing in', () => {
  const code = (secret: string, steps = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offsetMs + steps * 30_000 });

  it('asks the code on every path that signs in: login, the desktop app, setup, registration, a reset', async () => {
    const user = await makeUser(t.deps.db, { email: fresh('two-factor') });
    const session = await t.tokenFor(user, true);
    const setup = await t.call('POST', '/api/users/me/two-factor/setup', {
      token: session,
      body: { currentPassword: TEST_PASSWORD },
    });
    const secret = setup.body.data.secret as string;
    expect(
      (
        await t.call('POST', '/api/users/me/two-factor/enable', {
          token: session,
          body: { code: code(secret) },
        })
      ).status,
    ).toBe(200);

    // the web login, remembered or not
    for (const rememberMe of [false, true]) {
      const res = await t.call('POST', '/api/auth/login', {
        body: { email: user.email, password: TEST_PASSWORD, rememberMe },
        headers: { 'X-Forwarded-For': '10.0.30.1' },
      });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('two_factor_required');
      expect(res.body.token).toBeUndefined();
    }
    // the desktop app in remote mode loads the server's own pages and signs in through the same
    // login, from the server's origin with Electron's user agent: no other way in
    const desktop = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD },
      headers: {
        'X-Forwarded-For': '10.0.30.2',
        Origin: 'https://panel.example.test',
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 TaskReward/1.0 Electron/33.0.0',
      },
    });
    expect(desktop.status).toBe(401);
    expect(desktop.body.error.code).toBe('two_factor_required');
    expect(desktop.body.token).toBeUndefined();
    // the setup link (closed: an admin exists) and a second registration of the address
    const viaSetup = await t.call('POST', '/api/setup', {
      headers: { 'X-Setup-Token': (await t.deps.setup.open()) ?? 'none' },
      body: { name: 'Sneaky', email: user.email, password: TEST_PASSWORD },
    });
    expect(viaSetup.body.token).toBeUndefined();
    const viaRegister = await t.call('POST', '/api/auth/register', {
      body: { name: 'Again', email: user.email, password: TEST_PASSWORD },
      headers: { 'X-Forwarded-For': '10.0.30.3' },
    });
    expect(viaRegister.status).toBe(409);
    expect(viaRegister.body.token).toBeUndefined();
    // a reset by mail sets the password but signs in nobody: a mailbox is one factor
    expect((await forgot(user.email, '10.0.30.4')).status).toBe(200);
    const [mail] = await deliver();
    const viaReset = await reset(
      { token: linkIn(mail, '/reset-password').token, password: 'after-reset-1' },
      '10.0.30.5',
    );
    expect(viaReset.status).toBe(200);
    expect(viaReset.body.token).toBeNull();
    expect(viaReset.body.twoFactorRequired).toBe(true);
    // the new password still needs the code, which then signs in
    const after = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: 'after-reset-1' },
      headers: { 'X-Forwarded-For': '10.0.30.6' },
    });
    expect(after.body.error.code).toBe('two_factor_required');
    const withCode = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: 'after-reset-1', code: code(secret, 1) },
      headers: { 'X-Forwarded-For': '10.0.30.7' },
    });
    expect(withCode.status).toBe(200);
    expect(typeof withCode.body.token).toBe('string');
  });

  it('has no way to a session but the four checked above', () => {
    // every token comes from startSession; a new caller is a new way in, to be added to the test above
    const root = join(process.cwd(), 'src-server');
    const callers = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('testing'))
      .filter((f) => /\bstartSession\(/.test(readFileSync(join(root, f), 'utf8')))
      .map((f) => f.replaceAll('\\', '/'))
      .sort();
    expect(callers).toEqual([
      'features/setup/setup.service.ts',
      'features/users/account-mail.service.ts',
      'features/users/auth.service.ts',
      'features/users/sessions.service.ts',
    ]);
  });
});
