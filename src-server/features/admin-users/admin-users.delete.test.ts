import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../http/env';
import { fileStoreFor } from '../../storage/file-store';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, createTestApp, type TestApp } from '../../testing/test-app';
import { publicImageUrl } from '../files/file-urls';
import { runMoneyChecks } from '../money/doctor';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
});
afterEach(async () => {
  // every ledger row the edits wrote explains a balance
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
});
afterAll(() => t.dispose());

const del = (id: string, token = adminToken) => t.call('DELETE', `/api/admin/users/${id}`, { token });
const row = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledger = (id: string) =>
  t.deps.db.selectFrom('ledger').select(['amount', 'kind', 'actor_id']).where('user_id', '=', id).execute();

describe('the last active admin', () => {
  let solo: TestApp;
  let only: UserRow;
  let token: string;
  beforeAll(async () => {
    solo = await createTestApp();
    only = await makeUser(solo.deps.db, { role: 'admin', name: 'Only' });
    token = await solo.tokenFor(only);
  });
  afterAll(() => solo.dispose());

  it.each<[string, Record<string, unknown>]>([
    ['demoted', { role: 'user' }],
    ['suspended', { status: 'suspended' }],
    ['banned', { status: 'banned', banReason: 'oops' }],
  ])('cannot be %s, and nothing else in that edit is applied', async (_label, change) => {
    const res = await solo.call('PUT', `/api/admin/users/${only._id}`, {
      token,
      body: { name: 'Changed', email: only.email, balance: 99, ...change },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'last_admin',
      message: 'The last active admin cannot be demoted or banned',
    });
    const after = await solo.deps.db
      .selectFrom('users')
      .selectAll()
      .where('_id', '=', only._id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ name: 'Only', role: 'admin', status: 'active', balance: 0 });
    expect(await solo.deps.db.selectFrom('ledger').selectAll().execute()).toEqual([]);
  });

  it('cannot be deleted', async () => {
    const res = await solo.call('DELETE', `/api/admin/users/${only._id}`, { token });
    expect([res.status, res.body.error.code]).toEqual([409, 'last_admin']);
  });

  it('can step down once another active admin exists', async () => {
    const second = await makeUser(solo.deps.db, { role: 'admin' });
    const res = await solo.call('PUT', `/api/admin/users/${only._id}`, {
      token,
      body: { name: only.name, email: only.email, role: 'user' },
    });
    expect([res.status, res.body.data.role]).toEqual([200, 'user']);
    // and the token that did it no longer opens the panel
    expect((await solo.call('GET', '/api/admin/users', { token })).status).toBe(403);
    const again = await solo.call('PUT', `/api/admin/users/${second._id}`, {
      token: await solo.tokenFor(second),
      body: { name: 'x', email: second.email, status: 'suspended' },
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'last_admin']);
  });
});

describe('two admins demoting each other at the same instant', () => {
  it('leaves exactly one active admin: one edit succeeds, the other is refused', async () => {
    const pair = await createTestApp();
    try {
      const a = await makeUser(pair.deps.db, { role: 'admin' });
      const b = await makeUser(pair.deps.db, { role: 'admin' });
      const demote = async (actor: UserRow, target: UserRow) =>
        pair.call('PUT', `/api/admin/users/${target._id}`, {
          token: await pair.tokenFor(actor),
          body: { name: target.name, email: target.email, role: 'user' },
        });
      const replies = await Promise.all([demote(a, b), demote(b, a)]);
      // the loser is refused either by the rule (409) or, when the winner committed first, as a non-admin (403)
      const [won, lost] = replies.map((r) => r.status).sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const admins = await pair.deps.db
        .selectFrom('users')
        .select('_id')
        .where('role', '=', 'admin')
        .where('status', '=', 'active')
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await pair.dispose();
    }
  });
});

describe('DELETE /api/admin/users/{id}', () => {
  it('anonymises the account, keeps its money history and ends its session at once', async () => {
    const store = fileStoreFor(t.deps.config.dataDir);
    const photo = publicImageUrl(await store.save('images', pngFile(), 'image/png'));
    const user = await makeUser(t.deps.db, {
      name: 'Silinecek',
      email: 'delete.me@example.test',
      phone: '+90 555',
      address: 'Adres',
      bio: 'Bio',
      profile_image: photo,
      one_signal_id: 'player-1',
      device_id: 'device-1',
    });
    const token = await t.tokenFor(user);
    await fund(t.deps.db, user._id, 10_000, admin._id);
    const withdrawalId = await makeWithdrawal(t.deps.db, user._id, { amount: 3000 });
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);

    const res = await del(user._id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { _id: user._id, deleted: true } });
    const after = await row(user._id);
    expect(after).toMatchObject({
      name: 'Deleted user',
      email: `deleted-${user._id}@deleted.invalid`,
      phone: null,
      address: null,
      bio: null,
      profile_image: null,
      one_signal_id: null,
      device_id: null,
      status: 'banned',
      role: 'user',
      balance: 7000,
      deleted_at: expect.any(String),
    });
    expect(after.password_hash).not.toBe(user.password_hash);
    expect(await ledger(user._id)).toHaveLength(2);
    expect(
      await t.deps.db.selectFrom('withdrawals').select('_id').where('_id', '=', withdrawalId).execute(),
    ).toHaveLength(1);
    expect(
      await t.deps.db.selectFrom('submissions').select('_id').where('_id', '=', submissionId).execute(),
    ).toHaveLength(1);
    expect(await store.read('images', photo.split('/').pop()!)).toBeNull();

    const me = await t.call('GET', '/api/users/me', { token });
    expect([me.status, me.body.error.code]).toEqual([401, 'invalid_token']);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'delete.me@example.test', password: 'secret123' },
    });
    expect(login.status).toBe(401);
    expect((await t.call('GET', `/api/admin/users/${user._id}`, { token: adminToken })).status).toBe(404);
    expect((await del(user._id)).status).toBe(404);
    // the address is free again
    const again = await t.call('POST', '/api/auth/register', {
      body: { name: 'Yeni', email: 'delete.me@example.test', password: 'secret123' },
    });
    expect(again.status).toBe(201);
  });

  it('lets the admin settle a pending withdrawal of a deleted account', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 5000, admin._id);
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 5000 });
    await del(user._id);
    const res = await t.call('PUT', `/api/admin/withdraws/${id}/reject`, {
      token: adminToken,
      body: { reason: 'closed' },
    });
    expect(res.status).toBe(200);
    expect((await row(user._id)).balance).toBe(5000);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await del('0123456789abcdef01234567')).status).toBe(404);
  });
});
