import { SignJWT } from 'jose';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TasksTable } from '../../db/schema';
import { DEFAULT_BAN_REASON } from '../../errors';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { signToken } from './token';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.dispose();
});

const me = (headers: Record<string, string> = {}) => t.call('GET', '/api/users/me', { headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('GET /api/users/me refuses', () => {
  it.each<[string, () => Promise<Record<string, string>>, string]>([
    ['a request without a token', async () => ({}), 'unauthorized'],
    ['a garbage bearer token', async () => bearer('not-a-token'), 'invalid_token'],
    ['an empty bearer', async () => ({ Authorization: 'Bearer ' }), 'invalid_token'],
    ['another scheme', async () => ({ Authorization: 'Basic dXNlcjpwYXNz' }), 'invalid_token'],
    [
      'a token signed with another secret',
      async () => {
        const user = await makeUser(t.deps.db);
        return bearer(
          await signToken(user, false, new TextEncoder().encode('some-other-secret-of-enough-length'), 'sid'),
        );
      },
      'invalid_token',
    ],
    [
      'an unsigned token (alg none)',
      async () => {
        const user = await makeUser(t.deps.db);
        return bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: user._id, role: 'admin' })}.`);
      },
      'invalid_token',
    ],
    [
      'a token whose payload was edited',
      async () => {
        const user = await makeUser(t.deps.db);
        const other = await makeUser(t.deps.db);
        const [header, , signature] = (await t.tokenFor(user)).split('.');
        return bearer(`${header}.${b64({ sub: other._id, role: 'admin' })}.${signature}`);
      },
      'invalid_token',
    ],
    [
      'an expired token',
      async () => {
        const user = await makeUser(t.deps.db);
        const now = Math.floor(Date.now() / 1000);
        const token = await new SignJWT({ role: 'user' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(user._id)
          .setIssuedAt(now - 2 * 86400)
          .setExpirationTime(now - 60)
          .sign(t.deps.secret);
        return bearer(token);
      },
      'invalid_token',
    ],
    [
      'a token of an id that never existed',
      async () => {
        const token = await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('0123456789abcdef01234567')
          .setExpirationTime('1h')
          .sign(t.deps.secret);
        return bearer(token);
      },
      'invalid_token',
    ],
    [
      'a token of a deleted user',
      async () => {
        const user = await makeUser(t.deps.db);
        const token = await t.tokenFor(user);
        await t.deps.db
          .updateTable('users')
          .set({ deleted_at: new Date().toISOString() })
          .where('_id', '=', user._id)
          .execute();
        return bearer(token);
      },
      'invalid_token',
    ],
  ])('%s with 401', async (_label, headersOf, code) => {
    const res = await me(await headersOf());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String) } });
  });
});

describe('GET /api/users/me', () => {
  it('returns the signed-in user, without the password hash', async () => {
    const user = await makeUser(t.deps.db, { name: 'Zeynep', phone: '+90 555 000 00 00', bio: 'Merhaba' });
    const res = await me(bearer(await t.tokenFor(user)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: expect.objectContaining({
        _id: user._id,
        name: 'Zeynep',
        email: user.email,
        phone: '+90 555 000 00 00',
        bio: 'Merhaba',
        role: 'user',
        status: 'active',
        banReason: null,
      }),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|\$argon2/);
  });

  it('answers with Cache-Control no-store', async () => {
    const user = await makeUser(t.deps.db);
    const res = await me(bearer(await t.tokenFor(user)));
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('shows money in lira and the totals derived from submissions', async () => {
    const user = await makeUser(t.deps.db, { balance: 1250, total_earned: 3029 });
    const now = new Date().toISOString();
    const task = (reward: number): Insertable<TasksTable> => ({
      _id: `task-${reward}-${user._id}`,
      title: 't',
      description: 'd',
      category: 'survey',
      reward,
      difficulty: 'easy',
      status: 'active',
      max_completions: 10,
      required_proof: 'screenshot',
      created_at: now,
      updated_at: now,
    });
    const rows = [
      [500, 'pending'],
      [729, 'pending'],
      [1000, 'approved'],
      [2029, 'approved'],
      [300, 'rejected'],
    ] as const;
    for (const [reward, status] of rows) {
      const t1 = task(reward);
      await t.deps.db.insertInto('tasks').values(t1).execute();
      await t.deps.db
        .insertInto('user_tasks')
        .values({
          _id: `ut-${t1._id}`,
          user_id: user._id,
          task_id: t1._id,
          status: 'in_progress',
          started_at: now,
        })
        .execute();
      await t.deps.db
        .insertInto('submissions')
        .values({
          _id: `s-${t1._id}`,
          user_task_id: `ut-${t1._id}`,
          user_id: user._id,
          task_id: t1._id,
          status,
          reward,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const res = await me(bearer(await t.tokenFor(user)));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      balance: 12.5,
      totalEarnings: 30.29,
      pendingBalance: 12.29,
      completedTasks: 2,
      pendingTasks: 2,
    });
  });

  it('refuses the very next request of an earlier token with 403 banned and the reason once the user is banned', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user, true);
    expect((await me(bearer(token))).status).toBe(200);
    await t.deps.db
      .updateTable('users')
      .set({ status: 'banned', ban_reason: 'Kurallara aykırı davranış' })
      .where('_id', '=', user._id)
      .execute();
    const res = await me(bearer(token));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'banned', message: expect.any(String), banReason: 'Kurallara aykırı davranış' },
    });
  });

  it('gives a banned user without a stored reason the default reason', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: null });
    const res = await me(bearer(await t.tokenFor(user)));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'banned', banReason: DEFAULT_BAN_REASON });
  });

  it('lets a suspended user read their own data', async () => {
    const user = await makeUser(t.deps.db, { status: 'suspended' });
    const res = await me(bearer(await t.tokenFor(user)));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('suspended');
  });

  it('shows the role and name from the database, not from the older token', async () => {
    const user = await makeUser(t.deps.db, { name: 'Eski Ad' });
    const token = await t.tokenFor(user);
    await t.deps.db
      .updateTable('users')
      .set({ role: 'admin', name: 'Yeni Ad' })
      .where('_id', '=', user._id)
      .execute();
    const res = await me(bearer(token));
    expect(res.body.data).toMatchObject({ role: 'admin', name: 'Yeni Ad' });
  });

  it('lets a banned user back in with the same token once unbanned', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'x' });
    const token = await t.tokenFor(user);
    expect((await me(bearer(token))).status).toBe(403);
    await t.deps.db
      .updateTable('users')
      .set({ status: 'active', ban_reason: null })
      .where('_id', '=', user._id)
      .execute();
    expect((await me(bearer(token))).status).toBe(200);
  });
});
