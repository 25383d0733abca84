import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { TASK_SORTS } from '../../contract/constants';
import { dialectOf } from '../../db/dialect';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { createTestApp, sessionToken, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { TASK_LIST_HELD_MS, TASK_LIST_MAX_AGE_MS } from './task-list-cache';
import { readTaskListVersion } from './task-list-version';
import { createTask, makeRecord, patchTask, taskBody, taskRow } from './task-test-helpers';

// A list's ids are kept per filter and sort while the task list's version holds: writes through
// the task routes and triggers on every column a list filters or sorts on move it, so any change
// to which tasks a list holds shows at once. Time (a deadline coming) and the completion counts
// (the most popular sort, for TASK_LIST_MAX_AGE_MS) move a list without it.
let t: TestApp;
let now = Date.UTC(2026, 5, 1, 12);
let adminToken: string;
let user: UserRow;
let userToken: string;
const ids: string[] = [];

const nowIsoOf = (ms: number) => new Date(ms).toISOString();

const list = async (query = '', token?: string) => {
  const res = await t.call('GET', `/api/tasks${query}`, { token });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as { items: { _id: string; title: string }[]; total: number; pages: number };
};

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  user = await makeUser(t.deps.db);
  userToken = await t.tokenFor(user);
  for (let i = 0; i < 25; i++) {
    const id = await createTask(t, adminToken, {
      title: `Görev ${String(i).padStart(2, '0')}`,
      reward: 1 + (i % 7),
      estimatedTime: i % 4 === 0 ? undefined : i % 5,
      category: i % 2 ? 'survey' : 'video',
    });
    await patchTask(t, id, {
      created_at: new Date(Date.UTC(2026, 0, 1) + (i % 9) * 3_600_000).toISOString(),
      total_completed: i % 3,
      is_featured: i % 11 === 0 ? 1 : 0,
    });
    ids.push(id);
  }
});
afterAll(() => t.dispose());

describe('the task list and its count after a write', () => {
  it('shows a write made outside the task routes at once', async () => {
    now += 10_000;
    const before = await list('?limit=5');
    expect(before.total).toBe(25);
    // an approval that fills a task makes it completed (review feature): a write the task
    // routes never see. The task is not on the page read; the count shows it at once.
    const shown = before.items.map((i) => i._id);
    const last = ids.find((id) => !shown.includes(id)) ?? '';
    await patchTask(t, last, { status: 'completed' });
    expect((await list('?limit=5')).total).toBe(24);
    await patchTask(t, last, { status: 'active' });
    expect((await list('?limit=5')).total).toBe(25);
    // the same for a column only a filter reads
    expect((await list('?category=video')).total).toBe(13);
    await patchTask(t, ids[1], { category: 'video' });
    expect((await list('?category=video')).total).toBe(14);
    await patchTask(t, ids[1], { category: 'survey' });
    expect((await list('?category=video')).total).toBe(13);
  });

  it('shows a task created, changed, featured or deleted through the routes at once', async () => {
    now += 10_000;
    expect((await list()).total).toBe(25);
    const id = await createTask(t, adminToken, { title: 'Yeni görev' });
    expect((await list()).total).toBe(26);
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { status: 'inactive' } });
    expect((await list()).total).toBe(25);
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { status: 'active' } });
    await t.call('PUT', `/api/tasks/${id}/feature`, { token: adminToken, body: { isFeatured: true } });
    expect((await list()).items[0]._id).toBe(id);
    await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken });
    const after = await list();
    expect(after.total).toBe(25);
    expect(after.items.map((i) => i._id)).not.toContain(id);
  });

  it('takes a task out of the public list, count included, the moment its deadline comes', async () => {
    now += 10_000;
    const first = await list('?limit=5');
    const leaving = ids.find((id) => !first.items.some((i) => i._id === id)) ?? '';
    await patchTask(t, leaving, { deadline: nowIsoOf(now + 30_000) });
    expect((await list('?limit=5')).total).toBe(25);
    now += 29_999;
    expect((await list('?limit=5')).total).toBe(25);
    now += 1;
    const after = await list('?limit=100');
    expect(after.total).toBe(24);
    expect(after.items.map((i) => i._id)).not.toContain(leaving);
    await patchTask(t, leaving, { deadline: null });
    expect((await list('?limit=5')).total).toBe(25);
  });

  it('keeps the most popular order for up to 2 s: every approval moves the counts', async () => {
    now += 10_000;
    const first = await list('?sort=most_popular&limit=100');
    const last = first.items.at(-1)?._id ?? '';
    const { total_completed } = await taskRow(t, last);
    await patchTask(t, last, { total_completed: 99 });
    expect((await list('?sort=most_popular&limit=100')).items.at(-1)?._id).toBe(last);
    now += TASK_LIST_MAX_AGE_MS;
    const moved = (await list('?sort=most_popular&limit=100')).items.map((i) => i._id);
    // featured tasks come first; among the rest it leads now
    expect(moved.indexOf(last)).toBeLessThan(first.items.length - 1);
    expect(moved.filter((id) => id !== last)).toEqual(
      first.items.map((i) => i._id).filter((id) => id !== last),
    );
    await patchTask(t, last, { total_completed });
    now += TASK_LIST_MAX_AGE_MS;
  });

  it('reads the counts and status of a page fresh, while the other columns come from rows read within 2 s', async () => {
    now += 10_000;
    const first = (await list('?limit=5')).items as unknown as Record<string, unknown>[];
    const id = first[1]._id as string;
    const saved = await taskRow(t, id);
    // an approval (review feature) and a used comment: writes the task routes never see
    await patchTask(t, id, { total_completed: 40, reserved: 45, max_completions: 50 });
    await t.deps.db
      .insertInto('task_comments')
      .values({
        _id: `c-${id}`,
        task_id: id,
        text: 'Harika uygulama',
        position: 0,
        used_by: user._id,
        used_at: nowIsoOf(now),
      })
      .execute();
    // a title written outside the task service (the product never does): the held row keeps it
    await patchTask(t, id, { title: 'Dışarıdan yazılan başlık' });
    const again = (await list('?limit=5')).items as unknown as Record<string, unknown>[];
    const row = again.find((i) => i._id === id) ?? {};
    expect(row).toMatchObject({ totalCompleted: 40, remainingSlots: 5, maxCompletions: 50 });
    expect(row.commentStats).toEqual({ total: 1, used: 1, remaining: 0 });
    expect(row.title).toBe(first[1].title);
    now += TASK_LIST_MAX_AGE_MS;
    const later = (await list('?limit=5')).items as unknown as Record<string, unknown>[];
    expect(later.find((i) => i._id === id)?.title).toBe('Dışarıdan yazılan başlık');
    // through the routes, at once
    expect(
      (await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { title: 'Rotadan başlık' } }))
        .status,
    ).toBe(200);
    const routed = (await list('?limit=5')).items as unknown as Record<string, unknown>[];
    expect(routed.find((i) => i._id === id)?.title).toBe('Rotadan başlık');
    await t.deps.db.deleteFrom('task_comments').where('_id', '=', `c-${id}`).execute();
    const { total_completed, reserved, max_completions, title, search_title, updated_at } = saved;
    await patchTask(t, id, { total_completed, reserved, max_completions, title, search_title, updated_at });
    now += TASK_LIST_MAX_AGE_MS;
  });

  it("hides a user's paid tasks at once: the paid set is read on every request", async () => {
    now += 10_000;
    expect((await list('', userToken)).total).toBe(25);
    await makeRecord(t, user._id, ids[3], 'approved');
    const mine = await list('?limit=100', userToken);
    expect(mine.total).toBe(24);
    expect(mine.items.map((i) => i._id)).not.toContain(ids[3]);
    expect((await list('?limit=100')).total).toBe(25);
  });
});

describe('pages behind the same page numbers', () => {
  const walk = async (query: string, token?: string) => {
    const whole = await list(`?limit=100${query}`, token);
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(whole.total / 3) + 1; page++) {
      const data = await list(`?limit=3&page=${page}${query}`, token);
      expect(data.total).toBe(whole.total);
      paged.push(...data.items.map((i) => i._id));
    }
    return { whole: whole.items.map((i) => i._id), paged };
  };

  it.each(TASK_SORTS)('gives every task once, in order, page after page (sort %s)', async (sort) => {
    now += 10_000;
    const { whole, paged } = await walk(`&sort=${sort}`);
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(whole.length);
  });

  it('pages a signed-in user past their paid tasks without gaps or repeats', async () => {
    now += 10_000;
    for (const i of [0, 4, 5, 6, 20, 24]) await makeRecord(t, user._id, ids[i], 'approved');
    const { whole, paged } = await walk('&sort=oldest', userToken);
    expect(paged).toEqual(whole);
    for (const i of [0, 4, 5, 6, 20, 24]) expect(whole).not.toContain(ids[i]);
    expect(whole).toHaveLength(25 - 7);
  });

  it('answers a page past the end with no items and the total', async () => {
    const data = await list('?limit=10&page=99');
    expect(data.items).toEqual([]);
    expect(data.total).toBe(25);
  });
});

describe('nodes sharing a database', () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Two apps over one database (the data folder's SQLite file, or PostgreSQL on that run), on a
   * clock that stands still; `shared` false: two single servers over one SQLite file.
   */
  async function twoNodes(shared: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-list-nodes-'));
    dirs.push(dir);
    const database = shared ? await sharedDatabase() : { env: {}, drop: async () => {} };
    drops.push(database.drop);
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    const at = () => new Date(Date.UTC(2026, 5, 1, 12));
    const nodes = [
      await openApp(config, { web: new Map(), clock: at }),
      await openApp(config, { web: new Map(), clock: at }),
    ];
    const apps = nodes.map((n) => createApp(n.deps));
    const admin = await makeUser(nodes[0].deps.db, { role: 'admin' });
    const token = await sessionToken(nodes[0].deps, admin);
    const call = async (node: number, method: string, path: string, body?: unknown) => {
      const res = await apps[node].request(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json() };
    };
    const total = async (node: number) => (await call(node, 'GET', '/api/tasks')).body.data.total as number;
    const close = async () => {
      for (const n of nodes) await n.close();
    };
    return { nodes, call, total, close };
  }

  it('shows a task written through one node on the other at once', async () => {
    const { call, total, close } = await twoNodes(true);
    try {
      expect([await total(0), await total(1)]).toEqual([0, 0]);
      const made = await call(0, 'POST', '/api/tasks', taskBody());
      expect(made.status).toBe(201);
      expect([await total(0), await total(1)]).toEqual([1, 1]);
      expect((await call(1, 'DELETE', `/api/tasks/${made.body.data._id}`)).status).toBe(200);
      expect([await total(0), await total(1)]).toEqual([0, 0]);
    } finally {
      await close();
    }
  });

  it('shows it on a second single server over the same SQLite file at once too', async () => {
    // each reads the version under its stamp, which another connection's commit moves
    const { call, total, close } = await twoNodes(false);
    try {
      expect(await total(1)).toBe(0);
      expect((await call(0, 'POST', '/api/tasks', taskBody())).status).toBe(201);
      expect([await total(0), await total(1)]).toEqual([1, 1]);
    } finally {
      await close();
    }
  });

  it('bumps the version with the write, in its transaction: a refused write leaves it', async () => {
    const { nodes, call, close } = await twoNodes(true);
    try {
      const db = nodes[0].deps.db;
      const start = await readTaskListVersion(db);
      const made = await call(1, 'POST', '/api/tasks', taskBody({ maxCompletions: 2 }));
      const created = await readTaskListVersion(db);
      expect(created).toBeGreaterThan(start);
      await db.updateTable('tasks').set({ reserved: 2 }).execute();
      const refused = await call(1, 'PUT', `/api/tasks/${made.body.data._id}`, { maxCompletions: 1 });
      expect(refused.status).toBe(422);
      expect(await readTaskListVersion(db)).toBe(created);
    } finally {
      await close();
    }
  });

  it('is bumped by any change to a column a list filters or sorts on, and by no other', async () => {
    const { nodes, call, total, close } = await twoNodes(true);
    try {
      const db = nodes[0].deps.db;
      const made = await call(0, 'POST', '/api/tasks', taskBody({ maxCompletions: 5 }));
      const id = made.body.data._id as string;
      expect([await total(0), await total(1)]).toEqual([1, 1]);
      const before = await readTaskListVersion(db);
      // what starts and approvals change, and a status set to the value it holds
      await db
        .updateTable('tasks')
        .set({ reserved: 3, total_completed: 2, updated_at: new Date().toISOString(), status: 'active' })
        .where('_id', '=', id)
        .execute();
      expect(await readTaskListVersion(db)).toBe(before);
      // the approval that fills the task, as the review service writes it
      await db.updateTable('tasks').set({ status: 'completed' }).where('_id', '=', id).execute();
      expect(await readTaskListVersion(db)).toBe(before + 1);
      expect([await total(0), await total(1)]).toEqual([0, 0]);
      await db.updateTable('tasks').set({ status: 'active', reward: 777 }).where('_id', '=', id).execute();
      expect(await readTaskListVersion(db)).toBe(before + 2);
      expect([await total(0), await total(1)]).toEqual([1, 1]);
      await db.deleteFrom('tasks').where('_id', '=', id).execute();
      expect(await readTaskListVersion(db)).toBe(before + 3);
      expect([await total(0), await total(1)]).toEqual([0, 0]);
    } finally {
      await close();
    }
  });
});

describe('a list nothing changed', () => {
  it('is kept past 2 s: a change no trigger sees shows only within TASK_LIST_HELD_MS', async () => {
    let at = Date.UTC(2026, 6, 1, 12);
    const app = await createTestApp({ clock: () => new Date(at) });
    try {
      const admin = await app.tokenFor(await makeUser(app.deps.db, { role: 'admin' }));
      const made = [
        await createTask(app, admin, { title: 'Bir' }),
        await createTask(app, admin, { title: 'İki' }),
      ];
      const page = async () => (await app.call('GET', '/api/tasks?limit=1')).body.data;
      const count = async () => (await page()).total as number;
      expect(await count()).toBe(2);
      // a task the page does not show (one it shows is checked on every request)
      const shown = (await page()).items[0]._id;
      const hidden = made.find((id) => id !== shown) ?? '';
      // as if a column were changed that no trigger watches: without the trigger, the list's
      // version stays, and only the list's age can show the change
      const drop =
        dialectOf(app.deps.db) === 'postgres'
          ? 'DROP TRIGGER task_list_update ON tasks'
          : 'DROP TRIGGER task_list_update';
      await sql.raw(drop).execute(app.deps.db);
      await patchTask(app, hidden, { status: 'inactive' });
      at += TASK_LIST_MAX_AGE_MS * 10;
      expect(await count()).toBe(2);
      at += TASK_LIST_HELD_MS - TASK_LIST_MAX_AGE_MS * 10;
      expect(await count()).toBe(1);
    } finally {
      await app.dispose();
    }
  });
});
