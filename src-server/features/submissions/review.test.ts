import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_APPROVE_FEEDBACK } from '../../contract/constants';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission, makeTask } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

const review = (id: string, body: unknown, token = adminToken) =>
  t.call('PUT', `/api/submissions/${id}/review`, { body, token });
const approve = { status: 'approved', feedback: 'Güzel iş' };
const reject = { status: 'rejected', feedback: 'No screenshot', rejectionReason: 'irrelevant_evidence' };

const submission = (id: string) =>
  t.deps.db.selectFrom('submissions').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const task = (id: string) =>
  t.deps.db.selectFrom('tasks').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const userRow = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledger = (id: string) =>
  t.deps.db
    .selectFrom('ledger')
    .select(['amount', 'kind', 'ref', 'actor_id'])
    .where('user_id', '=', id)
    .execute();

describe('PUT /api/submissions/{id}/review refuses', () => {
  it.each<[string, () => Promise<string | undefined>, number, string]>([
    ['a visitor', async () => undefined, 401, 'unauthorized'],
    ['a user', async () => t.tokenFor(await makeUser(t.deps.db)), 403, 'forbidden'],
    [
      'a banned admin',
      async () => t.tokenFor(await makeUser(t.deps.db, { role: 'admin', status: 'banned' })),
      403,
      'banned',
    ],
  ])('%s', async (_who, token, status, code) => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      body: approve,
      token: await token(),
    });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await submission(submissionId)).status).toBe('pending');
  });

  it.each<[string, unknown, number, string, string | undefined]>([
    ['no status', { feedback: 'ok' }, 422, 'validation_error', undefined],
    ['an unknown status', { status: 'pending', feedback: 'ok' }, 422, 'validation_error', undefined],
    ['no feedback', { status: 'approved' }, 422, 'feedback_required', 'Please write a feedback'],
    [
      'a blank feedback',
      { status: 'approved', feedback: '   ' },
      422,
      'feedback_required',
      'Please write a feedback',
    ],
    [
      'a feedback that is not text',
      { status: 'approved', feedback: 12 },
      422,
      'feedback_required',
      undefined,
    ],
    [
      'a feedback over 2000 characters',
      { status: 'approved', feedback: 'x'.repeat(2001) },
      422,
      'validation_error',
      undefined,
    ],
    [
      'a rejection without a reason',
      { status: 'rejected', feedback: 'no' },
      422,
      'rejection_reason_required',
      'Please select a rejection reason',
    ],
    [
      'a rejection with a reason not in the list',
      { status: 'rejected', feedback: 'no', rejectionReason: 'because' },
      422,
      'rejection_reason_required',
      'Please select a rejection reason',
    ],
    ['a body that is not JSON', '{"status":', 400, 'malformed_json', undefined],
    ['a JSON array', [approve], 400, 'malformed_json', undefined],
  ])('%s', async (_name, body, status, code, message) => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, body);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    if (message) expect(res.body.error.message).toBe(message);
    expect((await submission(submissionId)).status).toBe('pending');
  });

  it('a submission that does not exist with submission_not_found', async () => {
    const res = await review('does-not-exist', approve);
    expect([res.status, res.body.error.code]).toEqual([404, 'submission_not_found']);
  });
});

describe('approving a submission', () => {
  it('pays the reward, completes the record and counts the completion in one go', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId, userTaskId, taskId } = await makePendingSubmission(t.deps.db, user._id, {
      reward: 1250,
    });
    const res = await review(submissionId, approve);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: submissionId,
      status: 'approved',
      feedback: 'Güzel iş',
      rejectionReason: null,
      reward: 12.5,
      task: { _id: taskId, reward: 12.5 },
      user: { _id: user._id, name: user.name },
    });
    expect(await submission(submissionId)).toMatchObject({ status: 'approved', reviewed_by: admin._id });
    expect(await userRow(user._id)).toMatchObject({ balance: 1250, total_earned: 1250 });
    expect(await ledger(user._id)).toEqual([
      { amount: 1250, kind: 'reward', ref: submissionId, actor_id: admin._id },
    ]);
    const record = await t.deps.db
      .selectFrom('user_tasks')
      .selectAll()
      .where('_id', '=', userTaskId)
      .executeTakeFirstOrThrow();
    expect(record.status).toBe('completed');
    expect(record.completed_at).not.toBeNull();
    expect(await task(taskId)).toMatchObject({ total_completed: 1, status: 'active', reserved: 1 });
  });

  it('shows in the profile figures of GET /api/users/me', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const first = await makePendingSubmission(t.deps.db, user._id, { reward: 1000 });
    await makePendingSubmission(t.deps.db, user._id, { reward: 250 });
    const third = await makePendingSubmission(t.deps.db, user._id, { reward: 700 });
    const before = await t.call('GET', '/api/users/me', { token });
    expect(before.body.data).toMatchObject({
      balance: 0,
      pendingBalance: 19.5,
      totalEarnings: 0,
      completedTasks: 0,
      pendingTasks: 3,
    });
    await review(first.submissionId, approve);
    await review(third.submissionId, reject);
    const after = await t.call('GET', '/api/users/me', { token });
    expect(after.body.data).toMatchObject({
      balance: 10,
      pendingBalance: 2.5,
      totalEarnings: 10,
      completedTasks: 1,
      pendingTasks: 1,
    });
  });

  it('marks the task completed when the completions reach the maximum', async () => {
    const taskId = await makeTask(t.deps.db, { max_completions: 2, reward: 500 });
    const a = await makePendingSubmission(t.deps.db, (await makeUser(t.deps.db))._id, {
      taskId,
      reward: 500,
    });
    const b = await makePendingSubmission(t.deps.db, (await makeUser(t.deps.db))._id, {
      taskId,
      reward: 500,
    });
    await review(a.submissionId, approve);
    expect(await task(taskId)).toMatchObject({ total_completed: 1, status: 'active' });
    await review(b.submissionId, approve);
    expect(await task(taskId)).toMatchObject({ total_completed: 2, status: 'completed' });
  });

  it('accepts the quick approve feedback like any other', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, { status: 'approved', feedback: QUICK_APPROVE_FEEDBACK });
    expect(res.status).toBe(200);
    expect((await submission(submissionId)).feedback).toBe(QUICK_APPROVE_FEEDBACK);
  });

  it('ignores a rejection reason sent with an approval', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, { ...approve, rejectionReason: 'no_share' });
    expect(res.body.data.rejectionReason).toBeNull();
  });
});

describe('rejecting a submission', () => {
  it('stores the feedback and reason, frees the slot and pays nothing', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId, taskId } = await makePendingSubmission(t.deps.db, user._id);
    expect((await task(taskId)).reserved).toBe(1);
    const res = await review(submissionId, reject);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'rejected',
      feedback: 'No screenshot',
      rejectionReason: 'irrelevant_evidence',
    });
    expect(await task(taskId)).toMatchObject({ reserved: 0, total_completed: 0 });
    expect(await userRow(user._id)).toMatchObject({ balance: 0, total_earned: 0 });
    expect(await ledger(user._id)).toEqual([]);
  });
});

describe('a second review', () => {
  it.each<[string, unknown, unknown]>([
    ['refuses a second approval of the same submission', approve, approve],
    ['refuses to reject an approved submission', approve, reject],
    ['refuses to approve a rejected submission', reject, approve],
    ['refuses a second rejection', reject, reject],
  ])('%s with 409 already_reviewed and changes nothing', async (_name, first, second) => {
    const user = await makeUser(t.deps.db);
    const { submissionId, taskId } = await makePendingSubmission(t.deps.db, user._id, { reward: 800 });
    expect((await review(submissionId, first)).status).toBe(200);
    const [subBefore, taskBefore, userBefore] = [
      await submission(submissionId),
      await task(taskId),
      await userRow(user._id),
    ];
    const res = await review(submissionId, second);
    expect([res.status, res.body.error.code]).toEqual([409, 'already_reviewed']);
    expect(await submission(submissionId)).toEqual(subBefore);
    expect(await task(taskId)).toEqual(taskBefore);
    expect(await userRow(user._id)).toEqual(userBefore);
  });

  it('refuses to pay a user twice for one task even through a second submission', async () => {
    const user = await makeUser(t.deps.db);
    const first = await makePendingSubmission(t.deps.db, user._id);
    await review(first.submissionId, approve);
    // a corrupt second record for the same task (the task feature never allows this)
    const second = await makePendingSubmission(t.deps.db, (await makeUser(t.deps.db))._id, {
      taskId: first.taskId,
    });
    await t.deps.db
      .updateTable('submissions')
      .set({ user_id: user._id })
      .where('_id', '=', second.submissionId)
      .execute();
    const res = await review(second.submissionId, approve);
    expect([res.status, res.body.error.code]).toEqual([409, 'already_reviewed']);
    expect((await userRow(user._id)).balance).toBe(1000);
  });
});

describe('feedback the system writes is stored as a code', () => {
  const mine = async (token: string) =>
    (await t.call('GET', '/api/submissions/user', { token })).body.data as {
      _id: string;
      feedback: string;
      feedbackCode: string | null;
    }[];

  it('stores a quick approve as task_completed with its English text, and shows the code to the worker', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, { status: 'approved', feedbackCode: 'task_completed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      feedback: 'task completed successfully',
      feedbackCode: 'task_completed',
    });
    const shown = (await mine(await t.tokenFor(user))).find((s) => s._id === submissionId);
    expect(shown).toMatchObject({ feedbackCode: 'task_completed' });
  });

  it("recognises the spec's fixed text sent as feedback as the same code", async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, { status: 'approved', feedback: QUICK_APPROVE_FEEDBACK });
    expect(res.body.data.feedbackCode).toBe('task_completed');
    const written = await review((await makePendingSubmission(t.deps.db, user._id)).submissionId, approve);
    expect(written.body.data).toMatchObject({ feedback: 'Güzel iş', feedbackCode: null });
  });

  it('stores a quick reject as rejection_reason with the reason label in English', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, {
      status: 'rejected',
      rejectionReason: 'no_share',
      feedbackCode: 'rejection_reason',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      feedback: 'No share was made',
      feedbackCode: 'rejection_reason',
      rejectionReason: 'no_share',
    });
    expect((await submission(submissionId)).feedback_code).toBe('rejection_reason');
  });

  it.each([
    [
      'task_completed on a rejection',
      { status: 'rejected', rejectionReason: 'no_share', feedbackCode: 'task_completed' },
    ],
    [
      'rejection_reason on an approval',
      { status: 'approved', feedback: 'ok', feedbackCode: 'rejection_reason' },
    ],
    ['an unknown code', { status: 'approved', feedback: 'ok', feedbackCode: 'made_up' }],
  ])('refuses %s with 422 on feedbackCode, changing nothing', async (_label, body) => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const res = await review(submissionId, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.errors)).toEqual(['feedbackCode']);
    expect((await submission(submissionId)).status).toBe('pending');
  });
});

describe('a decision the review screen held for its undo seconds', () => {
  const rewards = async (userId: string) => (await ledger(userId)).filter((r) => r.kind === 'reward');

  it('pays once when the screen sends the held approval twice at the same instant with its one key', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 250 });
    const headers = { 'Idempotency-Key': 'held-decision-0123456789abcdef' };
    // leaving the screen flushes the decision while its timer fires
    const replies = await Promise.all(
      [0, 1].map(() =>
        t.call('PUT', `/api/submissions/${submissionId}/review`, {
          body: approve,
          token: adminToken,
          headers,
        }),
      ),
    );
    expect(replies.map((r) => r.status < 500)).toEqual([true, true]);
    expect(replies.some((r) => r.status === 200)).toBe(true);
    expect(await rewards(user._id)).toEqual([
      { amount: 250, kind: 'reward', ref: submissionId, actor_id: admin._id },
    ]);
    expect((await userRow(user._id)).balance).toBe(250);
  });

  it('moves nothing while held, and settles once when an approval and a rejection arrive at the same instant', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 300 });
    // held (or undone): no request reached the server, the proof waits and no money moved
    expect([(await submission(submissionId)).status, await rewards(user._id)]).toEqual(['pending', []]);
    const [a, r] = await Promise.all([review(submissionId, approve), review(submissionId, reject)]);
    expect([a.status, r.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : r;
    expect(loser.body.error.code).toBe('already_reviewed');
    const settled = (await submission(submissionId)).status;
    const paid = await rewards(user._id);
    expect(paid).toHaveLength(settled === 'approved' ? 1 : 0);
    expect((await userRow(user._id)).balance).toBe(settled === 'approved' ? 300 : 0);
  });
});
