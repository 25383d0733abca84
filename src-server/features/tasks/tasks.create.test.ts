import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_FIELD_MESSAGES as M } from '../../contract/tasks';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { taskBody, taskRow } from './task-test-helpers';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let userToken: string;
let bannedAdminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t.deps.db, { role: 'admin', name: 'Ayşe Admin' });
  adminToken = await t.tokenFor(admin);
  userToken = await t.tokenFor(await makeUser(t.deps.db));
  bannedAdminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin', status: 'banned' }));
});
afterAll(() => t.dispose());

const create = (body: unknown, token: string | null = adminToken) =>
  t.call('POST', '/api/tasks', { token: token ?? undefined, body });

describe('POST /api/tasks', () => {
  it.each([
    ['a visitor', undefined, 401, 'unauthorized'],
    ['a user', 'user', 403, 'forbidden'],
    ['a banned admin', 'banned', 403, 'banned'],
  ])('refuses %s', async (_who, who, status, code) => {
    const token = who === 'user' ? userToken : who === 'banned' ? bannedAdminToken : null;
    const res = await create(taskBody(), token);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });

  it('creates a task with the form defaults, the reward in kuruş and the admin as creator', async () => {
    const res = await create(taskBody());
    expect(res.status).toBe(201);
    expect(res.body.removedComments).toBe(0);
    expect(res.body.data).toMatchObject({
      title: 'Uygulamayı değerlendir',
      reward: 12.5,
      category: 'social_media',
      difficulty: 'easy',
      requiredProof: 'screenshot',
      status: 'active',
      maxCompletions: 100,
      deadline: null,
      taskLink: null,
      isFeatured: false,
      totalCompleted: 0,
      remainingSlots: 100,
      createdBy: 'Ayşe Admin',
      isOwner: true,
      automaticComments: [],
      usedComments: [],
      commentStats: { total: 0, used: 0, remaining: 0 },
    });
    expect(res.body.data._id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body.data.description).toContain('\n');
    const row = await taskRow(t, res.body.data._id);
    expect(row.reward).toBe(1250);
    expect(row.created_by).toBe(admin._id);
  });

  it('keeps every field the form sends', async () => {
    const res = await create(
      taskBody({
        category: 'video',
        difficulty: 'hard',
        requiredProof: 'link',
        status: 'inactive',
        taskLink: ' https://example.com/app ',
        deadline: '2099-12-31',
        steps: ['Open', ' ', 'Rate'],
        requirements: 'An account\n\nA phone',
        estimatedTime: 5,
        isFeatured: true,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      category: 'video',
      difficulty: 'hard',
      requiredProof: 'link',
      status: 'inactive',
      taskLink: 'https://example.com/app',
      // a date-only deadline lasts to the end of that day in Turkey (UTC+3)
      deadline: '2099-12-31T20:59:59.999Z',
      steps: ['Open', 'Rate'],
      requirements: ['An account', 'A phone'],
      estimatedTime: 5,
      isFeatured: true,
    });
  });

  it('drops blank and duplicate automatic comments and says how many it removed', async () => {
    const res = await create(taskBody({ automaticComments: 'Harika!\n\n  Çok iyi  \nHarika!\n' }));
    expect(res.status).toBe(201);
    expect(res.body.removedComments).toBe(3);
    expect(res.body.data.automaticComments).toEqual(['Harika!', 'Çok iyi']);
    expect(res.body.data.commentStats).toEqual({ total: 2, used: 0, remaining: 2 });
  });

  it('accepts the comments as a list too', async () => {
    const res = await create(taskBody({ automaticComments: ['a', 'b', 'a', ''] }));
    expect(res.body.removedComments).toBe(2);
    expect(res.body.data.automaticComments).toEqual(['a', 'b']);
  });

  it('omits an empty deadline and an empty link', async () => {
    const res = await create(taskBody({ deadline: '', taskLink: '' }));
    expect(res.status).toBe(201);
    expect(res.body.data.deadline).toBeNull();
    expect(res.body.data.taskLink).toBeNull();
  });

  it('ignores fields the form does not name (no mass assignment)', async () => {
    const res = await create(
      taskBody({
        reserved: 99,
        totalCompleted: 50,
        total_completed: 50,
        createdBy: 'x',
        rating: 1,
        _id: 'mine',
      }),
    );
    expect(res.status).toBe(201);
    const row = await taskRow(t, res.body.data._id);
    expect([row.reserved, row.total_completed, row.rating, row.created_by]).toEqual([0, 0, 4.5, admin._id]);
    expect(row._id).not.toBe('mine');
  });

  it('reports the fields in the form order: title, then description, then reward', async () => {
    const res = await create({});
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toBe(M.titleRequired);
    expect(Object.keys(res.body.error.errors).slice(0, 3)).toEqual(['title', 'description', 'reward']);
  });

  it.each([
    ['a blank title', { title: '   ' }, 'title', M.titleRequired],
    ['a title that is not text', { title: 5 }, 'title', M.titleRequired],
    ['a missing description', { description: undefined }, 'description', M.descriptionRequired],
    ['a blank description', { description: '\n ' }, 'description', M.descriptionRequired],
    ['a missing reward', { reward: undefined }, 'reward', M.rewardRequired],
    ['a null reward', { reward: null }, 'reward', M.rewardRequired],
    ['a zero reward', { reward: 0 }, 'reward', M.rewardInvalid],
    ['a negative reward', { reward: -5 }, 'reward', M.rewardInvalid],
    ['a reward finer than a kuruş', { reward: 1.005 }, 'reward', M.rewardInvalid],
    ['a reward given as text', { reward: '10' }, 'reward', M.rewardInvalid],
    ['a link without a scheme', { taskLink: 'example.com' }, 'taskLink', M.invalidUrl],
    ['an ftp link', { taskLink: 'ftp://example.com' }, 'taskLink', M.invalidUrl],
    ['a link with nothing after the scheme', { taskLink: 'https://' }, 'taskLink', M.invalidUrl],
    ['a javascript: link', { taskLink: 'javascript:alert(1)' }, 'taskLink', M.invalidUrl],
    ['zero max completions', { maxCompletions: 0 }, 'maxCompletions', M.maxCompletionsInvalid],
    ['fractional max completions', { maxCompletions: 1.5 }, 'maxCompletions', M.maxCompletionsInvalid],
    ['missing max completions', { maxCompletions: undefined }, 'maxCompletions', M.maxCompletionsInvalid],
    ['an unknown category', { category: 'crypto' }, 'category', M.invalidValue],
    ['an unknown difficulty', { difficulty: 'extreme' }, 'difficulty', M.invalidValue],
    ['an unknown status', { status: 'archived' }, 'status', M.invalidValue],
    ['an unknown proof type', { requiredProof: 'video' }, 'requiredProof', M.invalidValue],
    ['a deadline that is not a date', { deadline: 'tomorrow' }, 'deadline', M.deadlineInvalid],
    ['a deadline on a day that does not exist', { deadline: '2030-02-30' }, 'deadline', M.deadlineInvalid],
    ['a deadline of the words not-a-date', { deadline: 'not-a-date' }, 'deadline', M.deadlineInvalid],
    ['comments that are not text', { automaticComments: [1, 2] }, 'automaticComments.0', M.invalidValue],
  ])('refuses %s with a 422 naming the field', async (_name, change, field, message) => {
    const res = await create(taskBody(change));
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(message);
    expect(res.body.error.errors[field]).toBe(message);
  });

  it.each([
    ['malformed JSON', '{"title":', 400, 'malformed_json'],
    ['a JSON array', '[1,2]', 400, 'malformed_json'],
  ])('refuses %s', async (_name, raw, status, code) => {
    const res = await t.call('POST', '/api/tasks', {
      token: adminToken,
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});
