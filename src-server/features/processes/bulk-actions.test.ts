import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { burst, fund, listen, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let otherToken: string;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
  otherToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin', name: 'Second Admin' }));
  server = await listen(t.app);
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await server.close();
  await t.dispose();
});

const APPROVE = { status: 'approved', feedback: 'Tamamdır' };
const REJECT = { status: 'rejected', feedback: 'Eksik', rejectionReason: 'no_share' };

async function http(
  method: string,
  path: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const rewardRows = async (ref: string) =>
  (
    await t.deps.db
      .selectFrom('ledger')
      .selectAll()
      .where('kind', '=', 'reward')
      .where('ref', '=', ref)
      .execute()
  ).length;

describe('PUT /api/admin/submissions/review', () => {
  it('approves each pending item and reports every id: approved, already reviewed, not found, own item', async () => {
    const worker = await makeUser(t.deps.db);
    const a = await makePendingSubmission(t.deps.db, worker._id, { reward: 1500 });
    const b = await makePendingSubmission(t.deps.db, worker._id, { reward: 2500 });
    const done = await makePendingSubmission(t.deps.db, worker._id);
    await t.call('PUT', `/api/submissions/${done.submissionId}/review`, { token: adminToken, body: REJECT });
    const mine = await makePendingSubmission(t.deps.db, admin._id);
    const ids = [
      a.submissionId,
      b.submissionId,
      done.submissionId,
      'nope',
      mine.submissionId,
      a.submissionId,
    ];
    const res = await t.call('PUT', '/api/admin/submissions/review', {
      token: adminToken,
      body: { ids, ...APPROVE },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      results: [
        { _id: a.submissionId, result: 'approved' },
        { _id: b.submissionId, result: 'approved' },
        { _id: done.submissionId, result: 'already_reviewed' },
        { _id: 'nope', result: 'not_found' },
        { _id: mine.submissionId, result: 'own_item' },
      ],
      counts: { approved: 2, already_reviewed: 1, not_found: 1, own_item: 1 },
    });
    const user = await t.deps.db
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', worker._id)
      .executeTakeFirstOrThrow();
    expect(user.balance).toBe(4000);
    const own = await t.deps.db
      .selectFrom('submissions')
      .select('status')
      .where('_id', '=', mine.submissionId)
      .executeTakeFirstOrThrow();
    expect(own.status).toBe('pending');
  });

  it('rejects with one preset reason, the reason label as feedback when asked', async () => {
    const worker = await makeUser(t.deps.db);
    const subs = [
      await makePendingSubmission(t.deps.db, worker._id),
      await makePendingSubmission(t.deps.db, worker._id),
    ];
    const res = await t.call('PUT', '/api/admin/submissions/review', {
      token: adminToken,
      body: {
        ids: subs.map((s) => s.submissionId),
        status: 'rejected',
        rejectionReason: 'low_quality_image',
        feedbackCode: 'rejection_reason',
      },
    });
    expect(res.body.data.counts).toEqual({ rejected: 2 });
    const rows = await t.deps.db
      .selectFrom('submissions')
      .select(['status', 'rejection_reason', 'feedback'])
      .where('user_id', '=', worker._id)
      .execute();
    expect(rows).toEqual([
      { status: 'rejected', rejection_reason: 'low_quality_image', feedback: 'Low quality image' },
      { status: 'rejected', rejection_reason: 'low_quality_image', feedback: 'Low quality image' },
    ]);
    expect(await rewardRows(subs[0].submissionId)).toBe(0);
  });

  it.each([
    ['no ids', { ...APPROVE }, 'ids'],
    ['an empty list', { ids: [], ...APPROVE }, 'ids'],
    ['501 ids', { ids: Array.from({ length: 501 }, (_, i) => `id${i}`), ...APPROVE }, 'ids'],
    ['ids that are not strings', { ids: [1, 2], ...APPROVE }, 'ids'],
    ['no feedback', { ids: ['x'], status: 'approved' }, 'feedback'],
    ['a rejection without a reason', { ids: ['x'], status: 'rejected', feedback: 'x' }, 'rejectionReason'],
    ['an unknown status', { ids: ['x'], status: 'paid', feedback: 'x' }, 'status'],
  ])('refuses %s with 422 and decides nothing', async (_label, body, field) => {
    const worker = await makeUser(t.deps.db);
    const s = await makePendingSubmission(t.deps.db, worker._id);
    const withId =
      'ids' in body && Array.isArray(body.ids) && body.ids[0] === 'x'
        ? { ...body, ids: [s.submissionId] }
        : body;
    const res = await t.call('PUT', '/api/admin/submissions/review', { token: adminToken, body: withId });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.errors ?? {})).toContain(field);
    const row = await t.deps.db
      .selectFrom('submissions')
      .select('status')
      .where('_id', '=', s.submissionId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('pays each item once when a bulk approve races single approvals and a second bulk of the same items', async () => {
    const workers = await Promise.all(Array.from({ length: 5 }, () => makeUser(t.deps.db)));
    const subs = [];
    for (let i = 0; i < 40; i++)
      subs.push(await makePendingSubmission(t.deps.db, workers[i % 5]._id, { reward: 100 + i }));
    const ids = subs.map((s) => s.submissionId);
    const replies = await burst(42, (i) => {
      if (i === 0) return http('PUT', '/api/admin/submissions/review', adminToken, { ids, ...APPROVE });
      if (i === 1)
        return http('PUT', '/api/admin/submissions/review', otherToken, {
          ids: [...ids].reverse(),
          ...APPROVE,
        });
      return http('PUT', `/api/submissions/${ids[i - 2]}/review`, i % 2 ? otherToken : adminToken, APPROVE);
    });
    const [bulkA, bulkB, ...singles] = replies;
    expect(bulkA.status).toBe(200);
    expect(bulkB.status).toBe(200);
    // every id was approved by exactly one of the three ways
    for (const [k, id] of ids.entries()) {
      const ways = [
        bulkA.body.data.results.find((r: { _id: string }) => r._id === id).result === 'approved',
        bulkB.body.data.results.find((r: { _id: string }) => r._id === id).result === 'approved',
        singles[k].status === 200,
      ].filter(Boolean).length;
      expect(ways, id).toBe(1);
      expect(await rewardRows(id)).toBe(1);
      expect([200, 409]).toContain(singles[k].status);
    }
    for (const w of workers) {
      const user = await t.deps.db
        .selectFrom('users')
        .select('balance')
        .where('_id', '=', w._id)
        .executeTakeFirstOrThrow();
      // the balance is the ledger's sum and holds each of the user's rewards exactly once
      const rewards = subs
        .filter((_, i) => i % 5 === workers.indexOf(w))
        .reduce((n, _s, j) => n + 100 + j * 5 + workers.indexOf(w), 0);
      expect(user.balance).toBe(rewards);
      const paid = await t.deps.db
        .selectFrom('ledger')
        .select((eb) => eb.fn.sum<number>('amount').as('n'))
        .where('user_id', '=', w._id)
        .executeTakeFirstOrThrow();
      expect(user.balance).toBe(Number(paid.n));
    }
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it('answers a replay with the same Idempotency-Key with the first reply and moves nothing again', async () => {
    const worker = await makeUser(t.deps.db);
    const s = await makePendingSubmission(t.deps.db, worker._id, { reward: 700 });
    const headers = { 'Idempotency-Key': `bulk-${s.submissionId}` };
    const body = { ids: [s.submissionId], ...APPROVE };
    const first = await t.call('PUT', '/api/admin/submissions/review', { token: adminToken, body, headers });
    const again = await t.call('PUT', '/api/admin/submissions/review', { token: adminToken, body, headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.body.data.counts).toEqual({ approved: 1 });
    expect(await rewardRows(s.submissionId)).toBe(1);
    const other = await t.call('PUT', '/api/admin/submissions/review', {
      token: adminToken,
      body: { ...body, status: 'rejected', rejectionReason: 'no_share' },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('PUT /api/admin/withdraws/review', () => {
  it('approves or rejects (refunding) each pending withdrawal and reports every id', async () => {
    const worker = await makeUser(t.deps.db);
    await fund(t.deps.db, worker._id, 100_000, admin._id);
    const w1 = await makeWithdrawal(t.deps.db, worker._id, { amount: 10_000 });
    const w2 = await makeWithdrawal(t.deps.db, worker._id, { amount: 20_000 });
    const w3 = await makeWithdrawal(t.deps.db, worker._id, { amount: 30_000 });
    await fund(t.deps.db, admin._id, 50_000, worker._id);
    const mine = await makeWithdrawal(t.deps.db, admin._id, { amount: 5_000 });
    const approved = await t.call('PUT', '/api/admin/withdraws/review', {
      token: adminToken,
      body: { ids: [w1, mine, 'nope'], status: 'approved' },
    });
    expect(approved.body.data.results).toEqual([
      { _id: w1, result: 'approved' },
      { _id: mine, result: 'own_item' },
      { _id: 'nope', result: 'not_found' },
    ]);
    const noReason = await t.call('PUT', '/api/admin/withdraws/review', {
      token: adminToken,
      body: { ids: [w2, w3], status: 'rejected', reason: '  ' },
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.error.code).toBe('reason_required');
    const rejected = await t.call('PUT', '/api/admin/withdraws/review', {
      token: adminToken,
      body: { ids: [w2, w3, w1], status: 'rejected', reason: 'Hesap bilgileri hatalı' },
    });
    expect(rejected.body.data.counts).toEqual({ rejected: 2, already_reviewed: 1 });
    const user = await t.deps.db
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', worker._id)
      .executeTakeFirstOrThrow();
    // 1,000 TL funded, 100 TL paid out, 200 + 300 TL refunded
    expect(user.balance).toBe(100_000 - 10_000);
  });

  it('refunds each withdrawal once when a bulk reject races single rejections', async () => {
    const worker = await makeUser(t.deps.db);
    await fund(t.deps.db, worker._id, 100_000, admin._id);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await makeWithdrawal(t.deps.db, worker._id, { amount: 1_000 }));
    const replies = await burst(21, (i) =>
      i === 0
        ? http('PUT', '/api/admin/withdraws/review', adminToken, { ids, status: 'rejected', reason: 'x' })
        : http('PUT', `/api/admin/withdraws/${ids[i - 1]}/reject`, otherToken, { reason: 'y' }),
    );
    expect(replies[0].status).toBe(200);
    const refunds = await t.deps.db
      .selectFrom('ledger')
      .selectAll()
      .where('kind', '=', 'withdrawal_refund')
      .where('ref', 'in', ids)
      .execute();
    expect(refunds).toHaveLength(20);
    const user = await t.deps.db
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', worker._id)
      .executeTakeFirstOrThrow();
    expect(user.balance).toBe(100_000);
  });
});
