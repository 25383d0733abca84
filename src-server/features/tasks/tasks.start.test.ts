import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { createTask, makeRecord, patchTask, taskRow } from './task-test-helpers';

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

async function worker(overrides: Partial<UserRow> = {}) {
  const user = await makeUser(t.deps.db, overrides);
  return { user, token: await t.tokenFor(user) };
}
const start = (id: string, token?: string) => t.call('POST', `/api/tasks/${id}/start`, { token });
const restart = (id: string, token?: string) => t.call('POST', `/api/tasks/${id}/restart`, { token });
const record = (userId: string, taskId: string) =>
  t.deps.db
    .selectFrom('user_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();

describe('POST /api/tasks/{id}/start', () => {
  it('creates the record, takes a slot and hands out one comment of the pool', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['Süper uygulama', 'Çok beğendim'] });
    const { user, token } = await worker();
    const res = await start(id, token);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      status: 'in_progress',
      completedAt: null,
      submission: null,
      task: { _id: id, title: 'Uygulamayı değerlendir', reward: 12.5, status: 'active', deadline: null },
    });
    expect(['Süper uygulama', 'Çok beğendim']).toContain(res.body.data.automaticComment);
    expect((await taskRow(t, id)).reserved).toBe(1);
    const given = await t.deps.db
      .selectFrom('task_comments')
      .select(['text', 'used_at'])
      .where('used_by', '=', user._id)
      .execute();
    expect(given.map((c) => c.text)).toEqual([res.body.data.automaticComment]);
    expect(given[0].used_at).not.toBeNull();
  });

  it('succeeds without a comment when the pool is empty', async () => {
    const id = await createTask(t, adminToken);
    const res = await start(id, (await worker()).token);
    expect(res.status).toBe(201);
    expect(res.body.data.automaticComment).toBeNull();
  });

  it('lets the last slot go and then refuses with task_full', async () => {
    const id = await createTask(t, adminToken, { maxCompletions: 1 });
    expect((await start(id, (await worker()).token)).status).toBe(201);
    const res = await start(id, (await worker()).token);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('task_full');
    expect((await taskRow(t, id)).reserved).toBe(1);
  });

  it.each([
    ['a visitor', {}, undefined, 401, 'unauthorized'],
    ['a suspended user', {}, { status: 'suspended' }, 403, 'suspended'],
    ['a banned user', {}, { status: 'banned', ban_reason: 'spam' }, 403, 'banned'],
    ['an inactive task', { status: 'inactive' }, {}, 409, 'task_unavailable'],
    ['a completed task', { status: 'completed' }, {}, 409, 'task_unavailable'],
    ['a task past its deadline', { deadline: '2000-01-01T00:00:00.000Z' }, {}, 409, 'task_unavailable'],
    ['a deleted task', { deleted_at: '2000-01-01T00:00:00.000Z' }, {}, 404, 'task_not_found'],
  ] as const)('refuses %s', async (_name, taskPatch, userPatch, status, code) => {
    const id = await createTask(t, adminToken);
    await patchTask(t, id, taskPatch);
    const token = userPatch ? (await worker(userPatch)).token : undefined;
    const res = await start(id, token);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (code === 'banned') expect(res.body.error.banReason).toBe('spam');
    expect((await taskRow(t, id)).reserved).toBe(0);
  });

  it('refuses an unknown task with a 404', async () => {
    const res = await start('nope', (await worker()).token);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('task_not_found');
  });

  it('refuses a second start by the same user, even after the proof was sent', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['a', 'b'] });
    const { user, token } = await worker();
    expect((await start(id, token)).status).toBe(201);
    const again = await start(id, token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('task_already_started');
    await t.deps.db
      .updateTable('user_tasks')
      .set({ status: 'completed' })
      .where('user_id', '=', user._id)
      .execute();
    expect((await start(id, token)).body.error.code).toBe('task_already_started');
    expect((await taskRow(t, id)).reserved).toBe(1);
    const used = await t.deps.db
      .selectFrom('task_comments')
      .select('text')
      .where('used_by', '=', user._id)
      .execute();
    expect(used).toHaveLength(1);
  });
});

describe('POST /api/tasks/{id}/restart', () => {
  it('reopens a rejected record, keeps its comment and takes the slot again', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['yorum'] });
    const { user, token } = await worker();
    await start(id, token);
    await t.deps.db
      .updateTable('user_tasks')
      .set({ status: 'completed' })
      .where('user_id', '=', user._id)
      .execute();
    const ut = (await record(user._id, id))!;
    await t.deps.db
      .insertInto('submissions')
      .values({
        _id: 'rejected1',
        user_task_id: ut._id,
        user_id: user._id,
        task_id: id,
        status: 'rejected',
        description: null,
        feedback: 'Eksik',
        rejection_reason: 'no_share',
        reward: 1250,
        proof_file: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        reviewed_by: null,
        reviewed_at: null,
      })
      .execute();
    await patchTask(t, id, { reserved: 0 }); // the rejection freed the slot
    const res = await restart(id, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'in_progress',
      automaticComment: 'yorum',
      completedAt: null,
      submission: { _id: 'rejected1', status: 'rejected', feedback: 'Eksik', rejectionReason: 'no_share' },
    });
    expect((await taskRow(t, id)).reserved).toBe(1);
    const again = await restart(id, token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('task_not_restartable');
    expect((await taskRow(t, id)).reserved).toBe(1);
  });

  it.each([
    ['no record', undefined],
    ['a record in progress', 'none'],
    ['a submission waiting for review', 'pending'],
    ['an approved submission', 'approved'],
  ] as const)('refuses a restart with %s', async (_name, state) => {
    const id = await createTask(t, adminToken);
    const { user, token } = await worker();
    if (state) await makeRecord(t, user._id, id, state === 'none' ? undefined : state);
    const res = await restart(id, token);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('task_not_restartable');
  });

  it('refuses a restart when the task filled up meanwhile, and leaves the record as it was', async () => {
    const id = await createTask(t, adminToken, { maxCompletions: 1 });
    const { user, token } = await worker();
    await makeRecord(t, user._id, id, 'rejected');
    await makeRecord(t, (await worker()).user._id, id);
    const res = await restart(id, token);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('task_full');
    expect((await record(user._id, id))?.status).toBe('completed');
  });

  it.each([
    ['a task no longer active', { status: 'inactive' }, 409, 'task_unavailable'],
    ['a deleted task', { deleted_at: '2000-01-01T00:00:00.000Z' }, 404, 'task_not_found'],
  ] as const)('refuses a restart of %s', async (_name, patch, status, code) => {
    const id = await createTask(t, adminToken);
    const { user, token } = await worker();
    await makeRecord(t, user._id, id, 'rejected');
    await patchTask(t, id, patch);
    const res = await restart(id, token);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });

  it('refuses suspended users and visitors', async () => {
    const id = await createTask(t, adminToken);
    const { user, token } = await worker({ status: 'suspended' });
    await makeRecord(t, user._id, id, 'rejected');
    expect((await restart(id, token)).body.error.code).toBe('suspended');
    expect((await restart(id)).status).toBe(401);
  });
});

describe('GET /api/tasks/user', () => {
  it('lists the user records, newest first, with their task and latest submission', async () => {
    const first = await createTask(t, adminToken, { title: 'Birinci', automaticComments: ['c1'] });
    const second = await createTask(t, adminToken, { title: 'İkinci' });
    const { user, token } = await worker();
    await start(first, token);
    await makeRecord(t, user._id, second, 'pending');
    await t.deps.db
      .updateTable('user_tasks')
      .set({ started_at: '2030-01-01T00:00:00.000Z' })
      .where('task_id', '=', second)
      .execute();
    const res = await t.call('GET', '/api/tasks/user', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({
      task: { _id: second, title: 'İkinci', reward: 12.5 },
      status: 'completed',
      submission: { status: 'pending', reward: 12.5 },
    });
    expect(res.body.data[1]).toMatchObject({
      task: { _id: first, title: 'Birinci' },
      status: 'in_progress',
      automaticComment: 'c1',
      submission: null,
    });
    expect(typeof res.body.data[1].startedAt).toBe('string');
  });

  it('lets a suspended user read their records, and refuses visitors', async () => {
    expect(
      (await t.call('GET', '/api/tasks/user', { token: (await worker({ status: 'suspended' })).token }))
        .status,
    ).toBe(200);
    expect((await t.call('GET', '/api/tasks/user')).status).toBe(401);
  });
});
