import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import type { UserRow } from '../users/users.repository';

// Four eyes on money: an admin never decides on their own proof, withdrawal or balance.
let t: TestApp;
let admin: UserRow;
let adminToken: string;
let otherAdmin: UserRow;
let otherToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
  otherAdmin = await makeUser(t.deps.db, { role: 'admin', name: 'Second Admin' });
  otherToken = await t.tokenFor(otherAdmin);
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

const snapshot = async (userId: string) => ({
  user: await t.deps.db
    .selectFrom('users')
    .select(['balance', 'total_earned'])
    .where('_id', '=', userId)
    .executeTakeFirstOrThrow(),
  ledger: await t.deps.db.selectFrom('ledger').selectAll().where('user_id', '=', userId).execute(),
  submissions: await t.deps.db.selectFrom('submissions').selectAll().where('user_id', '=', userId).execute(),
  withdrawals: await t.deps.db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).execute(),
  idempotency: await t.deps.db.selectFrom('idempotency').selectAll().execute(),
});

function expectOwnItem(res: { status: number; body: { error: { code: string } } }) {
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('own_item');
}

describe('an admin deciding on their own item', () => {
  it.each([
    ['approve', { status: 'approved', feedback: 'Kendime onay' }],
    ['reject', { status: 'rejected', feedback: 'x', rejectionReason: 'irrelevant_evidence' }],
  ])('cannot %s their own submission: 403 own_item, nothing changes', async (_label, body) => {
    const { submissionId } = await makePendingSubmission(t.deps.db, admin._id);
    const before = await snapshot(admin._id);
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      body,
      token: adminToken,
      headers: { 'Idempotency-Key': `own-review-${submissionId}` },
    });
    expectOwnItem(res);
    expect(await snapshot(admin._id)).toEqual(before);
    // another admin may decide on it
    const other = await t.call('PUT', `/api/submissions/${submissionId}/review`, { body, token: otherToken });
    expect(other.status).toBe(200);
  });

  it.each([
    ['approve', 'approve', undefined],
    ['reject', 'reject', { reason: 'Kendi talebim' }],
  ])('cannot %s their own withdrawal: 403 own_item, nothing changes', async (_label, action, body) => {
    await fund(t.deps.db, admin._id, 20_000, otherAdmin._id);
    const id = await makeWithdrawal(t.deps.db, admin._id, { amount: 5_000 });
    const before = await snapshot(admin._id);
    const res = await t.call('PUT', `/api/admin/withdraws/${id}/${action}`, {
      body,
      token: adminToken,
      headers: { 'Idempotency-Key': `own-withdrawal-${id}` },
    });
    expectOwnItem(res);
    expect(await snapshot(admin._id)).toEqual(before);
    const other = await t.call('PUT', `/api/admin/withdraws/${id}/${action}`, { body, token: otherToken });
    expect(other.status).toBe(200);
  });

  it('cannot change their own balance, while other edits of their own account go through', async () => {
    const me = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('_id', '=', admin._id)
      .executeTakeFirstOrThrow();
    const before = await snapshot(admin._id);
    const edit = (extra: Record<string, unknown>) =>
      t.call('PUT', `/api/admin/users/${admin._id}`, {
        token: adminToken,
        body: { name: 'Admin Renamed', email: me.email, role: 'admin', status: 'active', ...extra },
      });
    expectOwnItem(await edit({ balance: me.balance / 100 + 1000 }));
    expect(await snapshot(admin._id)).toEqual(before);
    const name = await t.deps.db
      .selectFrom('users')
      .select('name')
      .where('_id', '=', admin._id)
      .executeTakeFirstOrThrow();
    expect(name.name).toBe(me.name);
    // the same balance sent back unchanged, and a rename, are fine
    const same = await edit({ balance: me.balance / 100 });
    expect(same.status).toBe(200);
    expect(same.body.data.name).toBe('Admin Renamed');
    // another admin may set it
    const other = await t.call('PUT', `/api/admin/users/${admin._id}`, {
      token: otherToken,
      body: { name: 'Admin Renamed', email: me.email, role: 'admin', status: 'active', balance: 12.5 },
    });
    expect(other.status).toBe(200);
    expect(other.body.data.balance).toBe(12.5);
  });

  it('still lets an admin review a user who is not them', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      body: { status: 'approved', feedback: 'ok' },
      token: adminToken,
    });
    expect(res.status).toBe(200);
  });
});
