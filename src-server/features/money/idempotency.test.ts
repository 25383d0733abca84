import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { runMoneyChecks } from './doctor';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

const papara = {
  paymentMethod: 'papara',
  accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
};
let n = 0;
const freshKey = () => `key-${Date.now()}-${++n}`;
async function holder(balance = 10_000): Promise<{ user: UserRow; token: string }> {
  const user = await makeUser(t.deps.db);
  await fund(t.deps.db, user._id, balance);
  return { user, token: await t.tokenFor(user) };
}
const withdraw = (token: string, body: unknown, key?: string) =>
  t.call('POST', '/api/withdraws', { body, token, headers: key ? { 'Idempotency-Key': key } : {} });
const balanceOf = async (id: string) =>
  (await t.deps.db.selectFrom('users').select('balance').where('_id', '=', id).executeTakeFirstOrThrow())
    .balance;
const countWithdrawals = async (id: string) =>
  (await t.deps.db.selectFrom('withdrawals').select('_id').where('user_id', '=', id).execute()).length;

describe('Idempotency-Key on POST /api/withdraws', () => {
  it('answers a replay with the first reply and holds the amount once', async () => {
    const { user, token } = await holder();
    const key = freshKey();
    const first = await withdraw(token, { amount: 30, ...papara }, key);
    const second = await withdraw(token, { amount: 30, ...papara }, key);
    expect(first.status).toBe(201);
    expect([second.status, second.body]).toEqual([201, first.body]);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await countWithdrawals(user._id)).toBe(1);
    expect(await balanceOf(user._id)).toBe(7000);
  });

  it('answers the replay the same even after the balance no longer covers the amount', async () => {
    const { user, token } = await holder(3000);
    const key = freshKey();
    const first = await withdraw(token, { amount: 30, ...papara }, key);
    const second = await withdraw(token, { amount: 30, ...papara }, key);
    expect([second.status, second.body]).toEqual([201, first.body]);
    expect(await balanceOf(user._id)).toBe(0);
  });

  it('creates a second withdrawal for a second key', async () => {
    const { user, token } = await holder();
    await withdraw(token, { amount: 30, ...papara }, freshKey());
    await withdraw(token, { amount: 30, ...papara }, freshKey());
    expect(await countWithdrawals(user._id)).toBe(2);
  });

  it('keeps keys apart per user', async () => {
    const a = await holder();
    const b = await holder();
    const key = freshKey();
    await withdraw(a.token, { amount: 30, ...papara }, key);
    const res = await withdraw(b.token, { amount: 30, ...papara }, key);
    expect([res.status, res.body.data.user._id]).toEqual([201, b.user._id]);
    expect(await countWithdrawals(b.user._id)).toBe(1);
  });

  it('does not keep a refusal: the corrected request may reuse the key', async () => {
    const { user, token } = await holder();
    const key = freshKey();
    expect((await withdraw(token, { amount: -5, ...papara }, key)).status).toBe(422);
    expect((await withdraw(token, { amount: 30, ...papara }, key)).status).toBe(201);
    expect(await countWithdrawals(user._id)).toBe(1);
  });

  it('refuses a key reused for another body with idempotency_key_reused', async () => {
    const { user, token } = await holder();
    const key = freshKey();
    await withdraw(token, { amount: 30, ...papara }, key);
    const res = await withdraw(token, { amount: 40, ...papara }, key);
    expect([res.status, res.body.error.code]).toEqual([422, 'idempotency_key_reused']);
    expect(await balanceOf(user._id)).toBe(7000);
  });

  it.each([[''], ['has space'], ['x'.repeat(201)], ['ünicode']])(
    'refuses the key %j with 400',
    async (key) => {
      const { user, token } = await holder();
      const res = await t.call('POST', '/api/withdraws', {
        body: { amount: 30, ...papara },
        token,
        headers: { 'Idempotency-Key': key },
      });
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_idempotency_key']);
      expect(await balanceOf(user._id)).toBe(10_000);
    },
  );
});

describe('Idempotency-Key on the review and settling calls', () => {
  const put = (path: string, body: unknown, key: string) =>
    t.call('PUT', path, { body, token: adminToken, headers: { 'Idempotency-Key': key } });

  it('answers a replayed approval with the first reply, not a 409, and pays once', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 900 });
    const key = freshKey();
    const path = `/api/submissions/${submissionId}/review`;
    const first = await put(path, { status: 'approved', feedback: 'ok' }, key);
    const replay = await put(path, { status: 'approved', feedback: 'ok' }, key);
    expect([replay.status, replay.body]).toEqual([200, first.body]);
    const other = await put(path, { status: 'approved', feedback: 'ok' }, freshKey());
    expect([other.status, other.body.error.code]).toEqual([409, 'already_reviewed']);
    expect(await balanceOf(user._id)).toBe(900);
  });

  it('answers a replayed rejection of a withdrawal with the first reply and refunds once', async () => {
    const { user } = await holder();
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 4000 });
    const key = freshKey();
    const first = await put(`/api/admin/withdraws/${id}/reject`, { reason: 'wrong name' }, key);
    const replay = await put(`/api/admin/withdraws/${id}/reject`, { reason: 'wrong name' }, key);
    expect([replay.status, replay.body]).toEqual([200, first.body]);
    expect(await balanceOf(user._id)).toBe(10_000);
  });

  it('answers a replayed approval of a withdrawal the same even after another admin call', async () => {
    const { user } = await holder();
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 4000 });
    const key = freshKey();
    const first = await put(`/api/admin/withdraws/${id}/approve`, undefined, key);
    expect((await put(`/api/admin/withdraws/${id}/reject`, { reason: 'late' }, freshKey())).status).toBe(409);
    const replay = await put(`/api/admin/withdraws/${id}/approve`, undefined, key);
    expect([replay.status, replay.body]).toEqual([200, first.body]);
  });

  it('refuses a key reused for another withdrawal', async () => {
    const { user } = await holder();
    const a = await makeWithdrawal(t.deps.db, user._id, { amount: 1000 });
    const b = await makeWithdrawal(t.deps.db, user._id, { amount: 1000 });
    const key = freshKey();
    await put(`/api/admin/withdraws/${a}/approve`, undefined, key);
    const res = await put(`/api/admin/withdraws/${b}/approve`, undefined, key);
    expect([res.status, res.body.error.code]).toEqual([422, 'idempotency_key_reused']);
    expect(
      (
        await t.deps.db
          .selectFrom('withdrawals')
          .select('status')
          .where('_id', '=', b)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('pending');
  });
});
