import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { burst, fund, listen, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { type ApiBody, createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { runMoneyChecks } from './doctor';
import { adjustBalance } from './ledger';

/**
 * Races against the real HTTP server: the requests leave together, then the database and
 * the doctor say whether money moved exactly as the rules allow.
 */
let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

async function http(
  method: string,
  path: string,
  o: { token: string; body?: unknown; key?: string },
): Promise<{ status: number; body: ApiBody }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${o.token}` };
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.key) headers['Idempotency-Key'] = o.key;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  return { status: res.status, body: await res.json() };
}

const papara = {
  paymentMethod: 'papara',
  accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
};
function statuses(replies: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
const userRow = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledgerRows = (ref: string) =>
  t.deps.db.selectFrom('ledger').selectAll().where('ref', '=', ref).execute();

async function holder(balance: number) {
  const user = await makeUser(t.deps.db);
  await fund(t.deps.db, user._id, balance);
  return { user, token: await t.tokenFor(user) };
}

describe('races on the real server', () => {
  it('never holds more than the balance when 50 withdrawals exceed it together', async () => {
    const { user, token } = await holder(100_000);
    const replies = await burst(50, () =>
      http('POST', '/api/withdraws', { token, body: { amount: 30, ...papara } }),
    );
    expect(statuses(replies)).toEqual({ 201: 33, 422: 17 });
    expect(
      replies.filter((r) => r.status === 422).every((r) => r.body.error.code === 'insufficient_balance'),
    ).toBe(true);
    const held = await t.deps.db
      .selectFrom('withdrawals')
      .select('amount')
      .where('user_id', '=', user._id)
      .execute();
    const total = held.reduce((sum, w) => sum + w.amount, 0);
    expect(held.length).toBe(33);
    expect(total).toBeLessThanOrEqual(100_000);
    expect((await userRow(user._id)).balance).toBe(100_000 - total);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('never lets mixed amounts drive the balance below zero', async () => {
    const { user, token } = await holder(50_000);
    const amounts = Array.from({ length: 50 }, (_, i) => (2000 + (i % 7) * 1337) / 100);
    const replies = await burst(50, (i) =>
      http('POST', '/api/withdraws', { token, body: { amount: amounts[i], ...papara } }),
    );
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 422 && r.body.error.code === 'insufficient_balance')).toBe(true);
    const ok = replies
      .filter((r) => r.status === 201)
      .reduce((sum, r) => sum + Math.round(r.body.data.amount * 100), 0);
    const row = await userRow(user._id);
    expect(row.balance).toBe(50_000 - ok);
    expect(row.balance).toBeGreaterThanOrEqual(0);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('pays once when 20 admins approve one submission together', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId, taskId } = await makePendingSubmission(t.deps.db, user._id, { reward: 1500 });
    const replies = await burst(20, () =>
      http('PUT', `/api/submissions/${submissionId}/review`, {
        token: adminToken,
        body: { status: 'approved', feedback: 'ok' },
      }),
    );
    expect(statuses(replies)).toEqual({ 200: 1, 409: 19 });
    expect(await userRow(user._id)).toMatchObject({ balance: 1500, total_earned: 1500 });
    expect(await ledgerRows(submissionId)).toHaveLength(1);
    const task = await t.deps.db
      .selectFrom('tasks')
      .selectAll()
      .where('_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(task.total_completed).toBe(1);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('settles a submission one way when approvals and rejections race', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await makeUser(t.deps.db);
      const { submissionId, taskId } = await makePendingSubmission(t.deps.db, user._id, { reward: 700 });
      const replies = await burst(20, (i) =>
        http('PUT', `/api/submissions/${submissionId}/review`, {
          token: adminToken,
          body:
            (i + round) % 2 === 0
              ? { status: 'approved', feedback: 'ok' }
              : { status: 'rejected', feedback: 'no', rejectionReason: 'no_share' },
        }),
      );
      expect(statuses(replies)).toEqual({ 200: 1, 409: 19 });
      const winner = replies.find((r) => r.status === 200)!.body.data.status;
      const sub = await t.deps.db
        .selectFrom('submissions')
        .selectAll()
        .where('_id', '=', submissionId)
        .executeTakeFirstOrThrow();
      const task = await t.deps.db
        .selectFrom('tasks')
        .selectAll()
        .where('_id', '=', taskId)
        .executeTakeFirstOrThrow();
      expect(sub.status).toBe(winner);
      if (winner === 'approved') {
        expect([(await userRow(user._id)).balance, task.total_completed, task.reserved]).toEqual([700, 1, 1]);
      } else {
        expect([(await userRow(user._id)).balance, task.total_completed, task.reserved]).toEqual([0, 0, 0]);
      }
    }
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('settles a withdrawal one way and refunds at most once when approvals and rejections race', async () => {
    for (let round = 0; round < 5; round++) {
      const { user } = await holder(10_000);
      const id = await makeWithdrawal(t.deps.db, user._id, { amount: 6000 });
      const replies = await burst(20, (i) =>
        (i + round) % 2 === 0
          ? http('PUT', `/api/admin/withdraws/${id}/approve`, { token: adminToken })
          : http('PUT', `/api/admin/withdraws/${id}/reject`, { token: adminToken, body: { reason: 'no' } }),
      );
      expect(statuses(replies)).toEqual({ 200: 1, 409: 19 });
      const winner = replies.find((r) => r.status === 200)!.body.data.status;
      const refunds = (await ledgerRows(id)).filter((r) => r.kind === 'withdrawal_refund');
      expect(refunds).toHaveLength(winner === 'rejected' ? 1 : 0);
      expect((await userRow(user._id)).balance).toBe(winner === 'rejected' ? 10_000 : 4000);
    }
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('explains the final balance by the ledger when an admin balance edit races withdrawals', async () => {
    const { user, token } = await holder(30_000);
    const targets = [50_000, 0, 12_345, 80_000, 2500];
    const results = await burst(30, async (i) => {
      if (i % 6 === 0) {
        await t.deps.db.transaction().execute((tx) => adjustBalance(tx, user._id, targets[i / 6], admin._id));
        return { status: 0 };
      }
      return http('POST', '/api/withdraws', { token, body: { amount: 25, ...papara } });
    });
    const held = results.filter((r) => r.status === 201).length;
    const rows = await t.deps.db
      .selectFrom('ledger')
      .select(['amount', 'kind'])
      .where('user_id', '=', user._id)
      .execute();
    expect(rows.filter((r) => r.kind === 'withdrawal_hold')).toHaveLength(held);
    expect(rows.filter((r) => r.kind === 'adjustment').length).toBeGreaterThanOrEqual(1);
    const balance = (await userRow(user._id)).balance;
    expect(balance).toBe(rows.reduce((sum, r) => sum + r.amount, 0));
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('creates one withdrawal when 20 replays of one key arrive together', async () => {
    const { user, token } = await holder(100_000);
    const replies = await burst(20, () =>
      http('POST', '/api/withdraws', { token, key: 'double-click-1', body: { amount: 30, ...papara } }),
    );
    expect(statuses(replies)).toEqual({ 201: 20 });
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(
      await t.deps.db.selectFrom('withdrawals').select('_id').where('user_id', '=', user._id).execute(),
    ).toHaveLength(1);
    expect((await userRow(user._id)).balance).toBe(97_000);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('pays once and answers alike when 20 replays of one review key arrive together', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 400 });
    const replies = await burst(20, () =>
      http('PUT', `/api/submissions/${submissionId}/review`, {
        token: adminToken,
        key: `review-${submissionId}`,
        body: { status: 'approved', feedback: 'ok' },
      }),
    );
    expect(statuses(replies)).toEqual({ 200: 20 });
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect((await userRow(user._id)).balance).toBe(400);
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });
});
