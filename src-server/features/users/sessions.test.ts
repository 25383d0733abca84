import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../contract/field-messages';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp({ env: { TRUST_PROXY: '1' } }));
});
afterAll(async () => {
  await t.dispose();
});

const me = (token: string) => t.call('GET', '/api/users/me', { token });
const put = (token: string, body: unknown, ip = '203.0.113.50') =>
  t.call('PUT', '/api/users/me', { body, token, headers: { 'X-Forwarded-For': ip } });
const row = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();

function lifetime(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  return payload.exp - payload.iat;
}

/** A user signed in three times: this session, another browser, and a remember-me phone. */
async function threeSessions() {
  const user = await makeUser(t.deps.db);
  return {
    user,
    here: await t.tokenFor(user),
    other: await t.tokenFor(user),
    phone: await t.tokenFor(user, true),
  };
}

describe('a password change ends the other sessions', () => {
  it('refuses every token issued before the change, and gives the changing session a fresh one', async () => {
    const { user, here, other, phone } = await threeSessions();
    const res = await put(here, {
      name: user.name,
      password: 'a-new-password',
      currentPassword: TEST_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    for (const old of [here, other, phone]) {
      const refused = await me(old);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_token');
    }
    expect((await me(res.body.token)).status).toBe(200);
    expect(lifetime(res.body.token)).toBe(24 * 60 * 60);
  });

  it('keeps a remember-me session remembered in its fresh token', async () => {
    const { user, phone } = await threeSessions();
    const res = await put(phone, {
      name: user.name,
      password: 'a-new-password',
      currentPassword: TEST_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(lifetime(res.body.token)).toBe(30 * 24 * 60 * 60);
  });

  it('gives no new token and ends no session when the password does not change', async () => {
    const { user, here, other } = await threeSessions();
    const res = await put(here, { name: 'Yeni Ad', password: '' });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeUndefined();
    expect((await me(other)).status).toBe(200);
    expect((await row(user._id)).password_hash).toBe(user.password_hash);
  });

  it('ends every session of a user whose password an admin sets, remember-me included', async () => {
    const { user, here, phone } = await threeSessions();
    const res = await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: user.email, role: 'user', status: 'active', password: 'set-by-admin' },
    });
    expect(res.status).toBe(200);
    for (const old of [here, phone]) expect((await me(old)).status).toBe(401);
    // the admin's own session is not touched
    expect((await me(adminToken)).status).toBe(200);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: 'set-by-admin' },
      headers: { 'X-Forwarded-For': '203.0.113.60' },
    });
    expect(login.status).toBe(200);
    expect((await me(login.body.token)).status).toBe(200);
  });

  it('leaves the sessions alone when an admin edits a user without a password', async () => {
    const { user, here } = await threeSessions();
    const res = await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: 'Renamed', email: user.email, role: 'user', status: 'active' },
    });
    expect(res.status).toBe(200);
    expect((await me(here)).status).toBe(200);
  });
});

describe('a new password needs the current one', () => {
  it('refuses a new password without the current one with 422 on currentPassword, changing nothing', async () => {
    const { user, here } = await threeSessions();
    const res = await put(here, { name: 'Değişmeyen', password: 'a-new-password' });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual({ currentPassword: FIELD_MESSAGES.currentPasswordRequired });
    const after = await row(user._id);
    expect([after.name, after.password_hash]).toEqual([user.name, user.password_hash]);
  });

  it('refuses a wrong current password with 422 on currentPassword, changing nothing', async () => {
    const { user, here, other } = await threeSessions();
    const res = await put(here, {
      name: 'Değişmeyen',
      password: 'a-new-password',
      currentPassword: 'not-it-123',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual({ currentPassword: FIELD_MESSAGES.currentPasswordWrong });
    const after = await row(user._id);
    expect([after.name, after.password_hash]).toEqual([user.name, user.password_hash]);
    expect((await me(other)).status).toBe(200);
  });

  it('counts wrong current passwords toward the login throttle of that account and address', async () => {
    const { user, here } = await threeSessions();
    const ip = '203.0.113.77';
    for (let i = 0; i < 5; i++) {
      const res = await put(
        here,
        { name: user.name, password: 'a-new-password', currentPassword: `guess-${i}00` },
        ip,
      );
      expect(res.status).toBe(422);
    }
    const sixth = await put(
      here,
      { name: user.name, password: 'a-new-password', currentPassword: TEST_PASSWORD },
      ip,
    );
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('Retry-After'))).toBeGreaterThan(0);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD },
      headers: { 'X-Forwarded-For': ip },
    });
    expect(login.status).toBe(429);
    expect((await row(user._id)).password_hash).toBe(user.password_hash);
  });

  it('takes the current password in the multipart form too', async () => {
    const { user, here } = await threeSessions();
    const data = new FormData();
    data.append('name', user.name);
    data.append('password', 'a-new-password');
    data.append('currentPassword', TEST_PASSWORD);
    const res = await t.call('PUT', '/api/users/me', { raw: data, token: here });
    expect(res.status).toBe(200);
    expect((await me(here)).status).toBe(401);
    expect((await me(res.body.token)).status).toBe(200);
  });
});
