// Auto-approval. A proof pending review.autoApproveDays after it was sent is approved
// by the system, paid once through the ledger with no admin as the actor, the worker told when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewRequest } from '../../contract/review';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { screenshot } from '../../testing/screenshots';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';
import { autoApproveDue } from './auto-approve';
import { LeftForAPerson, reviewSubmission } from './review.service';
import { submit } from './submission-test-helpers';

let t: TestApp;
let adminToken: string;
let now = Date.parse('2026-11-01T10:00:00.000Z');
const DAY = 86_400_000;
let seed = 0;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

const setDays = (autoApproveDays: unknown) =>
  t.call('PUT', '/api/settings', { token: adminToken, body: { review: { autoApproveDays } } });

/**
 * A worker who sent a proof for a new task of 4 TL; the submission's id. A picture of its own and
 * no minimum time, so no fraud signal holds it back.
 */
async function sentProof() {
  const taskId = await createTask(t, adminToken, { reward: 4, minSeconds: 0 });
  const user = await makeUser(t.deps.db);
  const token = await t.tokenFor(user);
  await t.call('POST', `/api/tasks/${taskId}/start`, { token });
  const res = await submit(t, token, { task: taskId, file: await screenshot(++seed) });
  expect(res.status).toBe(201);
  return { id: res.body.data._id as string, user, token };
}

const balanceOf = async (userId: string) =>
  (await t.deps.db.selectFrom('users').select('balance').where('_id', '=', userId).executeTakeFirstOrThrow())
    .balance;
const rewardRows = (submissionId: string) =>
  t.deps.db
    .selectFrom('ledger')
    .selectAll()
    .where('ref', '=', submissionId)
    .where('kind', '=', 'reward')
    .execute();

describe('the setting', () => {
  it('is off (0) by default, takes 1 to 30 days, refuses the rest with its field', async () => {
    expect((await t.call('GET', '/api/settings')).body.data.review).toEqual({ autoApproveDays: 0 });
    for (const bad of [-1, 31, 2.5, '3']) {
      const res = await setDays(bad);
      expect(res.status).toBe(422);
      expect(res.body.error.errors['review.autoApproveDays']).toBe('Auto-approval takes 0 (off) to 30 days');
    }
    expect((await setDays(30)).status).toBe(200);
    expect((await setDays(0)).body.data.review).toEqual({ autoApproveDays: 0 });
  });
});

describe('auto-approval', () => {
  it('does nothing while off', async () => {
    const { id } = await sentProof();
    now += 365 * DAY;
    expect(await autoApproveDue(t.deps)).toBe(0);
    const [row] = await t.deps.db.selectFrom('submissions').select('status').where('_id', '=', id).execute();
    expect(row.status).toBe('pending');
    await t.call('PUT', `/api/submissions/${id}/review`, {
      token: adminToken,
      body: { status: 'rejected', feedback: 'x', rejectionReason: 'no_share' },
    });
  });

  it('tells the worker the date, then approves after the days: paid once, the system as the actor', async () => {
    await setDays(3);
    const { id, user, token } = await sentProof();
    const [mine] = (await t.call('GET', '/api/submissions/user', { token })).body.data;
    expect(mine).toMatchObject({
      _id: id,
      autoApproveAt: new Date(now + 3 * DAY).toISOString(),
      autoApproved: false,
    });
    now += 3 * DAY - 1000;
    expect(await autoApproveDue(t.deps)).toBe(0);
    now += 1000;
    expect(await autoApproveDue(t.deps)).toBe(1);
    expect(await autoApproveDue(t.deps)).toBe(0);
    const [after] = (await t.call('GET', '/api/submissions/user', { token })).body.data;
    expect(after).toMatchObject({
      status: 'approved',
      autoApproved: true,
      autoApproveAt: null,
      feedbackCode: 'task_completed',
    });
    expect(await balanceOf(user._id)).toBe(400);
    const rows = await rewardRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 400, actor_id: null });
    const record = await t.deps.db
      .selectFrom('submissions')
      .select(['reviewed_by', 'auto_approved'])
      .where('_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ reviewed_by: null, auto_approved: 1 });
  });

  it('racing manual reviews of the same proofs, pays each once', async () => {
    await setDays(1);
    const proofs = await Promise.all(Array.from({ length: 12 }, () => sentProof()));
    now += DAY;
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // the admin's reviews start one after another while the sweep starts among them
    const manual = proofs.map(async (p, i) => {
      await later(i * 2);
      return t.call('PUT', `/api/submissions/${p.id}/review`, {
        token: adminToken,
        body:
          i % 2
            ? { status: 'approved', feedback: 'Elle onaylandı' }
            : { status: 'rejected', feedback: 'Hayır', rejectionReason: 'no_share' },
      });
    });
    const sweep = later(7).then(() => autoApproveDue(t.deps));
    const [auto, ...replies] = await Promise.all([sweep, ...manual]);
    const manualWins = replies.filter((r) => r.status === 200).length;
    expect(auto + manualWins).toBe(12);
    expect(replies.every((r) => r.status === 200 || r.body.error.code === 'already_reviewed')).toBe(true);
    for (const p of proofs) {
      const row = await t.deps.db
        .selectFrom('submissions')
        .select('status')
        .where('_id', '=', p.id)
        .executeTakeFirstOrThrow();
      const paid = await rewardRows(p.id);
      expect(paid).toHaveLength(row.status === 'approved' ? 1 : 0);
      expect(await balanceOf(p.user._id)).toBe(row.status === 'approved' ? 400 : 0);
    }
    console.log(`auto-approval vs manual reviews: ${auto} by the system, ${manualWins} by the admin`);
  });
});

describe('proofs that wait for a person', () => {
  const statusOf = async (id: string) =>
    (
      await t.deps.db
        .selectFrom('submissions')
        .select('status')
        .where('_id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  const sentAt = () => new Date(now).toISOString();

  it("are left pending: an admin's own, a banned or suspended account's, a flagged one; the rest is approved", async () => {
    await setDays(1);
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const banned = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'Sahte hesap' });
    const suspended = await makeUser(t.deps.db, { status: 'suspended' });
    const worker = await makeUser(t.deps.db);
    const own = await makePendingSubmission(t.deps.db, admin._id, { createdAt: sentAt() });
    const ofBanned = await makePendingSubmission(t.deps.db, banned._id, { createdAt: sentAt() });
    const ofSuspended = await makePendingSubmission(t.deps.db, suspended._id, { createdAt: sentAt() });
    // too fast: the task takes at least 10 seconds, the proof came at once
    const flaggedTask = await createTask(t, adminToken, { reward: 4 });
    const flaggedWorker = await makeUser(t.deps.db);
    const flaggedToken = await t.tokenFor(flaggedWorker);
    await t.call('POST', `/api/tasks/${flaggedTask}/start`, { token: flaggedToken });
    const flaggedRes = await submit(t, flaggedToken, { task: flaggedTask, file: await screenshot(++seed) });
    const flagged = flaggedRes.body.data._id as string;
    const flags = await t.deps.db.selectFrom('flags').selectAll().where('item_id', '=', flagged).execute();
    expect(flags.map((f) => f.kind)).toEqual(['too_fast']);
    const plain = await makePendingSubmission(t.deps.db, worker._id, { createdAt: sentAt() });
    now += DAY;
    // a batch of one: the skipped proofs, older, must not take the batch's place
    expect(await autoApproveDue(t.deps, 1)).toBe(1);
    expect(await autoApproveDue(t.deps, 1)).toBe(0);
    expect(await statusOf(plain.submissionId)).toBe('approved');
    for (const id of [own.submissionId, ofBanned.submissionId, ofSuspended.submissionId, flagged])
      expect(await statusOf(id)).toBe('pending');
    expect(await balanceOf(banned._id)).toBe(0);
    expect(await balanceOf(admin._id)).toBe(0);
    // the flag dismissed by a person: the next pass takes the proof
    const dismissed = await t.call('PUT', `/api/admin/flags/${flags[0]._id}/dismiss`, {
      token: adminToken,
      body: { note: 'Hızlı ama gerçek' },
    });
    expect(dismissed.status).toBe(200);
    expect(await autoApproveDue(t.deps)).toBe(1);
    expect(await statusOf(flagged)).toBe('approved');
    // a person may still approve the suspended account's proof, and reject the banned one's
    const approve = await t.call('PUT', `/api/submissions/${ofSuspended.submissionId}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'Elle onaylandı' },
    });
    expect(approve.status).toBe(200);
    const reject = await t.call('PUT', `/api/submissions/${ofBanned.submissionId}/review`, {
      token: adminToken,
      body: { status: 'rejected', feedback: 'Yasaklı', rejectionReason: 'no_share' },
    });
    expect(reject.status).toBe(200);
  });

  it('are refused inside the approval itself, not only left out of the list', async () => {
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const worker = await makeUser(t.deps.db);
    const own = await makePendingSubmission(t.deps.db, admin._id);
    const later = await makePendingSubmission(t.deps.db, worker._id);
    const auto: ReviewRequest = {
      status: 'approved',
      feedback: 'ok',
      rejectionReason: null,
      feedbackCode: 'task_completed',
    };
    await expect(reviewSubmission(t.deps, null, own.submissionId, auto, null)).rejects.toBeInstanceOf(
      LeftForAPerson,
    );
    // the worker banned, or flagged, after the sweep listed the proof
    await t.deps.db.updateTable('users').set({ status: 'suspended' }).where('_id', '=', worker._id).execute();
    await expect(reviewSubmission(t.deps, null, later.submissionId, auto, null)).rejects.toBeInstanceOf(
      LeftForAPerson,
    );
    await t.deps.db
      .updateTable('users')
      .set({ status: 'banned', ban_reason: 'x' })
      .where('_id', '=', worker._id)
      .execute();
    await expect(reviewSubmission(t.deps, null, later.submissionId, auto, null)).rejects.toMatchObject({
      code: 'user_banned',
    });
    expect(await statusOf(own.submissionId)).toBe('pending');
    expect(await statusOf(later.submissionId)).toBe('pending');
    expect(await rewardRows(later.submissionId)).toEqual([]);
  });
});
