import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { NODE_MODES, sharedDatabase } from '../../testing/cluster';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

// A botnet sends one guess per address, so only the account's own count can stop it. The
// reproduction runs under the production limits (20 failures of one account in a window of 15
// minutes); the other scenarios lock an account after LIMIT failures, to hash fewer passwords.
const LOCKOUT_AFTER = 20;
const LIMIT = 4;
const WINDOW_SECONDS = 15 * 60;
const WRONG = 'wrong-password';

type Reply = Awaited<ReturnType<TestApp['call']>>;

/** The `name=value` of the device cookie a sign-in set, ready for a Cookie header. */
function deviceCookie(res: Reply): string {
  const set = res.headers.get('Set-Cookie') ?? '';
  const pair = /^(device_[A-Za-z0-9_-]+=[^;]+)/.exec(set)?.[1];
  expect(pair, `a device cookie in ${JSON.stringify(set)}`).toBeDefined();
  return pair!;
}

function expectLockedOut(res: Reply, until = WINDOW_SECONDS) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ success: false, error: { code: 'too_many_requests' } });
  const retryAfter = Number(res.headers.get('Retry-After'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(until);
  expect(res.body.token).toBeUndefined();
}

describe.each(NODE_MODES)('account lockout against guesses from many addresses (%s)', (_mode, mode) => {
  it('refuses every guess from the 21st of 40, each from its own address, with 429 and Retry-After', async () => {
    // the production limits, behind a proxy so each request says which address it comes from
    const t = await createTestApp({ env: { ...mode, TRUST_PROXY: '1' } });
    try {
      const user = await makeUser(t.deps.db);
      const replies: Reply[] = [];
      for (let i = 0; i < 40; i++) {
        replies.push(
          await t.call('POST', '/api/auth/login', {
            body: { email: user.email, password: WRONG },
            headers: { 'X-Forwarded-For': `198.18.0.${i}` },
          }),
        );
      }
      expect(replies.map((r) => r.status)).toEqual([
        ...Array(LOCKOUT_AFTER).fill(401),
        ...Array(40 - LOCKOUT_AFTER).fill(429),
      ]);
      for (const res of replies.slice(LOCKOUT_AFTER)) expectLockedOut(res);
    } finally {
      await t.dispose();
    }
  });
});

describe.each(NODE_MODES)('account lockout: who still signs in (%s)', (_mode, mode) => {
  let t: TestApp;
  let block = 0;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...mode, TRUST_PROXY: '1' }, throttle: { accountLockoutAfter: LIMIT } });
  });
  afterAll(async () => {
    await t.dispose();
  });

  /** A fresh block of 250 addresses for a test, so no two tests share an attacker. */
  function addresses(): (i: number) => string {
    const b = ++block;
    return (i) => `198.18.${b}.${i}`;
  }

  const login = (body: Record<string, unknown>, ip: string, cookie?: string) =>
    t.call('POST', '/api/auth/login', {
      body,
      headers: { 'X-Forwarded-For': ip, ...(cookie ? { Cookie: cookie } : {}) },
    });

  /** `n` wrong passwords for the account, each from an address of its own. */
  async function spray(email: string, n: number, from = addresses()): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await login({ email, password: WRONG }, from(i))).status);
    return statuses;
  }

  it.each([
    ['with the account’s device cookie from an address it never used', 'cookie'],
    ['from an address that signed in to the account before, without a cookie', 'address'],
  ] as const)('lets the owner sign in at once during the lockout %s', async (_label, how) => {
    const user = await makeUser(t.deps.db, { role: 'admin' });
    const home = addresses()(1);
    const earlier = await login({ email: user.email, password: TEST_PASSWORD }, home);
    expect(earlier.status).toBe(200);
    await spray(user.email, LIMIT + 2);
    expectLockedOut(await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1)));

    const started = Date.now();
    const res =
      how === 'cookie'
        ? await login({ email: user.email, password: TEST_PASSWORD }, addresses()(7), deviceCookie(earlier))
        : await login({ email: user.email, password: TEST_PASSWORD }, home);
    expect(res.status).toBe(200);
    expect(res.body.data.role).toBe('admin');
    // refused or let through, never held: nothing waits (the machine may be slow, hence a margin)
    expect(Date.now() - started).toBeLessThan(2_000);
    // and the device gets a fresh cookie of its own
    expect(deviceCookie(res)).toMatch(/^device_/);
  });

  it('refuses a stranger with the right password during the lockout, and tells them nothing more', async () => {
    const user = await makeUser(t.deps.db);
    await spray(user.email, LIMIT);
    const right = await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1));
    const wrong = await login({ email: user.email, password: WRONG }, addresses()(2));
    expectLockedOut(right);
    expectLockedOut(wrong);
    // the same answer word for word; only the seconds left may differ by the one that ticked
    // between the two requests
    const { retryAfter: rightWait, ...rightError } = right.body.error;
    const { retryAfter: wrongWait, ...wrongError } = wrong.body.error;
    expect(rightError).toEqual(wrongError);
    expect(Math.abs(rightWait - wrongWait)).toBeLessThanOrEqual(1);
    expect(Object.keys(right.body)).toEqual(Object.keys(wrong.body));
    expect(right.headers.get('Set-Cookie')).toBeNull();
  });

  it('locks an unknown email the same way, so the lockout tells nobody an account exists', async () => {
    const statuses = await spray('nobody-here@example.test', LIMIT + 3);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(3).fill(429)]);
  });

  it('lets the device cookie of registration vouch for its device', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { name: 'Yeni', email: 'registered.device@example.test', password: 'secret123' },
      headers: { 'X-Forwarded-For': addresses()(1) },
    });
    expect(reg.status).toBe(201);
    await spray('registered.device@example.test', LIMIT);
    const body = { email: 'registered.device@example.test', password: 'secret123' };
    expectLockedOut(await login(body, addresses()(1)));
    expect((await login(body, addresses()(2), deviceCookie(reg))).status).toBe(200);
  });

  it('lets the device that set up the first admin vouch for it', async () => {
    const gate = await createTestApp({ env: mode, throttle: { accountLockoutAfter: LIMIT } });
    try {
      const setup = await gate.call('POST', '/api/setup', {
        headers: { 'X-Setup-Token': await gate.deps.setup.open() },
        body: { name: 'Owner', email: 'owner@example.test', password: 'owner-pass-1' },
      });
      expect(setup.status).toBe(201);
      const body = { email: 'owner@example.test', password: 'owner-pass-1' };
      for (let i = 0; i < LIMIT; i++)
        await gate.call('POST', '/api/auth/login', { body: { ...body, password: WRONG } });
      expectLockedOut(await gate.call('POST', '/api/auth/login', { body }));
      const res = await gate.call('POST', '/api/auth/login', {
        body,
        headers: { Cookie: deviceCookie(setup) },
      });
      expect(res.status).toBe(200);
    } finally {
      await gate.dispose();
    }
  });

  it('lets the owner change the password with a session during the lockout', async () => {
    const user = await makeUser(t.deps.db);
    await spray(user.email, LIMIT);
    const res = await t.call('PUT', '/api/users/me', {
      token: await t.tokenFor(user),
      body: { name: user.name, password: 'a-new-password', currentPassword: TEST_PASSWORD },
      headers: { 'X-Forwarded-For': addresses()(1) },
    });
    expect(res.status).toBe(200);
  });

  it('gives a device cookie only a few failures of its own before it vouches for nothing', async () => {
    const user = await makeUser(t.deps.db);
    const earlier = await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1));
    const stolen = deviceCookie(earlier);
    await spray(user.email, LIMIT);
    // a thief with the cookie, from addresses of their own: five guesses (the per-device limit)
    const from = addresses();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await login({ email: user.email, password: WRONG }, from(i), stolen)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // the cookie is spent even with the right password, until the window ends
    expectLockedOut(await login({ email: user.email, password: TEST_PASSWORD }, from(9), stolen));
  });

  it.each([
    [
      'another account’s cookie renamed for this one',
      async (victimId: string) => {
        const other = await makeUser(t.deps.db);
        const own = deviceCookie(
          await login({ email: other.email, password: TEST_PASSWORD }, addresses()(1)),
        );
        const { deviceCookieName } = await import('./token');
        return `${deviceCookieName(victimId, t.deps.secret)}=${own.split('=')[1]}`;
      },
    ],
    [
      'a cookie with one letter of its signature changed',
      async (_victimId: string, genuine: string) => {
        // a letter well inside the signature (the last one carries bits a decoder may ignore)
        const at = genuine.length - 10;
        return `${genuine.slice(0, at)}${genuine[at] === 'A' ? 'B' : 'A'}${genuine.slice(at + 1)}`;
      },
    ],
    [
      'a sign-in token of the account in the cookie',
      async (_victimId: string, genuine: string, token: string) => `${genuine.split('=')[0]}=${token}`,
    ],
  ])('does not let %s vouch for a device', async (_label, forge) => {
    const user = await makeUser(t.deps.db);
    const earlier = await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1));
    const cookie = await forge(user._id, deviceCookie(earlier), earlier.body.token);
    await spray(user.email, LIMIT);
    expectLockedOut(await login({ email: user.email, password: TEST_PASSWORD }, addresses()(2), cookie));
  });

  it('does not take a device cookie as a sign-in token', async () => {
    const user = await makeUser(t.deps.db);
    const cookie = deviceCookie(await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1)));
    const res = await t.call('GET', '/api/users/me', { token: cookie.split('=')[1] });
    expect(res.status).toBe(401);
  });

  it('answers a flood of parallel guesses from many addresses with 401 or 429, never a 5xx, and lets no more than the limit through', async () => {
    const user = await makeUser(t.deps.db);
    const from = addresses();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login({ email: user.email, password: WRONG }, from(i))),
    );
    const statuses = replies.map((r) => r.status);
    // the rest are refused by the lockout, or by the account's share of the hashing queue (an
    // attempt refused there checked no password and does not count)
    expect(
      statuses.every((s) => s === 401 || s === 429),
      statuses.join(' '),
    ).toBe(true);
    let guesses = statuses.filter((s) => s === 401).length;
    const more = addresses();
    for (let i = 0; ; i++) {
      const res = await login({ email: user.email, password: WRONG }, more(i));
      if (res.status === 429) break;
      expect(res.status).toBe(401);
      guesses++;
    }
    // attempts are counted before their password is checked, so a burst cannot all read the same
    // count: exactly the limit on one node; never more with counters in a database, where attempts
    // under way at once may each be refused by the other's count
    expect(guesses).toBeGreaterThanOrEqual(1);
    expect(guesses).toBeLessThanOrEqual(LIMIT);
    if (!t.deps.config.cluster) expect(guesses).toBe(LIMIT);
  });

  it('sets the device cookie HttpOnly, SameSite=Strict, for the sign-in routes only, and Secure behind HTTPS', async () => {
    const user = await makeUser(t.deps.db);
    const plain = await login({ email: user.email, password: TEST_PASSWORD }, addresses()(1));
    const attributes = (res: Reply) =>
      (res.headers.get('Set-Cookie') ?? '')
        .split(';')
        .slice(1)
        .map((a) => a.trim().toLowerCase());
    expect(attributes(plain)).toEqual(
      expect.arrayContaining([
        'httponly',
        'samesite=strict',
        'path=/api/auth',
        `max-age=${180 * 24 * 60 * 60}`,
      ]),
    );
    expect(attributes(plain)).not.toContain('secure');
    const secure = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD },
      headers: { 'X-Forwarded-For': addresses()(1), 'X-Forwarded-Proto': 'https' },
    });
    expect(attributes(secure)).toContain('secure');
  });
});

describe.each(NODE_MODES)('the end of an account lockout (%s)', (_mode, mode) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets strangers try again once the window has ended', async () => {
    // only Date is faked (before the app starts, so its counters read it): nothing else waits
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const t = await createTestApp({
      env: { ...mode, TRUST_PROXY: '1' },
      throttle: { accountLockoutAfter: LIMIT },
    });
    try {
      const user = await makeUser(t.deps.db);
      const login = (password: string, ip: string) =>
        t.call('POST', '/api/auth/login', {
          body: { email: user.email, password },
          headers: { 'X-Forwarded-For': ip },
        });
      for (let i = 0; i < LIMIT; i++) expect((await login(WRONG, `198.18.0.${i}`)).status).toBe(401);
      const locked = await login(TEST_PASSWORD, '192.0.2.1');
      expectLockedOut(locked);
      vi.setSystemTime(Date.now() + (WINDOW_SECONDS - 5) * 1000);
      expectLockedOut(await login(TEST_PASSWORD, '192.0.2.1'));
      vi.setSystemTime(Date.now() + 10 * 1000);
      expect((await login(TEST_PASSWORD, '192.0.2.1')).status).toBe(200);
      expect((await login(WRONG, '198.18.1.1')).status).toBe(401);
    } finally {
      await t.dispose();
    }
  });

  it('locks the account to strangers for the rest of the day after the daily limit, window after window', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const t = await createTestApp({
      env: { ...mode, TRUST_PROXY: '1' },
      throttle: { accountLockoutAfter: LIMIT, accountDailyLockoutAfter: 3 * LIMIT },
    });
    try {
      const user = await makeUser(t.deps.db);
      let n = 0;
      const guess = () =>
        t.call('POST', '/api/auth/login', {
          body: { email: user.email, password: WRONG },
          headers: { 'X-Forwarded-For': `198.18.${n >> 8}.${n++ & 255}` },
        });
      // three windows of LIMIT failures: the day's limit
      for (let w = 0; w < 3; w++) {
        for (let i = 0; i < LIMIT; i++) expect((await guess()).status).toBe(401);
        expectLockedOut(await guess(), 24 * 60 * 60);
        vi.setSystemTime(Date.now() + (WINDOW_SECONDS + 1) * 1000);
      }
      // a new window, but the day's count stands: refused until the day ends, and says so
      const res = await guess();
      expectLockedOut(res, 24 * 60 * 60);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(WINDOW_SECONDS);
      vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
      expect((await guess()).status).toBe(401);
    } finally {
      await t.dispose();
    }
  });
});

describe('an account lockout on two app nodes over one database', () => {
  it('counts the guesses sent to either node together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-lockout-'));
    // two apps over one database: the data folder's SQLite file, or PostgreSQL on that run
    const database = await sharedDatabase();
    const config = readConfig({ DATA_DIR: dir, TRUST_PROXY: '1', ...database.env });
    const first = await openApp(config, { web: new Map() });
    const second = await openApp(config, { web: new Map() });
    try {
      const nodes = [createApp(first.deps), createApp(second.deps)];
      const user = await makeUser(first.deps.db);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await nodes[i % 2].request('/api/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.9.${i}` },
          body: JSON.stringify({ email: user.email, password: i < 25 ? WRONG : TEST_PASSWORD }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(LOCKOUT_AFTER).fill(401), ...Array(10).fill(429)]);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
