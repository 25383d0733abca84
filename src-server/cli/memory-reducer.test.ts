import { Script } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reduceMemoryNow, startMemoryReducer, WORTHWHILE_BYTES } from './memory-reducer';

const MB = 1024 * 1024;

// made before the reducer takes its collection: a code cache carries the V8 flags it was made under
const source = `(function cached() { return ${Math.random()}; })()`;
const cacheBefore = new Script(source).createCachedData();

describe('the memory reducer', () => {
  afterEach(() => vi.useRealTimers());

  /** A process whose RSS the test sets, and a collection that gives back `frees` bytes. */
  function world(rssMb: number, freesMb: number) {
    vi.useFakeTimers();
    const state = { rss: rssMb * MB, frees: freesMb * MB, runs: [] as number[] };
    const reducer = startMemoryReducer({
      budgetBytes: 150 * MB,
      checkMs: 1_000,
      minGapMs: 10_000,
      maxGapMs: 40_000,
      rss: () => state.rss,
      now: () => Date.now(),
      reduce: () => {
        state.runs.push(Date.now());
        state.rss -= state.frees;
        return true;
      },
    });
    /** the time from `start` to the first collection, then between each two */
    const gapsSince = (start: number) => state.runs.map((t, i) => t - (i === 0 ? start : state.runs[i - 1]));
    return { state, reducer, gapsSince };
  }

  it('does nothing while the RSS is within the budget', () => {
    const { state, reducer } = world(150, 40);
    vi.advanceTimersByTime(60_000);
    expect(state.runs).toEqual([]);
    reducer.stop();
  });

  it('collects once the RSS is over the budget, then at most every minGapMs', () => {
    const { state, reducer, gapsSince } = world(151, 0);
    const start = Date.now();
    // the heap grows back at once: over the budget (and under the ceiling) on every check
    state.frees = 40 * MB;
    const grow = setInterval(() => {
      state.rss = 170 * MB;
    }, 500);
    vi.advanceTimersByTime(35_000);
    clearInterval(grow);
    const gaps = gapsSince(start);
    expect(gaps[0]).toBe(1_000);
    expect(gaps.slice(1)).toEqual([10_000, 10_000, 10_000]);
    reducer.stop();
  });

  it('over the ceiling, collects every ceilingGapMs, and at the budget pace again below it', () => {
    const { state, reducer, gapsSince } = world(151, 40);
    const start = Date.now();
    // the heap grows back past the ceiling (180 MB) within a second of each collection
    const grow = setInterval(() => {
      state.rss = 195 * MB;
    }, 500);
    vi.advanceTimersByTime(9_000);
    clearInterval(grow);
    // then it stays between the budget and the ceiling
    const grow2 = setInterval(() => {
      state.rss = 170 * MB;
    }, 500);
    vi.advanceTimersByTime(30_000);
    clearInterval(grow2);
    const gaps = gapsSince(start);
    expect(gaps.slice(0, 5)).toEqual([1_000, 2_000, 2_000, 2_000, 2_000]);
    expect(gaps.slice(5)).toEqual([10_000, 10_000, 10_000]);
    reducer.stop();
  });

  it('over the ceiling too, waits longer after collections that give back little', () => {
    const { reducer, gapsSince } = world(250, 1);
    const start = Date.now();
    vi.advanceTimersByTime(110_000);
    const gaps = gapsSince(start);
    expect(gaps.slice(0, 4)).toEqual([1_000, 20_000, 40_000, 40_000]);
    reducer.stop();
  });

  it('waits longer after each collection that gives back little, up to maxGapMs, and keeps the pace again after one that is worth it', () => {
    const { state, reducer, gapsSince } = world(175, 1);
    const start = Date.now();
    vi.advanceTimersByTime(150_000);
    const gaps = gapsSince(start);
    // 1 s to the first check, then 20, 40 and 40 s (doubled from 10 s, capped at 40 s)
    expect(gaps.slice(0, 5)).toEqual([1_000, 20_000, 40_000, 40_000, 40_000]);
    const before = state.runs.length;
    state.frees = WORTHWHILE_BYTES;
    vi.advanceTimersByTime(40_000 + 10_000);
    // one worth its pause: the next comes 10 s later
    expect(state.runs.length - before).toBe(2);
    expect(state.runs.at(-1)! - state.runs.at(-2)!).toBe(10_000);
    reducer.stop();
  });

  it('stops for good where the process has no such collection', () => {
    vi.useFakeTimers();
    let tries = 0;
    const reducer = startMemoryReducer({
      budgetBytes: 150 * MB,
      rss: () => 200 * MB,
      now: () => Date.now(),
      reduce: () => {
        tries++;
        return false;
      },
      onReduce: () => expect.unreachable('no collection ran'),
    });
    vi.advanceTimersByTime(600_000);
    expect(tries).toBe(1);
    reducer.stop();
  });

  it('stops', () => {
    const { state, reducer } = world(200, 40);
    reducer.stop();
    vi.advanceTimersByTime(60_000);
    expect(state.runs).toEqual([]);
  });

  it("leaves V8's flags as they were: a code cache made before is still taken", () => {
    expect(reduceMemoryNow()).toBe(true);
    expect(new Script(source, { cachedData: cacheBefore }).cachedDataRejected).toBe(false);
    // and the app's code has no global gc
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it("hands the heap's emptied pages back to the system, which a plain collection keeps", () => {
    // a real collection in this process: 1.5 million small objects (~200 MB of heap) let go; V8
    // keeps the pages its ordinary collections empty, and only this one returns them
    const base = process.memoryUsage.rss();
    let garbage: unknown[] | null = [];
    for (let i = 0; i < 1_500_000; i++) garbage.push({ a: i, b: `x${i}`, c: [i] });
    const full = process.memoryUsage.rss();
    expect(full - base).toBeGreaterThan(120 * MB);
    garbage = null;
    expect(reduceMemoryNow()).toBe(true);
    const after = process.memoryUsage.rss();
    expect(garbage).toBeNull();
    expect(full - after).toBeGreaterThan(100 * MB);
  });
});
