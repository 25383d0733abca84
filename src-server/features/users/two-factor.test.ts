import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { burst } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from './users.repository';

// the app's clock, moved by the tests: a code belongs to a 30-second step of it
let now = Date.parse('2026-06-01T10:00:00.000Z');
const clock = () => new Date(now);
const PER_PAIR = 4;

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' }, clock, throttle: { perPair: PER_PAIR } });
  admin = await makeUser(t.deps.db, { role: 'admin', name: 'Admin' });
  adminToken = await t.tokenFor(admin, true);
});
afterAll(async () => {
  await t.dispose();
});

/** The code an authenticator app shows for the secret, `steps` steps from now. */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now + steps * 30_000 });

let address = 10;
const login = (body: Record<string, unknown>, ip = `203.0.113.${address++}`) =>
  t.call('POST', '/api/auth/login', { body, headers: { 'X-Forwarded-For': ip } });

/** A worker with two-factor on: their secret, recovery codes and a token. */
async function enrolled(overrides: Partial<UserRow> = {}) {
  const user = await makeUser(t.deps.db, overrides);
  const token = await t.tokenFor(user, true);
  const setup = await t.call('POST', '/api/users/me/two-factor/setup', {
    token,
    body: { currentPassword: TEST_PASSWORD },
  });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  const enable = await t.call('POST', '/api/users/me/two-factor/enable', {
    token,
    body: { code: codeOf(secret) },
  });
  expect(enable.status).toBe(200);
  // the enabling code's step is used up: the next sign-in needs the next code
  now += 30_000;
  return { user, token, secret, recoveryCodes: enable.body.data.recoveryCodes as string[] };
}

describe('turning two-factor on', () => {
  it('gives a secret and its otpauth URL after the password, kept encrypted', async () => {
    const user = await makeUser(t.deps.db, { email: 'ayse@example.test' });
    const token = await t.tokenFor(user);
    const res = await t.call('POST', '/api/users/me/two-factor/setup', {
      token,
      body: { currentPassword: TEST_PASSWORD, secret: 'JBSWY3DPEHPK3PXP' },
    });
    expect(res.status).toBe(200);
    const { secret, otpauthUrl } = res.body.data;
    // a field sent with the request never picks the secret
    expect(secret).not.toBe('JBSWY3DPEHPK3PXP');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('TaskReward');
    expect(decodeURIComponent(url.pathname)).toContain('ayse@example.test');
    const row = await t.deps.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row.enabled_at).toBeNull();
    expect(row.secret).not.toContain(secret);
    // not on until a code confirms it
    expect((await t.call('GET', '/api/users/me/two-factor', { token })).body.data).toEqual({
      enabled: false,
      required: false,
    });
  });

  it('refuses the setup without the right current password (422)', async () => {
    const token = await t.tokenFor(await makeUser(t.deps.db));
    for (const body of [{}, { currentPassword: 'wrong-password' }]) {
      const res = await t.call('POST', '/api/users/me/two-factor/setup', { token, body });
      expect(res.status).toBe(422);
      expect(res.body.error.errors.currentPassword).toBeDefined();
    }
  });

  it('turns on with a right code, giving ten single-use recovery codes stored hashed, once', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const { secret } = (
      await t.call('POST', '/api/users/me/two-factor/setup', {
        token,
        body: { currentPassword: TEST_PASSWORD },
      })
    ).body.data;
    const wrong = await t.call('POST', '/api/users/me/two-factor/enable', {
      token,
      body: { code: codeOf(secret, 5) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('two_factor_invalid');
    const res = await t.call('POST', '/api/users/me/two-factor/enable', {
      token,
      body: { code: codeOf(secret), recoveryCodes: ['mine1-mine1'] },
    });
    expect(res.status).toBe(200);
    const codes = res.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await t.deps.db
      .selectFrom('recovery_codes')
      .selectAll()
      .where('user_id', '=', user._id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes.map((c) => c.replace('-', ''))).not.toContain(row.code_hash);
    const again = await t.call('POST', '/api/users/me/two-factor/enable', {
      token,
      body: { code: codeOf(secret, 1) },
    });
    expect(again.status).toBe(409);
    const setupAgain = await t.call('POST', '/api/users/me/two-factor/setup', {
      token,
      body: { currentPassword: TEST_PASSWORD },
    });
    expect(setupAgain.status).toBe(409);
    expect(setupAgain.body.error.code).toBe('two_factor_enabled');
  });

  it('turns on once when two confirmations race', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const { secret } = (
      await t.call('POST', '/api/users/me/two-factor/setup', {
        token,
        body: { currentPassword: TEST_PASSWORD },
      })
    ).body.data;
    const replies = await burst(6, () =>
      t.call('POST', '/api/users/me/two-factor/enable', { token, body: { code: codeOf(secret) } }),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(5);
    const winner = replies.find((r) => r.status === 200)!;
    const stored = await t.deps.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user._id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(winner.body.data.recoveryCodes).toHaveLength(10);
  });

  it('answers 400 two_factor_not_started to a confirmation without a setup, and 401 to a visitor', async () => {
    const token = await t.tokenFor(await makeUser(t.deps.db));
    const res = await t.call('POST', '/api/users/me/two-factor/enable', { token, body: { code: '123456' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('two_factor_not_started');
    for (const path of ['setup', 'enable', 'disable'])
      expect((await t.call('POST', `/api/users/me/two-factor/${path}`, { body: {} })).status).toBe(401);
  });
});

describe('signing in with two-factor', () => {
  it('never tells a wrong password whether the account has two-factor', async () => {
    const { user } = await enrolled();
    const plain = await makeUser(t.deps.db);
    const a = await login({ email: user.email, password: 'wrong-password', code: '000000' });
    const b = await login({ email: plain.email, password: 'wrong-password', code: '000000' });
    expect(a.status).toBe(401);
    expect(a.body).toEqual(b.body);
  });

  it('asks for the code after the right password, refuses a wrong one, accepts the current one', async () => {
    const { user, secret } = await enrolled();
    const ip = '203.0.113.200';
    const missing = await login({ email: user.email, password: TEST_PASSWORD }, ip);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('two_factor_required');
    expect(missing.body.token).toBeUndefined();
    const wrong = await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret, 4) }, ip);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('two_factor_invalid');
    const ok = await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret) }, ip);
    expect(ok.status).toBe(200);
    expect((await t.call('GET', '/api/users/me', { token: ok.body.token })).status).toBe(200);
  });

  it('accepts a code once: replayed within its window it is refused', async () => {
    const { user, secret } = await enrolled();
    const code = codeOf(secret);
    expect((await login({ email: user.email, password: TEST_PASSWORD, code })).status).toBe(200);
    // the same code, 20 seconds later (still within its window), from another address
    now += 20_000;
    const replay = await login({ email: user.email, password: TEST_PASSWORD, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('two_factor_invalid');
    // nor a code of the step before the one used
    expect(
      (await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret, -1) })).status,
    ).toBe(401);
    // the next step's code is fine
    now += 30_000;
    expect((await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret) })).status).toBe(
      200,
    );
  });

  it('accepts a code of the step before or after (clock drift), never two away', async () => {
    const { user, secret } = await enrolled();
    expect(
      (await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret, -2) })).status,
    ).toBe(401);
    expect(
      (await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret, 1) })).status,
    ).toBe(200);
  });

  it('lets one of many sign-ins racing with one code in', async () => {
    const { user, secret } = await enrolled();
    const code = codeOf(secret);
    const replies = await burst(8, (i) =>
      login({ email: user.email, password: TEST_PASSWORD, code }, `198.51.100.${100 + i}`),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    // the others: the code is used up (401), or the sign-in queue or throttle turned them away
    for (const r of replies.filter((r) => r.status !== 200)) {
      expect([401, 429, 503]).toContain(r.status);
      if (r.status === 401) expect(r.body.error.code).toBe('two_factor_invalid');
    }
  });

  it('accepts each recovery code once', async () => {
    const { user, recoveryCodes } = await enrolled();
    const [first, second] = recoveryCodes;
    expect(
      (await login({ email: user.email, password: TEST_PASSWORD, recoveryCode: first.toUpperCase() })).status,
    ).toBe(200);
    const reused = await login({ email: user.email, password: TEST_PASSWORD, recoveryCode: first });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('two_factor_invalid');
    // typed without its dash
    expect(
      (await login({ email: user.email, password: TEST_PASSWORD, recoveryCode: second.replace('-', '') }))
        .status,
    ).toBe(200);
  });

  it('counts a wrong code as a failed sign-in: the throttle stops the guesser', async () => {
    const { user, secret } = await enrolled();
    const ip = '192.0.2.77';
    for (let i = 0; i < PER_PAIR; i++) {
      const res = await login(
        { email: user.email, password: TEST_PASSWORD, code: codeOf(secret, 10 + i) },
        ip,
      );
      expect(res.body.error.code).toBe('two_factor_invalid');
    }
    const stopped = await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret) }, ip);
    expect(stopped.status).toBe(429);
    // the right code was never checked: it is still good from elsewhere
    expect((await login({ email: user.email, password: TEST_PASSWORD, code: codeOf(secret) })).status).toBe(
      200,
    );
  });

  it('cannot be skipped through the setup link (setup is closed once an admin exists)', async () => {
    const { user } = await enrolled();
    const res = await t.call('POST', '/api/setup', {
      headers: { 'X-Setup-Token': (await t.deps.setup.open()) ?? 'none' },
      body: { name: 'Sneaky', email: user.email, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.token).toBeUndefined();
  });

  it('cannot be skipped by registering the address again', async () => {
    const { user } = await enrolled();
    const res = await t.call('POST', '/api/auth/register', {
      body: { name: 'Again', email: user.email, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.token).toBeUndefined();
  });
});

describe('turning two-factor off', () => {
  it('needs the password and a code; a wrong code refuses and counts', async () => {
    const { user, token, secret } = await enrolled();
    const noCode = await t.call('POST', '/api/users/me/two-factor/disable', {
      token,
      body: { currentPassword: TEST_PASSWORD },
    });
    expect(noCode.status).toBe(422);
    const wrongPassword = await t.call('POST', '/api/users/me/two-factor/disable', {
      token,
      body: { currentPassword: 'wrong-password', code: codeOf(secret) },
    });
    expect(wrongPassword.status).toBe(422);
    const wrongCode = await t.call('POST', '/api/users/me/two-factor/disable', {
      token,
      body: { currentPassword: TEST_PASSWORD, code: codeOf(secret, 7) },
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.error.code).toBe('two_factor_invalid');
    const ok = await t.call('POST', '/api/users/me/two-factor/disable', {
      token,
      body: { currentPassword: TEST_PASSWORD, code: codeOf(secret) },
    });
    expect(ok.status).toBe(200);
    expect((await login({ email: user.email, password: TEST_PASSWORD })).status).toBe(200);
    expect(
      await t.deps.db.selectFrom('recovery_codes').selectAll().where('user_id', '=', user._id).execute(),
    ).toEqual([]);
  });

  it('lets an admin remove another user’s two-factor, audited; never their own', async () => {
    const { user } = await enrolled();
    const res = await t.call('DELETE', `/api/admin/users/${user._id}/two-factor`, { token: adminToken });
    expect(res.status).toBe(200);
    expect((await login({ email: user.email, password: TEST_PASSWORD })).status).toBe(200);
    const [logged] = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.two_factor_remove')
      .where('target_id', '=', user._id)
      .execute();
    expect(logged.actor_id).toBe(admin._id);
    const again = await t.call('DELETE', `/api/admin/users/${user._id}/two-factor`, { token: adminToken });
    expect(again.status).toBe(409);
    const own = await t.call('DELETE', `/api/admin/users/${admin._id}/two-factor`, { token: adminToken });
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('own_two_factor');
  });

  it("refuses a worker removing someone's two-factor (403)", async () => {
    const { user } = await enrolled();
    const worker = await t.tokenFor(await makeUser(t.deps.db));
    const res = await t.call('DELETE', `/api/admin/users/${user._id}/two-factor`, { token: worker });
    expect(res.status).toBe(403);
    expect((await login({ email: user.email, password: TEST_PASSWORD })).body.error.code).toBe(
      'two_factor_required',
    );
  });
});

describe('two-factor required of admins', () => {
  const requireSetting = (on: boolean, token = adminToken) =>
    t.call('PUT', '/api/settings', { token, body: { security: { requireAdminTwoFactor: on } } });

  it('keeps an admin without it on the enrolment, until they turn it on', async () => {
    const other = await makeUser(t.deps.db, { role: 'admin' });
    const token = await t.tokenFor(other, true);
    expect((await requireSetting(true)).status).toBe(200);
    try {
      const refused = await t.call('GET', '/api/admin/users', { token });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('two_factor_enrolment_required');
      expect((await t.call('GET', '/api/notifications', { token })).status).toBe(403);
      // what the enrolment needs stays open
      expect((await t.call('GET', '/api/users/me', { token })).status).toBe(200);
      expect((await t.call('GET', '/api/users/me/sessions', { token })).status).toBe(200);
      expect((await t.call('GET', '/api/users/me/two-factor', { token })).body.data).toEqual({
        enabled: false,
        required: true,
      });
      // a worker is not held
      const worker = await t.tokenFor(await makeUser(t.deps.db));
      expect((await t.call('GET', '/api/notifications', { token: worker })).status).toBe(200);
      const { secret } = (
        await t.call('POST', '/api/users/me/two-factor/setup', {
          token,
          body: { currentPassword: TEST_PASSWORD },
        })
      ).body.data;
      await t.call('POST', '/api/users/me/two-factor/enable', { token, body: { code: codeOf(secret) } });
      expect((await t.call('GET', '/api/admin/users', { token })).status).toBe(200);
    } finally {
      // the admin without two-factor turns it off again: the rule holds them too
      await t.deps.db.deleteFrom('settings').where('key', '=', 'security').execute();
    }
  });

  it('refuses the setting to anyone but an admin, and keeps its type', async () => {
    const worker = await t.tokenFor(await makeUser(t.deps.db));
    expect((await requireSetting(true, worker)).status).toBe(403);
    const bad = await t.call('PUT', '/api/settings', {
      token: adminToken,
      body: { security: { requireAdminTwoFactor: 'yes' } },
    });
    expect(bad.status).toBe(422);
  });
});

describe('a flood of two-factor requests', () => {
  it('answers setups sent at once with 200 or 429, never a server error, leaving one pending secret', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const replies = await burst(15, () =>
      t.call('POST', '/api/users/me/two-factor/setup', { token, body: { currentPassword: TEST_PASSWORD } }),
    );
    for (const r of replies) expect([200, 429, 503]).toContain(r.status);
    const rows = await t.deps.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', user._id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
