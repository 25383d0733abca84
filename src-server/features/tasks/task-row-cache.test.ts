import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  TASK_LIST_HELD_MS,
  TASK_LIST_LIMITS,
  TASK_LIST_MAX_AGE_MS,
  TaskIdList,
  TaskListCache,
  TaskRowCache,
} from './task-list-cache';
import type { TaskListRow } from './tasks.repository';

// The rows a list page holds: only while young, under the version they were read
// with, all or nothing for a page, and never stored by a read that a task write overtook.
type Row = { _id: string; title: string };
const rows = (...ids: string[]): Row[] => ids.map((id) => ({ _id: id, title: `t-${id}` }));
/** What a list's read reports: its ids, and no deadline among them. */
const found = (ids: string[], nextDeadline: string | null = null) => ({ ids, nextDeadline });

// A list's ids are held packed (one string, where each starts, positions by hash): its pages
// must be the pages of the plain array, hidden ids or not, whatever the ids' lengths.
describe('TaskIdList', () => {
  /** The page as the plain array gives it: the visible ids, then the window. */
  const plainPage = (ids: string[], offset: number, limit: number, hidden: string[]) => {
    const gone = new Set(hidden);
    const visible = ids.filter((id) => !gone.has(id));
    return { ids: visible.slice(offset, offset + limit), total: visible.length };
  };

  it('pages as the plain array does, with and without hidden ids', () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let trial = 0; trial < 40; trial++) {
      const n = next() % 300;
      // ids of several lengths and alphabets, the app's 24 hex characters among them
      const ids = Array.from({ length: n }, (_, i) =>
        i % 3 === 0
          ? (next().toString(16) + next().toString(16) + next().toString(16)).slice(0, 24)
          : `t${i}-ğüş${i % 7 ? 'x' : ''}`,
      );
      const list = new TaskIdList(ids, 0);
      expect(list.length).toBe(n);
      const hidden = [
        ...ids.filter(() => next() % 4 === 0),
        'not-in-the-list',
        ids[0] ? `${ids[0]}x` : 'x',
        ids[0] ? ids[0].slice(0, -1) : '',
      ];
      for (const [offset, limit] of [
        [0, 20],
        [next() % Math.max(1, n), 20],
        [Math.max(0, n - 5), 20],
        [n + 10, 20],
      ]) {
        expect(list.page(offset, limit, [])).toEqual(plainPage(ids, offset, limit, []));
        expect(list.page(offset, limit, hidden)).toEqual(plainPage(ids, offset, limit, hidden));
      }
      for (const [i, id] of ids.entries()) expect(list.indexOf(id)).toBe(i);
    }
  });

  it('finds any of 100,000 ids by its position', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => i.toString(16).padStart(24, '0'));
    const list = new TaskIdList(ids, 0);
    for (const i of [0, 1, 4_095, 65_536, 99_999]) expect(list.indexOf(ids[i])).toBe(i);
    expect(list.indexOf('f'.repeat(24))).toBe(-1);
    expect(list.page(20, 3, [ids[0], ids[21], ids[99_999]])).toEqual({
      ids: [ids[22], ids[23], ids[24]],
      total: 99_997,
    });
  });
});

describe('TaskRowCache', () => {
  it('gives a page its rows only when every one is held, young and of the same version', () => {
    const cache = new TaskRowCache<Row>();
    cache.keep(rows('a', 'b'), 1_000, 7, cache.generation);
    expect([...(cache.held(['a', 'b'], 1_000 + TASK_LIST_MAX_AGE_MS - 1, 7) ?? new Map()).keys()]).toEqual([
      'a',
      'b',
    ]);
    expect(cache.held(['a', 'c'], 1_500, 7)).toBeNull();
    expect(cache.held(['a', 'b'], 1_000 + TASK_LIST_MAX_AGE_MS, 7)).toBeNull();
    expect(cache.held(['a', 'b'], 1_500, 8)).toBeNull();
    // a clock that went back does not make old rows young
    expect(cache.held(['a'], 999, 7)).toBeNull();
  });

  it('does not keep what a read begun before a task write brought back', () => {
    const cache = new TaskRowCache<Row>();
    const before = cache.generation;
    cache.clear(); // a task write while the read was in flight
    cache.keep(rows('a'), 1_000, 0, before);
    expect(cache.held(['a'], 1_000, 0)).toBeNull();
    cache.keep(rows('a'), 1_000, 0, cache.generation);
    expect(cache.held(['a'], 1_000, 0)?.get('a')?.title).toBe('t-a');
    cache.clear();
    expect(cache.held(['a'], 1_000, 0)).toBeNull();
  });

  it('holds at most 20,000 rows: past that it forgets them all and starts again', () => {
    const cache = new TaskRowCache<Row>();
    const many = rows(...Array.from({ length: 19_990 }, (_, i) => `r${i}`));
    cache.keep(many, 1_000, 0, cache.generation);
    expect(cache.held(['r0', 'r19989'], 1_000, 0)).not.toBeNull();
    cache.keep(rows(...Array.from({ length: 20 }, (_, i) => `s${i}`)), 1_000, 0, cache.generation);
    expect(cache.held(['r0'], 1_000, 0)).toBeNull();
    expect(cache.held(['s0', 's19'], 1_000, 0)).not.toBeNull();
  });
});

describe('TaskListCache keeps only what it can still serve', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('drops the lists and rows past the max age as lists are read', async () => {
    const cache = new TaskListCache();
    for (let f = 0; f < 50; f++)
      await cache.list(`q=${f}`, true, 1_000, 0, TASK_LIST_MAX_AGE_MS, async () => found(ids(100, `f${f}-`)));
    await cache.list('newest', false, 1_000, 0, TASK_LIST_MAX_AGE_MS, async () => found(ids(20, 'n')));
    cache.rows.keep(rows(...ids(20, 'n')) as unknown as TaskListRow[], 1_000, 0, cache.rows.generation);
    expect(cache.size).toEqual({ lists: 51, rows: 20 });
    // still young: nothing goes
    await cache.list('newest', false, 1_000 + TASK_LIST_MAX_AGE_MS - 1, 0, TASK_LIST_MAX_AGE_MS, async () =>
      found(ids(20, 'n')),
    );
    expect(cache.size).toEqual({ lists: 51, rows: 20 });
    // one read past the max age: the old lists and rows go, the one just read stays
    const fresh = await cache.list(
      'oldest',
      false,
      1_000 + TASK_LIST_MAX_AGE_MS,
      0,
      TASK_LIST_MAX_AGE_MS,
      async () => found(ids(20, 'o')),
    );
    expect(cache.size).toEqual({ lists: 1, rows: 0 });
    expect(fresh.page(0, 2, []).ids).toEqual(['o0', 'o1']);
  });

  it('forgets everything once no list was read for the max age', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cache = new TaskListCache();
    let reads = 0;
    const load = async () => {
      reads++;
      return found(ids(20, 'n'));
    };
    await cache.list('newest', false, 5_000, 0, TASK_LIST_MAX_AGE_MS, load);
    cache.rows.keep(rows(...ids(20, 'n')) as unknown as TaskListRow[], 5_000, 0, cache.rows.generation);
    vi.advanceTimersByTime(TASK_LIST_MAX_AGE_MS / 2);
    await cache.list('newest', false, 5_000, 0, TASK_LIST_MAX_AGE_MS, load); // still served from the cache
    expect(reads).toBe(1);
    vi.advanceTimersByTime(TASK_LIST_MAX_AGE_MS - 1);
    expect(cache.size).toEqual({ lists: 1, rows: 20 }); // a read came 1 s ago
    vi.advanceTimersByTime(TASK_LIST_MAX_AGE_MS);
    expect(cache.size).toEqual({ lists: 0, rows: 0 });
    await cache.list('newest', false, 5_000, 0, TASK_LIST_MAX_AGE_MS, load);
    expect(reads).toBe(2);
  });
});

describe('TaskListCache keeps a list while its version holds, up to its age and its first deadline', () => {
  const counting = () => {
    const reads = { n: 0 };
    const load = (deadline: string | null) => async () => {
      reads.n++;
      return found(['a', 'b'], deadline);
    };
    return { reads, load };
  };

  it('serves a list for its max age under one version, and reads it again under another', async () => {
    const cache = new TaskListCache();
    const { reads, load } = counting();
    const at = 10_000;
    await cache.list('newest', false, at, 7, TASK_LIST_HELD_MS, load(null));
    await cache.list('newest', false, at + TASK_LIST_HELD_MS - 1, 7, TASK_LIST_HELD_MS, load(null));
    expect(reads.n).toBe(1);
    await cache.list('newest', false, at + TASK_LIST_HELD_MS - 1, 8, TASK_LIST_HELD_MS, load(null));
    expect(reads.n).toBe(2);
    // read again at its max age, and after a clock set back
    const later = at + 2 * TASK_LIST_HELD_MS;
    await cache.list('newest', false, later, 8, TASK_LIST_HELD_MS, load(null));
    await cache.list('newest', false, later - 1, 8, TASK_LIST_HELD_MS, load(null));
    expect(reads.n).toBe(4);
    // a shorter age (the most popular sort) is its own
    await cache.list('popular', false, later, 8, TASK_LIST_MAX_AGE_MS, load(null));
    await cache.list('popular', false, later + TASK_LIST_MAX_AGE_MS, 8, TASK_LIST_MAX_AGE_MS, load(null));
    expect(reads.n).toBe(6);
  });

  it('reads a list again once the earliest deadline among its tasks has come', async () => {
    const cache = new TaskListCache();
    const { reads, load } = counting();
    const at = Date.UTC(2026, 5, 1, 12);
    const deadline = new Date(at + 5_000).toISOString();
    await cache.list('newest', false, at, 1, TASK_LIST_HELD_MS, load(deadline));
    await cache.list('newest', false, at + 4_999, 1, TASK_LIST_HELD_MS, load(deadline));
    expect(reads.n).toBe(1);
    await cache.list('newest', false, at + 5_000, 1, TASK_LIST_HELD_MS, load(null));
    expect(reads.n).toBe(2);
    // a deadline that is not a time keeps the list no longer than a row
    await cache.list('odd', false, at, 1, TASK_LIST_HELD_MS, load('yarın'));
    await cache.list('odd', false, at + TASK_LIST_MAX_AGE_MS, 1, TASK_LIST_HELD_MS, load(null));
    expect(reads.n).toBe(4);
  });
});

describe('TaskListCache at 80,000 open tasks', () => {
  it('keeps every sort of the whole list while visitors go through them in turn', async () => {
    const cache = new TaskListCache();
    const whole = Array.from({ length: 80_000 }, (_, i) => `task-${i}`);
    const sorts = [
      'newest',
      'oldest',
      'highest_reward',
      'lowest_reward',
      'most_popular',
      'deadline',
      'easy',
      'hard',
    ];
    let reads = 0;
    for (let turn = 0; turn < 3; turn++)
      for (const sort of sorts) {
        const list = await cache.list(sort, false, 1_000 + turn, 0, TASK_LIST_MAX_AGE_MS, async () => {
          reads++;
          return found(whole);
        });
        expect(list.page(0, 20, []).total).toBe(80_000);
      }
    // each list read once: before, the budget held five of them, and each turn pushed out the
    // one that came next, so every request read its list again
    expect(reads).toBe(sorts.length);
    expect(TASK_LIST_LIMITS.browse.ids).toBeGreaterThanOrEqual(12 * 80_000);
  });
});
