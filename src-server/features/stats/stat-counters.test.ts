import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { migrations } from '../../db/migrations';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission, makeTask } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import {
  allCounters,
  countReviewed,
  countSubmissions,
  countTasks,
  countUsersCreated,
  recountCounters,
  sumApprovedRewards,
  type TimeWindow,
} from './admin-stats.repository';
import { growthPercent, growthWindows, turkeyMidnight } from './admin-stats.service';
import { splitByHour } from './hour-window';

// The dashboard's counters against a full recount after a random mix of what the app does:
// sign-ups, tasks created and deleted, submissions sent, approved and rejected, users deleted,
// rows re-dated. The clock moves on by random steps, so events land in many hours, at their
// edges and in the current hour.
let now = new Date('2026-03-01T10:17:23.456Z');
let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp({ clock: () => now }));
});
afterAll(() => t.dispose());

/** mulberry32: a different mix on every seed, the same mix on a rerun of one seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stats as the scans computed them before the counters: the reference. */
async function scanned() {
  const db = t.deps.db;
  const { current, previous } = growthWindows(now);
  const today: TimeWindow = { from: turkeyMidnight(now) };
  const [usersNow, usersBefore, tasksNow, tasksBefore, earnedNow, earnedBefore] = await Promise.all([
    countUsersCreated(db, current),
    countUsersCreated(db, previous),
    countTasks(db, current),
    countTasks(db, previous),
    sumApprovedRewards(db, current),
    sumApprovedRewards(db, previous),
  ]);
  return {
    stats: {
      totalUsers: await countUsersCreated(db),
      totalTasks: await countTasks(db),
      pendingSubmissions: await countSubmissions(db, { status: 'pending' }),
      pendingAppeals: Number(
        (
          await db
            .selectFrom('appeals')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      ),
      totalRewards: (await sumApprovedRewards(db)) / 100,
      userGrowthPercent: growthPercent(usersBefore, usersNow),
      taskGrowthPercent: growthPercent(tasksBefore, tasksNow),
      earningGrowthPercent: growthPercent(earnedBefore, earnedNow),
      userGrowthNew: usersBefore === 0 && usersNow > 0,
      taskGrowthNew: tasksBefore === 0 && tasksNow > 0,
      earningGrowthNew: earnedBefore === 0 && earnedNow > 0,
    },
    // the growths' figures as the scans count them; the daily points are the counters' own
    trend: {
      users: { current: usersNow, previous: usersBefore, days: expect.any(Array) },
      tasks: { current: tasksNow, previous: tasksBefore, days: expect.any(Array) },
      rewards: { current: earnedNow / 100, previous: earnedBefore / 100, days: expect.any(Array) },
    },
    today: {
      todayUsers: await countUsersCreated(db, today),
      todaySubmissions: await countSubmissions(db, today),
      todayApproved: await countReviewed(db, 'approved', today),
      todayRejected: await countReviewed(db, 'rejected', today),
    },
  };
}

async function expectExact() {
  expect(Object.fromEntries(await allCounters(t.deps.db))).toEqual(
    Object.fromEntries(await recountCounters(t.deps.db)),
  );
  const reference = await scanned();
  const stats = await t.call('GET', '/api/admin/stats', { token: adminToken });
  const today = await t.call('GET', '/api/admin/stats/today', { token: adminToken });
  expect(stats.body.data).toEqual({ ...reference.stats, trend: reference.trend });
  for (const series of Object.values(stats.body.data.trend as Record<string, { days: number[] }>))
    expect(series.days).toHaveLength(30);
  expect(today.body.data).toEqual(reference.today);
}

describe('the dashboard counters', () => {
  it.each([1, 2, 3])('equal a full recount after a random mix of operations (seed %i)', async (seed) => {
    const rand = prng(seed);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
    const db = t.deps.db;
    const users: string[] = [];
    const tasks: string[] = [];
    const pending: string[] = [];
    const reviewed: string[] = [];
    for (let step = 0; step < 150; step++) {
      // mostly minutes, sometimes hours or days: windows of 30 days start and end inside hours
      const r = rand();
      now = new Date(
        now.getTime() + Math.floor(rand() * (r < 0.7 ? 600_000 : r < 0.95 ? 7_200_000 : 5 * 86_400_000)),
      );
      const op = rand();
      if (op < 0.15 || users.length === 0) {
        users.push((await makeUser(db, { created_at: now.toISOString() }))._id);
      } else if (op < 0.25) {
        const res = await t.call('POST', '/api/tasks', {
          token: adminToken,
          body: { title: `Görev ${step}`, description: 'Yap ve yükle', reward: 2.5, maxCompletions: 10 },
        });
        expect(res.status).toBe(201);
        tasks.push(res.body.data._id);
      } else if (op < 0.3 && tasks.length > 0) {
        const id = pick(tasks);
        const res = await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken });
        expect([200, 404]).toContain(res.status);
      } else if (op < 0.6) {
        const reward = 100 + Math.floor(rand() * 5000);
        const { submissionId } = await makePendingSubmission(db, pick(users), {
          reward,
          createdAt: now.toISOString(),
        });
        pending.push(submissionId);
      } else if (op < 0.85 && pending.length > 0) {
        const id = pending.splice(Math.floor(rand() * pending.length), 1)[0];
        const approve = rand() < 0.6;
        const res = await t.call('PUT', `/api/submissions/${id}/review`, {
          token: adminToken,
          body: approve
            ? { status: 'approved', feedback: 'Tamam' }
            : { status: 'rejected', feedback: 'Eksik', rejectionReason: 'irrelevant_evidence' },
        });
        // the worker may have been deleted since (the rows are made straight in the table): a
        // deleted account's proof is settled no more
        if (res.status === 409) {
          expect(res.body.error.code).toBe('already_reviewed');
          continue;
        }
        expect(res.status).toBe(200);
        reviewed.push(id);
      } else if (op < 0.9) {
        const res = await t.call('DELETE', `/api/admin/users/${pick(users)}`, { token: adminToken });
        expect([200, 404, 409]).toContain(res.status);
      } else if (op < 0.95 && reviewed.length > 0) {
        // a row re-dated (as an import or a repair would): its old hour loses it, the new one gains it
        await db
          .updateTable('submissions')
          .set({ reviewed_at: new Date(now.getTime() - rand() * 40 * 86_400_000).toISOString() })
          .where('_id', '=', pick(reviewed))
          .execute();
        await db
          .updateTable('users')
          .set({ created_at: new Date(now.getTime() - rand() * 70 * 86_400_000).toISOString() })
          .where('_id', '=', pick(users))
          .execute();
      } else if (pending.length > 0) {
        // a pending submission deleted outright (the rows of a deleted account, say)
        await db
          .deleteFrom('submissions')
          .where('_id', '=', pending.pop() ?? '')
          .execute();
      }
      if (step % 50 === 49) await expectExact();
    }
    await expectExact();
  });

  it('count a task created straight in the table and one soft-deleted later', async () => {
    const before = await countTasks(t.deps.db);
    const id = await makeTask(t.deps.db, { created_at: now.toISOString() });
    await expectExact();
    await t.deps.db
      .updateTable('tasks')
      .set({ deleted_at: now.toISOString() })
      .where('_id', '=', id)
      .execute();
    await expectExact();
    expect(await countTasks(t.deps.db)).toBe(before);
  });
});

describe('the migration that adds the counters', () => {
  it('backfills them from the rows already there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-counters-'));
    const { db } = openDatabase(join(dir, 'test.db'));
    try {
      const migrator = new Migrator({
        db: db as unknown as Kysely<unknown>,
        provider: { getMigrations: async () => migrations },
      });
      const before = await migrator.migrateTo('2026-11-25-1300-search-folding');
      expect(before.error).toBeUndefined();
      const user = await makeUser(db, { created_at: '2026-01-02T03:04:05.000Z' });
      await makeUser(db, { created_at: '2026-01-02T03:59:00.000Z', deleted_at: '2026-01-03T00:00:00.000Z' });
      await makeTask(db, { created_at: '2025-12-01T00:00:00.000Z' });
      for (const [i, status] of (['pending', 'approved', 'rejected', 'approved'] as const).entries()) {
        const { submissionId } = await makePendingSubmission(db, user._id, {
          reward: 100 * (i + 1),
          createdAt: `2026-01-0${i + 3}T10:00:00.000Z`,
        });
        if (status !== 'pending') {
          await db
            .updateTable('submissions')
            .set({ status, reviewed_at: `2026-01-0${i + 4}T1${i}:30:00.000Z` })
            .where('_id', '=', submissionId)
            .execute();
        }
      }
      expect(await migrateToLatest(db)).toContain('2026-11-25-1700-stat-counters');
      const counters = Object.fromEntries(await allCounters(db));
      expect(counters).toEqual(Object.fromEntries(await recountCounters(db)));
      expect(counters).toMatchObject({
        'users|*': 1,
        'users|2026-01-02T03': 1,
        'tasks|*': 5,
        'pending|*': 1,
        'rewards|*': 200 + 400,
        'approved|2026-01-05T11': 1,
        'rejected|2026-01-06T12': 1,
      });
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the migration that keeps the counters without a rowid (SQLite)', () => {
  it('keeps every counter, and the triggers on other tables go on counting in the new table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-counters-'));
    const { db, sqlite } = openDatabase(join(dir, 'test.db'));
    try {
      const migrator = new Migrator({
        db: db as unknown as Kysely<unknown>,
        provider: { getMigrations: async () => migrations },
      });
      expect((await migrator.migrateTo('2026-12-04-1000-task-search-cover')).error).toBeUndefined();
      const user = await makeUser(db, { created_at: '2026-01-02T03:04:05.000Z' });
      await makeTask(db, { created_at: '2025-12-01T00:00:00.000Z' });
      const pending: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { submissionId } = await makePendingSubmission(db, user._id, {
          reward: 100 * (i + 1),
          createdAt: `2026-01-0${i + 3}T10:00:00.000Z`,
        });
        pending.push(submissionId);
      }
      const before = Object.fromEntries(await allCounters(db));
      expect(before['pending|*']).toBe(3);
      expect(await migrateToLatest(db)).toContain('2026-12-05-1000-stat-counters-without-rowid');
      const table = sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'stat_counters'").get() as {
        sql: string;
      };
      expect(table.sql).toMatch(/WITHOUT ROWID, STRICT$/);
      expect(
        sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'stat_counters_sum'").get(),
      ).toBeUndefined();
      expect(Object.fromEntries(await allCounters(db))).toEqual(before);
      // an approval after the migration: the submissions' triggers write to the new table
      await db
        .updateTable('submissions')
        .set({ status: 'approved', reviewed_at: '2026-01-09T10:30:00.000Z' })
        .where('_id', '=', pending[0])
        .execute();
      const after = Object.fromEntries(await allCounters(db));
      expect(after['pending|*']).toBe(2);
      expect(after['approved|2026-01-09T10']).toBe(1);
      expect(after).toEqual(Object.fromEntries(await recountCounters(db)));
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('splitByHour', () => {
  it.each([
    [
      { from: '2026-03-01T10:17:00.000Z', to: '2026-03-31T08:05:00.000Z' },
      {
        hours: { after: '2026-03-01T10', before: '2026-03-31T08' },
        edges: [
          { from: '2026-03-01T10:17:00.000Z', to: '2026-03-01T11:00:00.000Z' },
          { from: '2026-03-31T08:00:00.000Z', to: '2026-03-31T08:05:00.000Z' },
        ],
      },
    ],
    [{ from: '2026-03-01T21:00:00.000Z' }, { hours: { from: '2026-03-01T21' }, edges: [] }],
    [
      { from: '2026-03-01T10:17:00.000Z', to: '2026-03-01T10:59:00.000Z' },
      { hours: null, edges: [{ from: '2026-03-01T10:17:00.000Z', to: '2026-03-01T10:59:00.000Z' }] },
    ],
    [
      { from: '2026-03-01T10:00:00.000Z', to: '2026-03-02T00:00:00.000Z' },
      { hours: { from: '2026-03-01T10', before: '2026-03-02T00' }, edges: [] },
    ],
    [{ to: '2026-03-01T10:00:00.000Z' }, { hours: { before: '2026-03-01T10' }, edges: [] }],
    [
      { from: '2026-03-02T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' },
      { hours: null, edges: [] },
    ],
  ])('splits %j', (w, expected) => {
    expect(splitByHour(w)).toEqual(expected);
  });
});
