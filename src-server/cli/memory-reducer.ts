import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8 keeps the pages a collection empties in a pool for the heap to take again, and gives them
 * back to the system only after a collection that aims at memory, which it runs by itself only
 * when the process goes idle. A server under steady load is never idle that long, so its resident
 * size stays at the largest its heap has ever been (the pages, 256 KiB each, in /proc/PID/smaps):
 * 200 MB where 35-60 MB of heap is in use, in the bench. This asks for that collection while the
 * server is busy, when its RSS is over a budget: checked twice a second, at most every
 * `minGapMs`, and less often (up to `maxGapMs`) while each one gives back little, since then what
 * is resident is in use and the pause buys nothing. Over a ceiling a fifth above the budget the
 * pace is `ceilingGapMs`: under a heavy load the heap grows back by 40-60 MB in ten seconds, so
 * the pace alone would let the RSS reach that far past the budget between two collections. One
 * costs a pause of 35-85 ms on the bench's full-scale folder (docs/decisions.md "A
 * memory-reducing collection when the RSS is over budget").
 */
export interface MemoryReducerOptions {
  /** RSS above which a collection is asked for, bytes */
  budgetBytes: number;
  /** how often the RSS is looked at */
  checkMs?: number;
  /** the least time between two collections */
  minGapMs?: number;
  /** RSS above which the least time is ceilingGapMs instead, bytes (a fifth above the budget) */
  ceilingBytes?: number;
  /** the least time between two collections while the RSS is over the ceiling */
  ceilingGapMs?: number;
  /** the most time between two, however little the last ones gave back */
  maxGapMs?: number;
  /** the process's resident size now, bytes */
  rss?: () => number;
  /** runs the collection (reduceMemoryNow by default); false: this process cannot */
  reduce?: () => boolean;
  now?: () => number;
  /** told of each collection: the RSS before and after, bytes, and its pause, ms */
  onReduce?: (run: { before: number; after: number; ms: number }) => void;
}

/** A collection that frees less than this does not count as worth its pause. */
export const WORTHWHILE_BYTES = 8 * 1024 * 1024;

let memoryGc: ((options: object) => void) | null | undefined;

/**
 * V8's collection for low memory, the one that also hands the pooled pages back: `gc` with the
 * last-resort flavour. `gc` exists only with --expose-gc: unless the process was started with it,
 * the flag is set just long enough to make one context that has the function, and then unset.
 * V8 refuses a code cache made under other flags than its own, so a flag left set would make the
 * loader's cache (build/build.mjs) useless at every later start; and the app's global scope never
 * gets a `gc`. Null where V8 does not give it.
 */
function lowMemoryGc(): ((options: object) => void) | null {
  if (memoryGc !== undefined) return memoryGc;
  const given: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof given === 'function') {
    memoryGc = given as (options: object) => void;
    return memoryGc;
  }
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    memoryGc = typeof gc === 'function' ? (gc as (options: object) => void) : null;
  } catch {
    memoryGc = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return memoryGc;
}

/** Runs the collection now, on this thread (a pause of tens of milliseconds); false where V8 has none. */
export function reduceMemoryNow(): boolean {
  const gc = lowMemoryGc();
  gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return gc !== null;
}

export function startMemoryReducer(options: MemoryReducerOptions): { stop(): void } {
  const {
    budgetBytes,
    checkMs = 500,
    minGapMs = 10_000,
    ceilingBytes = budgetBytes * 1.2,
    ceilingGapMs = 2_000,
    maxGapMs = 300_000,
    rss = () => process.memoryUsage.rss(),
    reduce = reduceMemoryNow,
    now = () => performance.now(),
    onReduce,
  } = options;
  let gap = minGapMs;
  let last = Number.NEGATIVE_INFINITY;
  const timer = setInterval(() => {
    const before = rss();
    if (before <= budgetBytes) return;
    // over the ceiling the pace is shorter, unless the last collections gave back little
    const due = before > ceilingBytes && gap === minGapMs ? Math.min(ceilingGapMs, gap) : gap;
    if (now() - last < due) return;
    const started = now();
    if (!reduce()) {
      clearInterval(timer);
      return;
    }
    const ended = now();
    last = ended;
    const after = rss();
    // little given back: what is resident is in use; wait longer before the next pause
    gap = before - after >= WORTHWHILE_BYTES ? minGapMs : Math.min(gap * 2, maxGapMs);
    onReduce?.({ before, after, ms: ended - started });
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
