import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask, makeRecord, settleLatest } from '../tasks/task-test-helpers';
import type { UserRow } from '../users/users.repository';
import { onDisk, submit } from './submission-test-helpers';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
const png = pngFile(10, 10);

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(() => t.dispose());

async function worker(overrides: Partial<UserRow> = {}) {
  const user = await makeUser(t.deps.db, { name: 'Mehmet', ...overrides });
  return { user, token: await t.tokenFor(user) };
}
/** A user who started a fresh task. */
async function started(taskOverrides: Record<string, unknown> = {}) {
  const taskId = await createTask(t, adminToken, taskOverrides);
  const w = await worker();
  const res = await t.call('POST', `/api/tasks/${taskId}/start`, { token: w.token });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { ...w, taskId };
}
const recordOf = (userId: string, taskId: string) =>
  t.deps.db
    .selectFrom('user_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();

describe('POST /api/submissions', () => {
  it('stores the description with LF line breaks, as browsers send CRLF in form fields', async () => {
    const { token, taskId } = await started();
    const res = await submit(t, token, {
      task: taskId,
      file: png,
      description: 'satır bir\r\nsatır iki\rüç',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.description).toBe('satır bir\nsatır iki\nüç');
  });

  it('takes the proof of a task in progress: pending, with the task reward, and the record completed', async () => {
    const { user, token, taskId } = await started();
    const res = await submit(t, token, { task: taskId, file: png, description: '  Paylaştım  ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'pending',
      description: 'Paylaştım',
      feedback: null,
      rejectionReason: null,
      reviewedAt: null,
      reward: 12.5,
      task: { _id: taskId, title: 'Uygulamayı değerlendir', reward: 12.5 },
      user: { _id: user._id, name: 'Mehmet' },
    });
    expect(res.body.data.proofImageUrl).toMatch(
      /^\/api\/files\/proofs\/[0-9a-f]{32}\.png\?exp=\d+&sig=[\w-]+$/,
    );
    const record = await recordOf(user._id, taskId);
    expect(record.status).toBe('completed');
    expect(record.completed_at).not.toBeNull();
    const row = await t.deps.db
      .selectFrom('submissions')
      .selectAll()
      .where('_id', '=', res.body.data._id)
      .executeTakeFirstOrThrow();
    expect([row.reward, row.user_task_id]).toEqual([1250, record._id]);
    expect((await onDisk(t)).proofs).toContain(row.proof_file);
  });

  it('keeps the reward of the moment the proof was sent when the task reward changes later', async () => {
    const { token, taskId } = await started();
    const res = await submit(t, token, { task: taskId, file: png });
    await t.call('PUT', `/api/tasks/${taskId}`, { token: adminToken, body: { reward: 99 } });
    const mine = await t.call('GET', '/api/submissions/user', { token });
    expect(mine.body.data[0]).toMatchObject({ _id: res.body.data._id, reward: 12.5, task: { reward: 99 } });
  });

  it('takes a new proof after a rejection and a restart', async () => {
    const { user, token, taskId } = await started();
    await submit(t, token, { task: taskId, file: png });
    await settleLatest(t, user._id, taskId, 'rejected');
    expect((await t.call('POST', `/api/tasks/${taskId}/restart`, { token })).status).toBe(200);
    const res = await submit(t, token, { task: taskId, file: png });
    expect(res.status).toBe(201);
    const subs = await t.deps.db
      .selectFrom('submissions')
      .select('status')
      .where('user_id', '=', user._id)
      .execute();
    expect(subs.map((s) => s.status).sort()).toEqual(['pending', 'rejected']);
  });

  it.each([
    ['a user who never started the task', 'none', 409, 'submission_not_allowed'],
    ['a proof already waiting for review', 'pending', 409, 'submission_pending'],
    ['an approved task', 'approved', 409, 'submission_not_allowed'],
    ['a rejected task that was not restarted', 'rejected', 409, 'submission_not_allowed'],
  ] as const)('refuses %s', async (_name, state, status, code) => {
    const taskId = await createTask(t, adminToken);
    const { user, token } = await worker();
    if (state !== 'none') await makeRecord(t, user._id, taskId, state);
    const before = await onDisk(t);
    const res = await submit(t, token, { task: taskId, file: png });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await onDisk(t)).toEqual(before);
  });

  it('refuses a second proof sent while the first waits', async () => {
    const { token, taskId } = await started();
    expect((await submit(t, token, { task: taskId, file: png })).status).toBe(201);
    const res = await submit(t, token, { task: taskId, file: png });
    expect([res.status, res.body.error.code]).toEqual([409, 'submission_pending']);
  });

  it.each([
    ['a visitor', 'visitor', 401, 'unauthorized'],
    ['a suspended user', 'suspended', 403, 'suspended'],
    ['a banned user', 'banned', 403, 'banned'],
  ])('refuses %s before reading the upload', async (_name, who, status, code) => {
    const { taskId } = await started();
    const token =
      who === 'visitor' ? undefined : (await worker({ status: who as 'suspended' | 'banned' })).token;
    const before = await onDisk(t);
    const res = await submit(t, token, { task: taskId, file: png });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await onDisk(t)).toEqual(before);
  });

  it.each([
    ['an unknown task', { task: 'nope' }, 404, 'task_not_found'],
    ['no task field', { task: undefined }, 422, 'validation_error'],
    ['a blank task field', { task: '  ' }, 422, 'validation_error'],
    ['a description over 2000 characters', { description: 'x'.repeat(2001) }, 422, 'validation_error'],
  ])('refuses %s', async (_name, fields, status, code) => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const res = await submit(t, token, { task: taskId, file: png, ...fields });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await onDisk(t)).toEqual(before);
  });

  it('refuses a proof for a task deleted after the start with task_closed, not a 404', async () => {
    const { token, taskId } = await started();
    await t.call('DELETE', `/api/tasks/${taskId}`, { token: adminToken });
    const res = await submit(t, token, { task: taskId, file: png });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('task_closed');
  });

  it.each([
    ['JSON', 'application/json', '{"task":"x"}', 415],
    ['a multipart type without a boundary', 'multipart/form-data', 'x', 400],
    ['a broken multipart body', 'multipart/form-data; boundary=abc', '--abc\r\nbroken', 400],
  ])('refuses %s', async (_name, type, raw, status) => {
    const { token } = await started();
    const res = await t.call('POST', '/api/submissions', { token, raw, headers: { 'Content-Type': type } });
    expect(res.status).toBe(status);
  });
});

describe('GET /api/submissions/user', () => {
  it('lists only the user own submissions, newest first, filtered by status', async () => {
    const { user, token, taskId } = await started();
    await submit(t, token, { task: taskId, file: png });
    await settleLatest(t, user._id, taskId, 'rejected');
    await t.call('POST', `/api/tasks/${taskId}/restart`, { token });
    await new Promise((r) => setTimeout(r, 5));
    await submit(t, token, { task: taskId, file: png });
    const all = await t.call('GET', '/api/submissions/user', { token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: { status: string }) => s.status)).toEqual(['pending', 'rejected']);
    expect(all.body.data[1]).toMatchObject({
      feedback: 'no',
      rejectionReason: 'no_share',
      task: { _id: taskId },
    });
    expect(all.body.data.every((s: { user: { _id: string } }) => s.user._id === user._id)).toBe(true);
    const rejected = await t.call('GET', '/api/submissions/user?status=rejected', { token });
    expect(rejected.body.data).toHaveLength(1);
    expect((await t.call('GET', '/api/submissions/user?status=all', { token })).body.data).toHaveLength(2);
  });

  it('refuses an unknown status filter and visitors', async () => {
    const { token } = await worker();
    expect((await t.call('GET', '/api/submissions/user?status=done', { token })).status).toBe(422);
    expect((await t.call('GET', '/api/submissions/user')).status).toBe(401);
  });

  it('lets a suspended user read their own list', async () => {
    const { token } = await worker({ status: 'suspended' });
    expect((await t.call('GET', '/api/submissions/user', { token })).status).toBe(200);
  });
});

describe('GET /api/submissions (admins)', () => {
  it('pages through every submission, newest first, with status and search filters', async () => {
    const { token, taskId } = await started({ title: 'Aranan görev' });
    await submit(t, token, { task: taskId, file: png });
    const page = await t.call('GET', '/api/submissions?limit=2&page=1', { token: adminToken });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ page: 1, limit: 2 });
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.pages).toBe(Math.ceil(page.body.data.total / 2));
    expect(page.body.data.items[0].proofImageUrl).toMatch(/^\/api\/files\/proofs\//);
    const found = await t.call('GET', '/api/submissions?q=Aranan', { token: adminToken });
    expect(found.body.data.items.map((s: { task: { _id: string } }) => s.task._id)).toEqual([taskId]);
    const pending = await t.call('GET', '/api/submissions?status=pending&limit=100', { token: adminToken });
    expect(pending.body.data.items.every((s: { status: string }) => s.status === 'pending')).toBe(true);
  });

  it.each([
    ['a user', 'user', '', 403],
    ['a visitor', 'visitor', '', 401],
    ['an unknown status', 'admin', '?status=done', 422],
    ['a limit over 100', 'admin', '?limit=101', 422],
  ])('refuses %s', async (_name, who, query, status) => {
    const token = who === 'admin' ? adminToken : who === 'user' ? (await worker()).token : undefined;
    expect((await t.call('GET', `/api/submissions${query}`, { token })).status).toBe(status);
  });
});
