import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_FIELD_MESSAGES as M, taskOwnerUpdateSchema } from '../../contract/tasks';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask, dayFromToday, makeRecord, taskRow } from './task-test-helpers';

let t: TestApp;
let adminToken: string;
let otherToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  otherToken = await t.tokenFor(await makeUser(t.deps.db));
});
afterAll(() => t.dispose());

const put = (id: string, body: unknown, token?: string) => t.call('PUT', `/api/tasks/${id}`, { token, body });

describe('PUT /api/tasks/{id} by an admin', () => {
  it('changes only the fields sent', async () => {
    const id = await createTask(t, adminToken, { category: 'video', taskLink: 'https://a.example' });
    const res = await put(id, { title: 'Yeni başlık', reward: 20 }, adminToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Yeni başlık', reward: 20, category: 'video' });
    expect(res.body.data.taskLink).toBe('https://a.example');
    expect((await taskRow(t, id)).reward).toBe(2000);
  });

  it('clears the deadline and the link when they are sent empty', async () => {
    const id = await createTask(t, adminToken, { deadline: '2099-01-01', taskLink: 'https://a.example' });
    const res = await put(id, { deadline: '', taskLink: '' }, adminToken);
    expect(res.body.data).toMatchObject({ deadline: null, taskLink: null });
  });

  it('never removes or changes comments already handed out, whatever usedComments says', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['only one'] });
    const worker = await makeUser(t.deps.db);
    const started = await t.call('POST', `/api/tasks/${id}/start`, { token: await t.tokenFor(worker) });
    expect(started.body.data.automaticComment).toBe('only one');
    const res = await put(
      id,
      { automaticComments: 'new one\nnew two\nnew one', usedComments: [] },
      adminToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.removedComments).toBe(1);
    expect(res.body.data.automaticComments).toEqual(['new one', 'new two', 'only one']);
    expect(res.body.data.usedComments).toEqual(['only one']);
    expect(res.body.data.commentStats).toEqual({ total: 3, used: 1, remaining: 2 });
    const used = await t.deps.db
      .selectFrom('task_comments')
      .selectAll()
      .where('task_id', '=', id)
      .where('used_by', '=', worker._id)
      .execute();
    expect(used.map((c) => c.text)).toEqual(['only one']);
  });

  it('keeps a used comment once when the new list names it again', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['kept'] });
    await t.call('POST', `/api/tasks/${id}/start`, { token: await t.tokenFor(await makeUser(t.deps.db)) });
    const res = await put(id, { automaticComments: ['first', 'kept'] }, adminToken);
    expect(res.body.data.automaticComments).toEqual(['first', 'kept']);
    expect(res.body.data.usedComments).toEqual(['kept']);
  });

  it('leaves the pool alone when automaticComments is not sent', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['a', 'b'] });
    const res = await put(id, { title: 'x' }, adminToken);
    expect(res.body.data.automaticComments).toEqual(['a', 'b']);
  });

  it('refuses max completions below the slots already taken', async () => {
    const id = await createTask(t, adminToken, { maxCompletions: 5 });
    for (let i = 0; i < 3; i++) await makeRecord(t, (await makeUser(t.deps.db))._id, id);
    const res = await put(id, { maxCompletions: 2 }, adminToken);
    expect(res.status).toBe(422);
    expect(res.body.error.errors.maxCompletions).toBe(M.maxCompletionsBelowTaken);
    expect((await put(id, { maxCompletions: 3 }, adminToken)).status).toBe(200);
  });

  it.each([
    ['a blank title', { title: ' ' }, M.titleRequired],
    ['a bad reward', { reward: 0.001 }, M.rewardInvalid],
    ['a bad link', { taskLink: 'www.example.com' }, M.invalidUrl],
    ['a link that is not text', { taskLink: 12 }, M.invalidUrl],
    ['a deadline that is not a date', { deadline: 'not-a-date' }, M.deadlineInvalid],
    ['a deadline on a day that does not exist', { deadline: '2026-02-31' }, M.deadlineInvalid],
    ['a deadline that is not text', { deadline: 20260301 }, M.deadlineInvalid],
    ['an estimated time that is not a number', { estimatedTime: 'soon' }, M.invalidValue],
  ])('refuses %s', async (_name, body, message) => {
    const id = await createTask(t, adminToken);
    const res = await put(id, body, adminToken);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toBe(message);
    expect(Object.values(res.body.error.errors)).toEqual([message]);
  });
});

describe('PUT /api/tasks/{id} by its creator once they are no longer an active admin', () => {
  // the edit that would turn a cancelled task into a payout for the creator's own accounts
  const takeover = { status: 'active', reward: 10000, maxCompletions: 1000000, requiredProof: 'none' };

  it('refuses a creator demoted and suspended after their task was cancelled, and writes nothing', async () => {
    const superAdmin = await makeUser(t.deps.db, { role: 'admin' });
    const superToken = await t.tokenFor(superAdmin);
    const creator = await makeUser(t.deps.db, { role: 'admin', name: 'Creator' });
    const creatorToken = await t.tokenFor(creator);
    const id = await createTask(t, creatorToken, { reward: 5, maxCompletions: 3 });
    const demote = await t.call('PUT', `/api/admin/users/${creator._id}`, {
      token: superToken,
      body: { name: creator.name, email: creator.email, role: 'user', status: 'suspended' },
    });
    expect(demote.status).toBe(200);
    expect((await put(id, { status: 'cancelled' }, superToken)).status).toBe(200);
    const before = await taskRow(t, id);
    const audits = await t.deps.db.selectFrom('audit_log').select('id').where('target_id', '=', id).execute();

    const res = await put(id, takeover, creatorToken);
    expect([res.status, res.body.error?.code]).toEqual([403, 'task_not_owner']);
    expect(await taskRow(t, id)).toEqual(before);
    expect(before).toMatchObject({ status: 'cancelled', reward: 500, max_completions: 3 });
    const after = await t.deps.db.selectFrom('audit_log').select('id').where('target_id', '=', id).execute();
    expect(after).toEqual(audits);
  });

  it.each([
    ['demoted to user', 'task_not_owner', { role: 'user' as const }],
    ['suspended', 'suspended', { status: 'suspended' as const }],
    ['demoted and suspended', 'task_not_owner', { role: 'user' as const, status: 'suspended' as const }],
    ['banned', 'banned', { status: 'banned' as const, ban_reason: 'kural ihlali' }],
  ])('refuses a creator %s (403 %s), their task unchanged', async (_name, code, change) => {
    const creator = await makeUser(t.deps.db, { role: 'admin' });
    const creatorToken = await t.tokenFor(creator);
    const id = await createTask(t, creatorToken);
    await t.deps.db.updateTable('users').set(change).where('_id', '=', creator._id).execute();
    const before = await taskRow(t, id);
    const res = await put(id, takeover, creatorToken);
    expect([res.status, res.body.error?.code]).toEqual([403, code]);
    expect(await taskRow(t, id)).toEqual(before);
  });

  it('lets the creator edit again once an admin makes them an active admin again', async () => {
    const creator = await makeUser(t.deps.db, { role: 'admin' });
    const creatorToken = await t.tokenFor(creator);
    const id = await createTask(t, creatorToken);
    await t.deps.db.updateTable('users').set({ role: 'user' }).where('_id', '=', creator._id).execute();
    expect((await put(id, { title: 'Geri döndüm' }, creatorToken)).status).toBe(403);
    await t.deps.db.updateTable('users').set({ role: 'admin' }).where('_id', '=', creator._id).execute();
    expect((await put(id, { title: 'Geri döndüm' }, creatorToken)).status).toBe(200);
    expect((await taskRow(t, id)).title).toBe('Geri döndüm');
  });
});

describe("the owner form's schema (the edit screen checks the whole form with it)", () => {
  const form = (overrides: Record<string, unknown> = {}) => ({
    title: 'Sahibin görevi',
    description: 'Açıklama',
    reward: 7.25,
    maxCompletions: 10,
    category: 'survey',
    difficulty: 'medium',
    status: 'active',
    requiredProof: 'screenshot',
    deadline: dayFromToday(10),
    ...overrides,
  });
  const problems = (body: unknown) => {
    const parsed = taskOwnerUpdateSchema.safeParse(body);
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path[0], i.message]));
  };

  it('takes the whole form', () => {
    expect(problems(form({ status: 'cancelled' }))).toEqual({});
  });

  it.each([
    ['a missing title', { title: undefined }, 'title', M.titleRequired],
    ['a missing reward', { reward: undefined }, 'reward', M.rewardRequired],
    ['an invalid reward', { reward: 0 }, 'reward', M.rewardInvalid],
    ['a missing category', { category: undefined }, 'category', M.fieldRequired],
    ['a missing difficulty', { difficulty: '' }, 'difficulty', M.fieldRequired],
    ['a missing deadline', { deadline: undefined }, 'deadline', M.deadlineRequired],
    ['an empty deadline', { deadline: '' }, 'deadline', M.deadlineRequired],
    ['a missing status', { status: '' }, 'status', M.fieldRequired],
    [
      'the inactive status, which the owner form does not offer',
      { status: 'inactive' },
      'status',
      M.ownerStatusNotAllowed,
    ],
    ['an unknown status', { status: 'paused' }, 'status', M.ownerStatusNotAllowed],
    ['a missing proof type', { requiredProof: null }, 'requiredProof', M.fieldRequired],
  ])('refuses %s', (_name, change, field, message) => {
    expect(problems(form(change))[field]).toBe(message);
  });
});

describe('PUT /api/tasks/{id} by anyone else', () => {
  it.each([
    ['a visitor', undefined, 401, 'unauthorized'],
    ['a user who did not create the task', 'other', 403, 'task_not_owner'],
  ])('refuses %s', async (_name, who, status, code) => {
    const id = await createTask(t, adminToken);
    const res = await put(id, { title: 'mine now' }, who ? otherToken : undefined);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (code === 'task_not_owner')
      expect(res.body.error.message).toBe("You don't have permission to edit this task");
  });

  it('answers 404 for a task that does not exist', async () => {
    const res = await put('nope', { title: 'x' }, adminToken);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('task_not_found');
  });
});

describe('DELETE /api/tasks/{id}', () => {
  it('refuses users and visitors', async () => {
    const id = await createTask(t, adminToken);
    expect((await t.call('DELETE', `/api/tasks/${id}`, { token: otherToken })).status).toBe(403);
    expect((await t.call('DELETE', `/api/tasks/${id}`)).status).toBe(401);
  });

  it('soft-deletes: the row stays, the task is gone from the API', async () => {
    const id = await createTask(t, adminToken);
    const res = await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ _id: id, deleted: true });
    expect((await taskRow(t, id)).deleted_at).not.toBeNull();
    expect((await t.call('GET', `/api/tasks/${id}`, { token: adminToken })).status).toBe(404);
    expect((await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken })).status).toBe(404);
    expect((await put(id, { title: 'x' }, adminToken)).status).toBe(404);
  });
});

describe('PUT /api/tasks/{id}/feature', () => {
  it('features and unfeatures a task', async () => {
    const id = await createTask(t, adminToken);
    const on = await t.call('PUT', `/api/tasks/${id}/feature`, {
      token: adminToken,
      body: { isFeatured: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.data.isFeatured).toBe(true);
    const off = await t.call('PUT', `/api/tasks/${id}/feature`, {
      token: adminToken,
      body: { isFeatured: false },
    });
    expect(off.body.data.isFeatured).toBe(false);
  });

  it.each([
    ['a user', 'user', { isFeatured: true }, 403, 'forbidden'],
    ['a missing flag', 'admin', {}, 422, 'validation_error'],
    ['a flag given as text', 'admin', { isFeatured: 'yes' }, 422, 'validation_error'],
  ])('refuses %s', async (_name, who, body, status, code) => {
    const id = await createTask(t, adminToken);
    const res = await t.call('PUT', `/api/tasks/${id}/feature`, {
      token: who === 'admin' ? adminToken : otherToken,
      body,
    });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });

  it('answers 404 for an unknown task', async () => {
    const res = await t.call('PUT', '/api/tasks/nope/feature', {
      token: adminToken,
      body: { isFeatured: true },
    });
    expect(res.status).toBe(404);
  });
});

describe('a change raced by another admin deleting the task', () => {
  // the change's commit reaches the disk while other requests run: a delete can land between the
  // change and the read of the task its answer shows
  it.each([
    ['PUT /api/tasks/{id}/feature', (id: string) => `/api/tasks/${id}/feature`, { isFeatured: true }],
    ['PUT /api/tasks/{id}', (id: string) => `/api/tasks/${id}`, { title: 'Yarışan başlık' }],
  ])('%s answers the change or 404, never a 500', async (_name, path, body) => {
    const other = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const id = await createTask(t, adminToken);
      const [change, removal] = await Promise.all([
        t.call('PUT', path(id), { token: adminToken, body }),
        t.call('DELETE', `/api/tasks/${id}`, { token: other }),
      ]);
      expect(removal.status).toBe(200);
      expect([200, 404]).toContain(change.status);
      if (change.status === 404) expect(change.body.error.code).toBe('task_not_found');
      statuses.add(change.status);
    }
    // the race is real here: at least one change heard of the delete after its own write
    expect(statuses.has(404)).toBe(true);
  });
});
