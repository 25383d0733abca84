import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { DEFAULT_BAN_REASON } from '../../errors';
import { NODE_MODES } from '../../testing/cluster';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

const DAY = 24 * 60 * 60;
const INVALID = {
  success: false,
  error: { code: 'invalid_credentials', message: 'Invalid email or password' },
};

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

function decodeJwt(token: string) {
  const [header, payload] = token.split('.');
  return { header: decodePart(header), payload: decodePart(payload) };
}

describe('POST /api/auth/login', () => {
  let t: TestApp;
  const login = (body: unknown) => t.call('POST', '/api/auth/login', { body });

  beforeAll(async () => {
    // generous limits: these scenarios fail on purpose many times from one address
    t = await createTestApp({ throttle: { perPair: 100, perAddress: 1000, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await t.dispose();
  });

  it.each([
    ['a user', 'user'],
    ['an admin', 'admin'],
  ] as const)('signs in %s with the right password', async (_label, role) => {
    const user = await makeUser(t.deps.db, { role });
    const res = await login({ email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      token: expect.any(String),
      data: { _id: user._id, email: user.email, role, status: 'active' },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|\$argon2/);
    const me = await t.call('GET', '/api/users/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.data.role).toBe(role);
  });

  it('finds the account whatever the letter case and surrounding spaces of the email', async () => {
    const user = await makeUser(t.deps.db, { email: 'case.login@example.test' });
    const res = await login({ email: '  CASE.Login@EXAMPLE.test ', password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data._id).toBe(user._id);
  });

  it('refuses a wrong password with 401 invalid_credentials', async () => {
    const user = await makeUser(t.deps.db);
    const res = await login({ email: user.email, password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    expect(res.body.token).toBeUndefined();
  });

  it.each([
    ['an unknown email', async () => 'nobody@example.test'],
    [
      'the email of a deleted account',
      async () => {
        await makeUser(t.deps.db, { email: 'deleted@example.test', deleted_at: new Date().toISOString() });
        return 'deleted@example.test';
      },
    ],
  ])('gives %s the same reply as a wrong password', async (_label, emailOf) => {
    const res = await login({ email: await emailOf(), password: TEST_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it.each([
    ['a missing email', { password: TEST_PASSWORD }, 'email', FIELD_MESSAGES.emailRequired],
    ['a malformed email', { email: 'nope', password: TEST_PASSWORD }, 'email', FIELD_MESSAGES.emailInvalid],
    ['a missing password', { email: 'a@example.test' }, 'password', FIELD_MESSAGES.passwordRequired],
    [
      'a short password',
      { email: 'a@example.test', password: '12345' },
      'password',
      FIELD_MESSAGES.passwordTooShort,
    ],
    [
      'a rememberMe that is not a boolean',
      { email: 'a@example.test', password: TEST_PASSWORD, rememberMe: 'yes' },
      'rememberMe',
      FIELD_MESSAGES.invalidValue,
    ],
  ])('refuses %s with 422 and the field message', async (_label, body, field, message) => {
    const res = await login(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.errors[field]).toBe(message);
  });

  it.each([
    ['without rememberMe', {}, DAY],
    ['with rememberMe false', { rememberMe: false }, DAY],
    ['with rememberMe', { rememberMe: true }, 30 * DAY],
  ])('gives a token %s that lasts the right time', async (_label, extra, lifetime) => {
    const user = await makeUser(t.deps.db);
    const before = Math.floor(Date.now() / 1000);
    const res = await login({ email: user.email, password: TEST_PASSWORD, ...extra });
    expect(res.status).toBe(200);
    const { header, payload } = decodeJwt(res.body.token);
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({
      sub: user._id,
      email: user.email,
      name: user.name,
      role: 'user',
      status: 'active',
      banReason: null,
    });
    expect(payload.exp as number).toBe((payload.iat as number) + lifetime);
    expect(Math.abs((payload.exp as number) - (before + lifetime))).toBeLessThanOrEqual(5);
  });

  it('refuses a banned user with 403 banned and the ban reason, and no token', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'Sahte kanıt yükledi' });
    const res = await login({ email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'banned', message: expect.any(String), banReason: 'Sahte kanıt yükledi' },
    });
    expect(res.body.token).toBeUndefined();
  });

  it('gives a banned user without a stored reason the default reason', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: null });
    const res = await login({ email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'banned', banReason: DEFAULT_BAN_REASON });
  });

  it('does not tell a banned user with a wrong password that the account exists', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'x' });
    const res = await login({ email: user.email, password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('lets a suspended user sign in', async () => {
    const user = await makeUser(t.deps.db, { status: 'suspended' });
    const res = await login({ email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('suspended');
    const me = await t.call('GET', '/api/users/me', { token: res.body.token });
    expect(me.status).toBe(200);
  });

  it('stores device_id, oneSignalId and the time of the sign-in', async () => {
    const user = await makeUser(t.deps.db);
    const res = await login({
      email: user.email,
      password: TEST_PASSWORD,
      device_id: 'phone-1',
      oneSignalId: 'player-1',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ device_id: 'phone-1', oneSignalId: 'player-1' });
    const row = await t.deps.db
      .selectFrom('users')
      .select(['device_id', 'one_signal_id', 'last_active'])
      .where('_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ device_id: 'phone-1', one_signal_id: 'player-1' });
    expect(Date.now() - Date.parse(row.last_active ?? '')).toBeLessThan(60_000);
  });

  it('ignores role, status and balance sent with the sign-in', async () => {
    const user = await makeUser(t.deps.db);
    const res = await login({
      email: user.email,
      password: TEST_PASSWORD,
      role: 'admin',
      status: 'active',
      balance: 999,
    });
    expect(res.status).toBe(200);
    const row = await t.deps.db
      .selectFrom('users')
      .select(['role', 'balance'])
      .where('_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'user', balance: 0 });
  });
});

describe.each(NODE_MODES)('login throttling (%s)', (_mode, mode) => {
  let t: TestApp;
  const login = (body: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/auth/login', { body, headers });

  beforeAll(async () => {
    t = await createTestApp({
      env: { ...mode, TRUST_PROXY: '1' },
      throttle: { perPair: 3, perAddress: 10, windowSeconds: 60 },
    });
  });
  afterAll(async () => {
    await t.dispose();
  });

  function expectThrottled(res: Awaited<ReturnType<typeof login>>) {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, error: { code: 'too_many_requests' } });
    expect(typeof res.body.error.message).toBe('string');
    const retryAfter = Number(res.headers.get('Retry-After'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body.token).toBeUndefined();
  }

  it('refuses an account from one address with 429 and Retry-After after 3 failures, even with the right password', async () => {
    const user = await makeUser(t.deps.db);
    const ip = { 'X-Forwarded-For': '203.0.113.1' };
    for (let i = 0; i < 3; i++) {
      expect((await login({ email: user.email, password: 'wrong-password' }, ip)).status).toBe(401);
    }
    expectThrottled(await login({ email: user.email, password: TEST_PASSWORD }, ip));
    // the strict limit is the (account, address) pair: the owner's own address is not locked out
    const own = await login(
      { email: user.email, password: TEST_PASSWORD },
      { 'X-Forwarded-For': '203.0.113.2' },
    );
    expect(own.status).toBe(200);
  });

  it('counts failures per account whatever the letter case and spaces of the email', async () => {
    const user = await makeUser(t.deps.db, { email: 'throttle.case@example.test' });
    const ip = { 'X-Forwarded-For': '203.0.113.3' };
    for (const email of [
      'THROTTLE.case@example.test',
      ' throttle.case@example.test',
      'Throttle.Case@Example.Test',
    ]) {
      expect((await login({ email, password: 'wrong-password' }, ip)).status).toBe(401);
    }
    expectThrottled(await login({ email: user.email, password: TEST_PASSWORD }, ip));
  });

  it('forgets the failures of an account after a successful sign-in', async () => {
    const user = await makeUser(t.deps.db);
    const ip = { 'X-Forwarded-For': '203.0.113.4' };
    const wrong = { email: user.email, password: 'wrong-password' };
    const right = { email: user.email, password: TEST_PASSWORD };
    for (const [body, status] of [
      [wrong, 401],
      [wrong, 401],
      [right, 200],
      [wrong, 401],
      [wrong, 401],
      [right, 200],
    ] as const) {
      expect((await login(body, ip)).status).toBe(status);
    }
  });

  it('throttles unknown emails like known ones', async () => {
    const ip = { 'X-Forwarded-For': '203.0.113.5' };
    const body = { email: 'ghost@example.test', password: 'wrong-password' };
    for (let i = 0; i < 3; i++) expect((await login(body, ip)).status).toBe(401);
    expectThrottled(await login(body, ip));
  });

  it('refuses an address with 429 after 10 failures across accounts, and only that address', async () => {
    const ip = { 'X-Forwarded-For': '198.51.100.7' };
    for (let i = 0; i < 10; i++) {
      const res = await login({ email: `spray-${i}@example.test`, password: 'wrong-password' }, ip);
      expect(res.status).toBe(401);
    }
    const victim = await makeUser(t.deps.db);
    expectThrottled(await login({ email: victim.email, password: TEST_PASSWORD }, ip));
    const elsewhere = await login(
      { email: victim.email, password: TEST_PASSWORD },
      { 'X-Forwarded-For': '198.51.100.8' },
    );
    expect(elsewhere.status).toBe(200);
  });

  it('counts the address the proxy saw, not the hops a client forged before it', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await login(
        { email: `forger-${i}@example.test`, password: 'wrong-password' },
        { 'X-Forwarded-For': `10.9.8.${i}, 198.51.100.77` },
      );
      expect(res.status).toBe(401);
    }
    const res = await login(
      { email: 'forger-x@example.test', password: 'wrong-password' },
      { 'X-Forwarded-For': '10.9.8.200, 198.51.100.77' },
    );
    expectThrottled(res);
  });

  it('lets no more guesses through than the limit when they arrive all at once', async () => {
    const user = await makeUser(t.deps.db);
    const ip = { 'X-Forwarded-For': '203.0.113.10' };
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => login({ email: user.email, password: 'wrong-password' }, ip)),
    );
    const statuses = replies.map((r) => r.status);
    // the rest are refused by the pair's limit, or by the account's share of the hashing queue
    // (an attempt refused there checked no password and does not count)
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    let guesses = statuses.filter((s) => s === 401).length;
    for (;;) {
      const res = await login({ email: user.email, password: 'wrong-password' }, ip);
      if (res.status === 429) break;
      expect(res.status).toBe(401);
      guesses++;
    }
    // the attempts reach the counters side by side (their reads of the account no longer wait for
    // one another, and counters in a database are written while others are under way), so
    // attempts refused by the pair's limit (which count, as they always have) may use up the
    // limit before an attempt refused by the busy queue gives its count back: never more guesses
    // than the limit, sometimes fewer
    expect(guesses).toBeGreaterThanOrEqual(1);
    expect(guesses).toBeLessThanOrEqual(3);
  });

  it('does not count successful sign-ins against a shared address', async () => {
    const ip = { 'X-Forwarded-For': '203.0.113.11' };
    for (let i = 0; i < 12; i++) {
      const user = await makeUser(t.deps.db);
      expect((await login({ email: user.email, password: TEST_PASSWORD }, ip)).status).toBe(200);
    }
  });

  it('does not count a request refused by validation as a failed attempt', async () => {
    const user = await makeUser(t.deps.db);
    const ip = { 'X-Forwarded-For': '203.0.113.6' };
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: user.email, password: '123' }, ip)).status).toBe(422);
    }
    expect((await login({ email: user.email, password: TEST_PASSWORD }, ip)).status).toBe(200);
  });
});

describe.each(NODE_MODES)('login throttling cannot lock the owner out (%s)', (_mode, mode) => {
  it('lets the admin sign in at once from their own address after 50 wrong passwords from 50 addresses', async () => {
    // the production limits, behind a proxy so each attacker request has its own address
    const t = await createTestApp({ env: { ...mode, TRUST_PROXY: '1' } });
    try {
      const admin = await makeUser(t.deps.db, { role: 'admin', email: 'boss@example.test' });
      const home = { 'X-Forwarded-For': '192.0.2.10' };
      const right = { email: admin.email, password: TEST_PASSWORD };
      // the admin has signed in from home before: the address is known to the account
      expect((await t.call('POST', '/api/auth/login', { body: right, headers: home })).status).toBe(200);
      const wrong = { email: admin.email, password: 'wrong-password' };
      const statuses = new Set<number>();
      for (let i = 0; i < 50; i++) {
        const res = await t.call('POST', '/api/auth/login', {
          body: wrong,
          headers: { 'X-Forwarded-For': `198.18.${Math.floor(i / 250)}.${i % 250}` },
        });
        statuses.add(res.status);
      }
      // the account is under attack and locked to strangers
      expect([...statuses].sort()).toEqual([401, 429]);
      expect(await t.deps.throttle.lock(admin.email)).not.toBeNull();
      const started = Date.now();
      const res = await t.call('POST', '/api/auth/login', { body: right, headers: home });
      const took = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.body.data.role).toBe('admin');
      // refused or let through, never held
      expect(took).toBeLessThan(2_000);
    } finally {
      await t.dispose();
    }
  });
});

describe.each(NODE_MODES)('login throttling without a trusted proxy (%s)', (_mode, mode) => {
  it('ignores X-Forwarded-For, so a client cannot dodge the address limit by inventing addresses', async () => {
    const t = await createTestApp({ env: mode, throttle: { perPair: 3, perAddress: 10, windowSeconds: 60 } });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await t.call('POST', '/api/auth/login', {
          body: { email: `forged-${i}@example.test`, password: 'wrong-password' },
          headers: { 'X-Forwarded-For': `192.0.2.${i}` },
        });
        expect(res.status).toBe(401);
      }
      const res = await t.call('POST', '/api/auth/login', {
        body: { email: 'forged-x@example.test', password: 'wrong-password' },
        headers: { 'X-Forwarded-For': '192.0.2.200' },
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    } finally {
      await t.dispose();
    }
  });
});
