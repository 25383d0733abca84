import { describe, expect, it } from 'vitest';
import { TASK_LIST_MAX_AGE_MS, TaskRowCache } from './task-list-cache';

// The rows a list page holds (issue 14): only while young, under the version they were read
// with, all or nothing for a page, and never stored by a read that a task write overtook.
type Row = { _id: string; title: string };
const rows = (...ids: string[]): Row[] => ids.map((id) => ({ _id: id, title: `t-${id}` }));

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
