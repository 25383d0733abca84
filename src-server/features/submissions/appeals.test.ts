// Appeals. A worker appeals a rejection once, within 7 days, while the task was not
// restarted; an admin overturns it (approved and paid exactly once, also when two decide at the
// same moment) or upholds it; restarting waits for the decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';
import type { UserRow } from '../users/users.repository';
import { submit } from './submission-test-helpers';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let otherAdminToken: string;
let now = Date.parse('2026-11-10T08:00:00.000Z');
const DAY = 86_400_000;
const png = pngFile(10, 10);
const MESSAGE = 'Paylaşımı yaptım, ekran görüntüsü doğru hesaptan.';

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
  otherAdminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

/** A worker's proof for a new task of 5 TL, rejected by the admin; its id, the worker and the task. */
async function rejectedProof(options: { maxCompletions?: number; worker?: UserRow; reviewer?: string } = {}) {
  const taskId = await createTask(t, adminToken, { reward: 5, maxCompletions: options.maxCompletions ?? 10 });
  const user = options.worker ?? (await makeUser(t.deps.db));
  const token = await t.tokenFor(user);
  await t.call('POST', `/api/tasks/${taskId}/start`, { token });
  const sent = await submit(t, token, { task: taskId, file: png });
  const id = sent.body.data._id as string;
  const rejected = await t.call('PUT', `/api/submissions/${id}/review`, {
    token: options.reviewer ?? adminToken,
    body: { status: 'rejected', feedback: 'Göremedik', rejectionReason: 'no_share' },
  });
  expect(rejected.status).toBe(200);
  return { id, user, token, taskId };
}

const appeal = (id: string, token: string, message: unknown = MESSAGE) =>
  t.call('POST', `/api/submissions/${id}/appeal`, { token, body: { message } });
const decide = (id: string, body: unknown, token = adminToken, headers: Record<string, string> = {}) =>
  t.call('PUT', `/api/admin/submissions/${id}/appeal`, { token, body, headers });
const balanceOf = async (userId: string) =>
  (await t.deps.db.selectFrom('users').select('balance').where('_id', '=', userId).executeTakeFirstOrThrow())
    .balance;
const rewardRows = (id: string) =>
  t.deps.db
    .selectFrom('ledger')
    .select('amount')
    .where('ref', '=', id)
    .where('kind', '=', 'reward')
    .execute();
const taskOf = (id: string) =>
  t.deps.db
    .selectFrom('tasks')
    .select(['reserved', 'max_completions', 'total_completed'])
    .where('_id', '=', id)
    .executeTakeFirstOrThrow();

describe('POST /api/submissions/{id}/appeal', () => {
  it('appeals a rejection once with a message; the proof shows it', async () => {
    const { id, token } = await rejectedProof();
    const [before] = (await t.call('GET', '/api/submissions/user', { token })).body.data;
    expect(before).toMatchObject({ _id: id, appealable: true, appeal: null });
    const res = await appeal(id, token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      appealable: false,
      appeal: {
        message: MESSAGE,
        status: 'pending',
        createdAt: new Date(now).toISOString(),
        decidedAt: null,
        response: null,
      },
    });
    const again = await appeal(id, token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('appeal_exists');
  });

  it.each([
    ['too short', 'kısa'],
    ['too long', 'x'.repeat(1001)],
    ['not text', 42],
  ])('refuses a message %s with 422 on the field', async (_name, message) => {
    const { id, token } = await rejectedProof();
    const res = await appeal(id, token, message);
    expect(res.status).toBe(422);
    expect(res.body.error.errors.message).toBe('Please explain your appeal: 10 to 1,000 characters');
  });

  it('refuses after 7 days, for a pending or approved proof, and for someone else’s (404)', async () => {
    const late = await rejectedProof();
    now += 7 * DAY + 1000;
    expect((await appeal(late.id, late.token)).body.error.code).toBe('appeal_window_closed');
    const taskId = await createTask(t, adminToken);
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    await t.call('POST', `/api/tasks/${taskId}/start`, { token });
    const pending = (await submit(t, token, { task: taskId, file: png })).body.data._id;
    expect((await appeal(pending, token)).body.error.code).toBe('appeal_not_allowed');
    const mine = await rejectedProof();
    const stranger = await t.tokenFor(await makeUser(t.deps.db));
    expect((await appeal(mine.id, stranger)).status).toBe(404);
    expect((await appeal('no-such-id', stranger)).status).toBe(404);
  });

  it('restarting and appealing exclude each other', async () => {
    // restarted: no appeal
    const restarted = await rejectedProof();
    expect(
      (await t.call('POST', `/api/tasks/${restarted.taskId}/restart`, { token: restarted.token })).status,
    ).toBe(200);
    expect((await appeal(restarted.id, restarted.token)).body.error.code).toBe('appeal_not_allowed');
    // appealed: no restart until it is decided; upheld, the task can be restarted
    const appealed = await rejectedProof();
    // the worker's own record says what it offers: appealable before, pending after
    const recordOf = async () =>
      (
        (await t.call('GET', `/api/tasks/${appealed.taskId}`, { token: appealed.token })).body.data as {
          userTask: { submission: { appeal: string | null; appealable: boolean } };
        }
      ).userTask.submission;
    expect(await recordOf()).toMatchObject({ appeal: null, appealable: true });
    await appeal(appealed.id, appealed.token);
    expect(await recordOf()).toMatchObject({ appeal: 'pending', appealable: false });
    const refused = await t.call('POST', `/api/tasks/${appealed.taskId}/restart`, { token: appealed.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('appeal_pending');
    expect((await decide(appealed.id, { decision: 'uphold', response: 'Kanıt yetersiz.' })).status).toBe(200);
    expect(await recordOf()).toMatchObject({ appeal: 'upheld', appealable: false });
    expect(
      (await t.call('POST', `/api/tasks/${appealed.taskId}/restart`, { token: appealed.token })).status,
    ).toBe(200);
  });
});

describe('PUT /api/admin/submissions/{id}/appeal', () => {
  it('overturn: approves and pays the reward once, the slot and the completion counted', async () => {
    const { id, user, token, taskId } = await rejectedProof();
    await appeal(id, token);
    expect(await taskOf(taskId)).toMatchObject({ reserved: 0, total_completed: 0 });
    const res = await decide(id, { decision: 'overturn', response: 'Haklısınız, onaylandı.' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'approved',
      feedback: 'Haklısınız, onaylandı.',
      rejectionReason: null,
      appeal: {
        status: 'overturned',
        response: 'Haklısınız, onaylandı.',
        decidedAt: new Date(now).toISOString(),
      },
    });
    expect(await balanceOf(user._id)).toBe(500);
    expect(await rewardRows(id)).toEqual([{ amount: 500 }]);
    expect(await taskOf(taskId)).toMatchObject({ reserved: 1, total_completed: 1 });
    const again = await decide(id, { decision: 'overturn', response: 'Tekrar' });
    expect(again.body.error.code).toBe('appeal_not_pending');
    expect(await balanceOf(user._id)).toBe(500);
  });

  it('overturned twice at the same moment (two admins, with and without keys): paid once', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, user, token } = await rejectedProof();
      await appeal(id, token);
      const results = await Promise.all([
        decide(id, { decision: 'overturn', response: 'Bir' }),
        decide(id, { decision: 'overturn', response: 'İki' }, otherAdminToken),
        decide(id, { decision: 'overturn', response: 'Üç' }, adminToken, { 'Idempotency-Key': `k-${round}` }),
        decide(id, { decision: 'overturn', response: 'Üç' }, adminToken, { 'Idempotency-Key': `k-${round}` }),
      ]);
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      expect(await rewardRows(id)).toEqual([{ amount: 500 }]);
      expect(await balanceOf(user._id)).toBe(500);
    }
  });

  it('an appeal racing a restart of the same record: one of them, never both (both engines)', async () => {
    for (let round = 0; round < 6; round++) {
      const { id, token, taskId } = await rejectedProof();
      const [appealed, restarted] = await Promise.all([
        appeal(id, token),
        t.call('POST', `/api/tasks/${taskId}/restart`, { token }),
      ]);
      const won = [appealed.status, restarted.status].filter((s) => s < 300);
      expect(won).toHaveLength(1);
      const record = await t.deps.db
        .selectFrom('user_tasks')
        .select('status')
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow();
      const pending = await t.deps.db
        .selectFrom('appeals')
        .select('status')
        .where('submission_id', '=', id)
        .executeTakeFirst();
      // a pending appeal only on a record that stayed completed
      if (appealed.status === 201 || appealed.status === 200)
        expect([record.status, pending?.status]).toEqual(['completed', 'pending']);
      else expect([record.status, pending]).toEqual(['in_progress', undefined]);
    }
  });

  it('overturn on a task that filled up meanwhile grows it by the one granted', async () => {
    const { id, token, taskId } = await rejectedProof({ maxCompletions: 1 });
    await appeal(id, token);
    const other = await makeUser(t.deps.db);
    const otherToken = await t.tokenFor(other);
    expect((await t.call('POST', `/api/tasks/${taskId}/start`, { token: otherToken })).status).toBe(201);
    expect((await decide(id, { decision: 'overturn', response: 'Tamam' })).status).toBe(200);
    expect(await taskOf(taskId)).toMatchObject({ reserved: 2, max_completions: 2 });
  });

  it('uphold: ends the appeal, moves no money', async () => {
    const { id, user, token } = await rejectedProof();
    await appeal(id, token);
    const res = await decide(id, { decision: 'uphold', response: 'Paylaşım görünmüyor.' });
    expect(res.body.data).toMatchObject({
      status: 'rejected',
      appeal: { status: 'upheld', response: 'Paylaşım görünmüyor.' },
    });
    expect(await balanceOf(user._id)).toBe(0);
    expect(await rewardRows(id)).toEqual([]);
  });

  it('refuses a bad decision (422), no appeal (404), an admin’s own (403), a user (403)', async () => {
    const { id, token } = await rejectedProof();
    expect((await decide(id, { decision: 'uphold', response: 'x' })).status).toBe(404);
    await appeal(id, token);
    expect((await decide(id, { decision: 'maybe', response: 'x' })).body.error.errors.decision).toBeDefined();
    expect(
      (await decide(id, { decision: 'uphold', response: '  ' })).body.error.errors.response,
    ).toBeDefined();
    expect((await decide(id, { decision: 'uphold', response: 'x' }, token)).status).toBe(403);
    // an admin's own proof, rejected by another admin and appealed, is for another admin to decide
    const own = await rejectedProof({ worker: admin, reviewer: otherAdminToken });
    await appeal(own.id, adminToken);
    const refused = await decide(own.id, { decision: 'overturn', response: 'Kendime' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('own_item');
    expect((await decide(own.id, { decision: 'overturn', response: 'Onay' }, otherAdminToken)).status).toBe(
      200,
    );
  });
});

describe('the admins’ view of appeals', () => {
  it('lists the proofs whose appeal waits (?appeal=pending) and counts them on the dashboard', async () => {
    const waiting = await rejectedProof();
    await appeal(waiting.id, waiting.token);
    const decided = await rejectedProof();
    await appeal(decided.id, decided.token);
    await decide(decided.id, { decision: 'uphold', response: 'Hayır' });
    const list = await t.call('GET', '/api/admin/submissions?appeal=pending&limit=100', {
      token: adminToken,
    });
    expect(list.status).toBe(200);
    const ids = list.body.data.items.map((s: { _id: string }) => s._id);
    expect(ids).toContain(waiting.id);
    expect(ids).not.toContain(decided.id);
    expect(
      list.body.data.items.every((s: { appeal: { status: string } }) => s.appeal.status === 'pending'),
    ).toBe(true);
    const stats = await t.call('GET', '/api/admin/stats', { token: adminToken });
    expect(stats.body.data.pendingAppeals).toBe(list.body.data.total);
    expect((await t.call('GET', '/api/admin/submissions?appeal=maybe', { token: adminToken })).status).toBe(
      422,
    );
  });
});
