import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { createTask, makeRecord, patchTask } from './task-test-helpers';

let t: TestApp;
let adminToken: string;
let user: UserRow;
let userToken: string;
const ids: Record<string, string> = {};

const past = '2000-01-01T00:00:00.000Z';
const list = async (query: string, token?: string) => {
  const res = await t.call('GET', `/api/tasks${query}`, { token });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const titles = (data: { items: { title: string }[] }) => data.items.map((i) => i.title);

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  user = await makeUser(t.deps.db);
  userToken = await t.tokenFor(user);
  // created one after another: created_at orders them A..G
  const specs: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['A', { reward: 10, category: 'survey', difficulty: 'easy', estimatedTime: 30 }, { total_completed: 5 }],
    [
      'B',
      { reward: 10.01, category: 'video', difficulty: 'hard', estimatedTime: 2 },
      { total_completed: 50 },
    ],
    ['C', { reward: 20, category: 'game', description: 'Play 100% of level_1' }, {}],
    ['D', { reward: 50, category: 'survey', estimatedTime: 10 }, {}],
    ['E', { reward: 50.01, category: 'social_media', difficulty: 'medium' }, { total_completed: 1 }],
    ['Inactive', { status: 'inactive' }, {}],
    ['Expired', {}, { deadline: past }],
    ['Deleted', {}, { deleted_at: past }],
    ['Approved', { category: 'other', reward: 1 }, {}],
    ['Pending', { category: 'other', reward: 1 }, {}],
  ];
  for (const [title, body, patch] of specs) {
    ids[title] = await createTask(t, adminToken, { title, ...body });
    const n = Object.keys(ids).length;
    await patchTask(t, ids[title], {
      created_at: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
      ...patch,
    });
  }
  await makeRecord(t, user._id, ids.Approved, 'approved');
  await makeRecord(t, user._id, ids.Pending, 'pending');
});
afterAll(() => t.dispose());

describe('GET /api/tasks: who sees what', () => {
  it('shows visitors active tasks within their deadline, never inactive, expired or deleted ones', async () => {
    const data = await list('');
    expect(titles(data).sort()).toEqual(['A', 'Approved', 'B', 'C', 'D', 'E', 'Pending']);
    expect(data).toMatchObject({ total: 7, page: 1, limit: 20, pages: 1 });
  });

  it('hides from a user the tasks they are done with: approved, and awaiting review', async () => {
    expect(titles(await list('', userToken)).sort()).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('counts only what it shows a user, filters included (the total subtracts the tasks they are done with)', async () => {
    expect((await list('', userToken)).total).toBe(5);
    expect((await list('?category=other', userToken)).total).toBe(0);
    expect((await list('?category=other')).total).toBe(2);
    expect((await list('?category=survey', userToken)).total).toBe((await list('?category=survey')).total);
  });

  it.each([
    ['all=1', '?all=1', ['A', 'Approved', 'B', 'C', 'D', 'E', 'Expired', 'Inactive', 'Pending']],
    ['a status filter', '?status=inactive', ['Inactive']],
    ['status=all (no filter)', '?status=all', ['A', 'Approved', 'B', 'C', 'D', 'E', 'Pending']],
  ])('shows admins every live task with %s', async (_name, query, expected) => {
    expect(titles(await list(query, adminToken)).sort()).toEqual(expected);
  });

  it('ignores all=1 and a status filter from a user', async () => {
    expect(titles(await list('?all=1&status=inactive', userToken)).sort()).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('never shows comment texts in the list, only their counts', async () => {
    const id = await createTask(t, adminToken, { title: 'With comments', automaticComments: ['x', 'y'] });
    for (const token of [undefined, userToken, adminToken]) {
      const item = (await list('?q=With comments', token)).items[0];
      expect(item._id).toBe(id);
      expect(item.automaticComments).toBeUndefined();
      expect(item.usedComments).toBeUndefined();
      expect(item.commentStats).toEqual({ total: 2, used: 0, remaining: 2 });
    }
    await patchTask(t, id, { deleted_at: past });
  });
});

describe('GET /api/tasks: filters', () => {
  it('searches in the title, case-insensitively', async () => {
    expect(titles(await list('?q=PENDI'))).toEqual(['Pending']);
  });

  it.each([
    ['search in the description, % and _ taken literally', '?q=100%25 of level_1', ['C']],
    ['search in the category', '?q=social media', ['E']],
    ['search in the category value', '?q=vide', ['B']],
    ['category', '?category=survey', ['A', 'D']],
    ['category=all (no filter)', '?category=all&difficulty=medium', ['E']],
    ['difficulty', '?difficulty=hard', ['B']],
    ['reward 0-10 (up to 10 included)', '?rewardRange=0-10&q=', ['A']],
    ['reward 10-20 (over 10, up to 20)', '?rewardRange=10-20', ['B', 'C']],
    ['reward 20-50 (over 20, up to 50)', '?rewardRange=20-50', ['D']],
    ['reward 50+ (over 50)', '?rewardRange=50%2B', ['E']],
    ['several filters at once', '?category=survey&rewardRange=20-50', ['D']],
  ])('filters by %s', async (_name, query, expected) => {
    const got = titles(await list(query)).filter((x) => x.length === 1);
    expect(got.sort()).toEqual(expected);
  });
});

describe('GET /api/tasks: sorts, featured first, pages', () => {
  const five = '&q=&rewardRange=';
  const only = (data: { items: { title: string }[] }) => titles(data).filter((x) => x.length === 1);
  it.each([
    ['newest', ['E', 'D', 'C', 'B', 'A']],
    ['oldest', ['A', 'B', 'C', 'D', 'E']],
    ['highest_reward', ['E', 'D', 'C', 'B', 'A']],
    ['lowest_reward', ['A', 'B', 'C', 'D', 'E']],
    ['quickest', ['B', 'D', 'A', 'E', 'C']],
    ['most_popular', ['B', 'A', 'E', 'D', 'C']],
  ])('sorts by %s', async (sort, expected) => {
    expect(only(await list(`?sort=${sort}${five}`))).toEqual(expected);
  });

  it('sorts newest first by default', async () => {
    expect(only(await list(''))).toEqual(['E', 'D', 'C', 'B', 'A']);
  });

  it('puts featured tasks first whatever the sort', async () => {
    await t.call('PUT', `/api/tasks/${ids.C}/feature`, { token: adminToken, body: { isFeatured: true } });
    expect(only(await list('?sort=lowest_reward'))).toEqual(['C', 'A', 'B', 'D', 'E']);
    expect(only(await list('?sort=newest'))).toEqual(['C', 'E', 'D', 'B', 'A']);
    await t.call('PUT', `/api/tasks/${ids.C}/feature`, { token: adminToken, body: { isFeatured: false } });
  });

  it('pages through the list', async () => {
    const first = await list('?sort=oldest&limit=3&page=1');
    expect(first).toMatchObject({ total: 7, page: 1, limit: 3, pages: 3 });
    expect(titles(first)).toEqual(['A', 'B', 'C']);
    expect(titles(await list('?sort=oldest&limit=3&page=3'))).toEqual(['Pending']);
    expect((await list('?limit=3&page=9')).items).toEqual([]);
  });

  it.each([
    ['an unknown sort', '?sort=random'],
    ['an unknown category', '?category=crypto'],
    ['an unknown reward range', '?rewardRange=5-6'],
    ['page 0', '?page=0'],
    ['a page that is not a number', '?page=abc'],
    ['a limit above 100', '?limit=1000'],
    ['a search of 201 characters', `?q=${'x'.repeat(201)}`],
  ])('refuses %s with a 422', async (_name, query) => {
    const res = await t.call('GET', `/api/tasks${query}`);
    expect(res.status).toBe(422);
  });
});

describe('GET /api/tasks/{id}', () => {
  it('shows an open task to a visitor, without comment texts and without a user record', async () => {
    const res = await t.call('GET', `/api/tasks/${ids.A}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ _id: ids.A, title: 'A', reward: 10, isOwner: false });
    expect(res.body.data.automaticComments).toBeUndefined();
    expect(res.body.data.userTask).toBeUndefined();
  });

  it('carries the signed-in user record, or null when they have none', async () => {
    expect((await t.call('GET', `/api/tasks/${ids.A}`, { token: userToken })).body.data.userTask).toBeNull();
    const pending = await t.call('GET', `/api/tasks/${ids.Pending}`, { token: userToken });
    expect(pending.body.data.userTask).toMatchObject({
      status: 'completed',
      submission: { status: 'pending' },
    });
  });

  it('still shows a user a task they have a record of after it closed', async () => {
    await patchTask(t, ids.Approved, { status: 'completed' });
    const res = await t.call('GET', `/api/tasks/${ids.Approved}`, { token: userToken });
    expect(res.status).toBe(200);
    expect(res.body.data.userTask.submission.status).toBe('approved');
  });

  it.each([
    ['an inactive task to a visitor', 'Inactive', undefined, 404],
    ['an expired task to a user', 'Expired', 'user', 404],
    ['a deleted task to an admin', 'Deleted', 'admin', 404],
    ['an inactive task to an admin', 'Inactive', 'admin', 200],
    ['an expired task to an admin', 'Expired', 'admin', 200],
  ])('answers %s with %i', async (_name, key, who, status) => {
    const token = who === 'admin' ? adminToken : who === 'user' ? userToken : undefined;
    const res = await t.call('GET', `/api/tasks/${ids[key]}`, { token });
    expect(res.status).toBe(status);
    if (status === 404) expect(res.body.error.code).toBe('task_not_found');
  });

  it('shows the comment texts to admins and to the owner only', async () => {
    const id = await createTask(t, adminToken, { automaticComments: ['x'] });
    const other = await makeUser(t.deps.db);
    await patchTask(t, id, { created_by: other._id });
    const asOwner = await t.call('GET', `/api/tasks/${id}`, { token: await t.tokenFor(other) });
    expect(asOwner.body.data).toMatchObject({ automaticComments: ['x'], usedComments: [], isOwner: true });
    const asAdmin = await t.call('GET', `/api/tasks/${id}`, { token: adminToken });
    expect(asAdmin.body.data).toMatchObject({ automaticComments: ['x'], isOwner: false });
    const asUser = await t.call('GET', `/api/tasks/${id}`, { token: userToken });
    expect(asUser.body.data.automaticComments).toBeUndefined();
    expect(asUser.body.data.commentStats).toEqual({ total: 1, used: 0, remaining: 1 });
  });

  it('answers 404 for an unknown id, and 401 for a broken token', async () => {
    expect((await t.call('GET', '/api/tasks/unknown')).body.error.code).toBe('task_not_found');
    expect((await t.call('GET', `/api/tasks/${ids.A}`, { token: 'broken' })).status).toBe(401);
  });
});

describe('GET /api/tasks: the reply the list writes itself', () => {
  it("gives each task as its own DTO, the detail's, on the first read and on a read of held rows", async () => {
    // comments, an owner, counts: every kind of field the list writes
    await t.call('PUT', `/api/tasks/${ids.C}`, {
      token: adminToken,
      body: { automaticComments: ['Süper', 'Çok iyi "oyun"\n<b>5/5</b>'], steps: ['İndir', 'Oyna'] },
    });
    await patchTask(t, ids.D, {
      reserved: 3,
      total_completed: 2,
      task_link: 'https://example.com/ş?q=1&x=2',
    });
    for (const [token, viewer] of [
      [undefined, 'visitor'],
      [userToken, 'user'],
    ] as const) {
      for (const round of ['first', 'held']) {
        const res = await t.call('GET', '/api/tasks', { token });
        expect(res.headers.get('content-type'), `${viewer} ${round}`).toMatch(/^application\/json/);
        const items = res.body.data.items as Record<string, unknown>[];
        expect(items.length).toBeGreaterThan(3);
        for (const item of items) {
          const detail = await t.call('GET', `/api/tasks/${item._id}`, { token });
          const { userTask: _ignored, ...dto } = detail.body.data as Record<string, unknown>;
          expect(item, `${viewer} ${round} ${String(item.title)}`).toEqual(dto);
        }
      }
    }
    const c = (await list('?category=game')).items[0];
    expect(c.steps).toEqual(['İndir', 'Oyna']);
    expect(c.commentStats).toEqual({ total: 2, used: 0, remaining: 2 });
  });
});
