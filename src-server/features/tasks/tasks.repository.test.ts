import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  DIFFICULTIES,
  REWARD_RANGES,
  TASK_SORTS,
  TASK_STATUSES,
  type TaskSort,
} from '../../contract/constants';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import {
  insertTask,
  listTaskIds,
  type TaskFilter,
  taskIdsQuery,
  taskMatches,
  tasksByIds,
} from './tasks.repository';

let t: TestApp;
const now = '2026-06-01T12:00:00.000Z';
const rewards = [1, 999, 1000, 1001, 2000, 2001, 5000, 5001, 90000];

beforeAll(async () => {
  t = await createTestApp();
  let i = 0;
  for (const status of TASK_STATUSES) {
    for (const deadline of [null, '2026-06-01T11:59:59.999Z', now, '2026-06-01T12:00:00.001Z']) {
      for (const deleted of [null, '2026-05-01T00:00:00.000Z']) {
        for (let k = 0; k < 3; k++, i++) {
          await insertTask(t.deps.db, {
            _id: `t${String(i).padStart(4, '0')}`,
            title: `Görev ${i}`,
            description: 'Açıklama',
            category: CATEGORIES[i % CATEGORIES.length],
            reward: rewards[i % rewards.length],
            deadline,
            difficulty: DIFFICULTIES[i % DIFFICULTIES.length],
            status,
            max_completions: 10,
            required_proof: 'screenshot',
            task_link: null,
            estimated_time: i % 4 ? i % 7 : null,
            created_by: null,
            created_at: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z`,
            updated_at: now,
            deleted_at: deleted,
            is_featured: i % 5 === 0 ? 1 : 0,
          });
        }
      }
    }
  }
});
afterAll(() => t.dispose());

describe('taskMatches', () => {
  it('answers for every row what the SQL filter answers, filter by filter', async () => {
    const all = await t.deps.db.selectFrom('tasks').select('_id').execute();
    const rows = await tasksByIds(
      t.deps.db,
      all.map((r) => r._id),
      all.length,
    );
    expect(rows).toHaveLength(all.length);
    const filters: TaskFilter[] = [];
    for (const publicOnly of [true, false]) {
      for (const status of [undefined, ...TASK_STATUSES]) {
        for (const rewardRange of [undefined, ...REWARD_RANGES]) {
          filters.push({ publicOnly, now, status, rewardRange });
        }
      }
      for (const category of CATEGORIES) filters.push({ publicOnly, now, category });
      for (const difficulty of DIFFICULTIES)
        filters.push({ publicOnly, now, difficulty, rewardRange: '10-20' });
    }
    for (const filter of filters) {
      const inSql = new Set((await listTaskIds(t.deps.db, filter, 'newest')).ids);
      const inJs = new Set(rows.filter((row) => taskMatches(row, filter)).map((row) => row._id));
      expect(inJs, JSON.stringify(filter)).toEqual(inSql);
    }
  });
});

describe('a search within a category', () => {
  it('lists what the search over every category lists for that category, in the same order', async () => {
    const all = await t.deps.db.selectFrom('tasks').select(['_id', 'category', 'difficulty']).execute();
    const byId = new Map(all.map((r) => [r._id, r]));
    // 'go' and 'ev' are shorter than a trigram; 'v 1', 'ama' run inside words; 'anket' and
    // 'survey' are a category's words in the folded body, 'xyz' nothing
    const queries = [
      'gorev',
      'gorev 1',
      'v 1',
      'aciklama',
      'ama',
      'anket',
      'survey',
      'oyun',
      'go',
      'ev',
      'xyz',
      // LIKE's wildcards are text (the statement of a shape is compiled once, the pattern made
      // from each call's words)
      '%',
      'v_1',
    ];
    let found = 0;
    // a reward range with some queries only: the shapes are per range, the values per call
    const ranges = (q: string) => (q === 'gorev' || q === 'go' ? [undefined, ...REWARD_RANGES] : [undefined]);
    for (const q of queries) {
      for (const [publicOnly, rewardRange] of [true, false].flatMap((p) =>
        ranges(q).map((r) => [p, r] as const),
      )) {
        for (const sort of TASK_SORTS) {
          const everywhere = (await listTaskIds(t.deps.db, { publicOnly, now, q, rewardRange }, sort)).ids;
          for (const category of CATEGORIES) {
            for (const difficulty of [undefined, 'hard'] as const) {
              const filter: TaskFilter = { publicOnly, now, q, category, difficulty, rewardRange };
              const narrowed = (await listTaskIds(t.deps.db, filter, sort)).ids;
              const expected = everywhere.filter((id) => {
                const row = byId.get(id);
                return row?.category === category && (!difficulty || row.difficulty === difficulty);
              });
              expect(narrowed, JSON.stringify([q, sort, filter])).toEqual(expected);
              found += narrowed.length;
            }
          }
        }
      }
    }
    expect(found).toBeGreaterThan(1000);
  });
});

// PostgreSQL's planner chooses by the table's statistics (the bench measures its choice at
// scale); with a few dozen rows it would read the table whole. With the scans that do not need
// an ordinary index turned off, this shows the index a search within a category has there holds
// what the statement filters on: its category, difficulty, status and reward range are the
// index's conditions.
describe.runIf(testsOnPostgres)('listTaskIds on PostgreSQL', () => {
  it('can read a search within a category from tasks_search_filter', async () => {
    const filter: TaskFilter = { publicOnly: true, now, category: 'survey', difficulty: 'easy', q: 'gorev' };
    const { sql: text, parameters } = taskIdsQuery(t.deps.db, { ...filter, rewardRange: '10-20' }, 'newest');
    const plan = await t.deps.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      const res = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`EXPLAIN ${text}`, [...parameters]),
      );
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan using tasks_search_filter/);
    // the reward range is one of the index's conditions too: a range reads only its own entries
    expect(plan).toMatch(
      /Index Cond: \(\(category = .*\) AND \(difficulty = .*\) AND \(status = .*\) AND \(reward > .*\) AND \(reward <= /,
    );
  });
});

// SQLite's query plans; PostgreSQL's planner chooses by the table's statistics (the bench
// measures it there)
describe.skipIf(testsOnPostgres)('listTaskIds', () => {
  it.each(TASK_SORTS)('reads the ids of sort %s from its own index alone, with no sorting', async (sort) => {
    const filter: TaskFilter = { publicOnly: true, now, category: 'survey', rewardRange: '20-50' };
    const { sql: text, parameters } = taskIdsQuery(t.deps.db, filter, sort);
    const plan = t.database
      .sqlite!.prepare(`EXPLAIN QUERY PLAN ${text}`)
      .all(...parameters)
      .map((r) => (r as { detail: string }).detail)
      .join('; ');
    expect(plan).toContain(`USING COVERING INDEX tasks_order_${sort}`);
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('starts a search from the full-text matches, then reads each match by rowid', () => {
    const filter: TaskFilter = { publicOnly: true, now, difficulty: 'easy', q: 'gorev' };
    const { sql: text, parameters } = taskIdsQuery(t.deps.db, filter, 'newest');
    const plan = t.database
      .sqlite!.prepare(`EXPLAIN QUERY PLAN ${text}`)
      .all(...parameters)
      .map((r) => (r as { detail: string }).detail);
    expect(plan[0]).toMatch(/^SCAN tasks_fts VIRTUAL TABLE/);
    expect(plan[1]).toMatch(/^SEARCH tasks USING INTEGER PRIMARY KEY/);
  });

  it.each([
    ['public', { publicOnly: true, now }],
    ['admin, every status', { publicOnly: false, now }],
  ] as const)(
    'reads a search within a category from tasks_search_filter, not the full-text index (%s)',
    (_n, base) => {
      const filter: TaskFilter = { ...base, category: 'survey', difficulty: 'easy', q: 'gorev' };
      const planOf = (f: TaskFilter, sort: TaskSort) => {
        const { sql: text, parameters } = taskIdsQuery(t.deps.db, f, sort);
        return t.database
          .sqlite!.prepare(`EXPLAIN QUERY PLAN ${text}`)
          .all(...parameters)
          .map((r) => (r as { detail: string }).detail)
          .join('; ');
      };
      // the most popular sort reads its matches' rows (the index leaves out the count every
      // approval changes); every other sort, with every filter, reads the index alone
      const plan = planOf(filter, 'most_popular');
      expect(plan).toMatch(/^SEARCH tasks USING INDEX tasks_search_filter \(category=\? AND difficulty=\?/);
      expect(plan).not.toContain('tasks_fts');
      for (const sort of TASK_SORTS.filter((s) => s !== 'most_popular'))
        expect(planOf({ ...filter, rewardRange: '10-20' }, sort)).toMatch(
          /^SEARCH tasks USING COVERING INDEX tasks_search_filter \(category=\? AND difficulty=\?/,
        );
    },
  );

  it('ranks title matches first in a search, then featured tasks, then the sort', async () => {
    await sql`UPDATE tasks SET search_title = 'kedi', is_featured = 0 WHERE _id = 't0001'`.execute(t.deps.db);
    await sql`UPDATE tasks SET search_body = 'kedi', is_featured = 1 WHERE _id = 't0002'`.execute(t.deps.db);
    const { ids } = await listTaskIds(t.deps.db, { publicOnly: false, now, q: 'kedi' }, 'newest');
    expect(ids).toEqual(['t0001', 't0002']);
  });
});
