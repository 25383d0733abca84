import type { TaskListRow } from './tasks.repository';

/**
 * The task list's ids per filter and sort. A page is then a slice of the ids, however deep, and
 * its rows are read by id: one indexed read whose cost does not grow with the table or the page
 * number. A list is kept while the task list's version it was read under holds
 * (task-list-version.ts): every write through the task service bumps it, and so do triggers on
 * any change to a column a list filters or sorts on, from any code path or node (an approval
 * that fills a task included). On the node that wrote through the task service this cache is
 * also cleared at once. What moves a list without its version is time and the completion
 * counts: a public list is kept only until the earliest deadline among its tasks, the "most
 * popular" sort (ordered by completions, which every approval changes) for TASK_LIST_MAX_AGE_MS,
 * and any list for TASK_LIST_HELD_MS at most. A page whose task no longer matches is read again
 * (tasks.service.ts), whatever the list's age.
 */

/** How old a list ordered by completions may be when it is served, and a held task row. */
export const TASK_LIST_MAX_AGE_MS = 2000;

/**
 * How long any other list may be served while its version holds: reading a whole list again
 * costs 11 ms at 100,000 tasks, which every list paid every 2 s while the version moved only
 * with the task service's writes. Nothing is known to change a list without its version but
 * time, which the deadlines cover; a minute bounds what a change no trigger sees could hide.
 */
export const TASK_LIST_HELD_MS = 60_000;

/**
 * Browsing lists (no text search) have a bounded number of keys; searches do not, so they
 * live apart and a flood of different searches cannot push out the lists everyone reads.
 * Every sort of the unfiltered list holds every open task's id: the browsing budget keeps a
 * dozen of those at 80,000 open tasks. With room for five (400,000 ids at 76,000 open tasks),
 * visitors going through the sorts in turn pushed out each list before it came round again, and
 * every request read all the ids again (12 ms each: ~100 requests per second instead of ~8,000).
 * About 30 bytes per id for a 24-character id (30 MB when full), 8-16 more for a list a signed-in
 * worker with hidden tasks pages through (TaskIdList's positions); each list lives 2 s at most.
 */
export const TASK_LIST_LIMITS = {
  browse: { entries: 500, ids: 1_000_000 },
  search: { entries: 200, ids: 100_000 },
};

/**
 * One list's ids, read at `at` (ms), held as one string with where each id starts. A whole list
 * is every open task's id (76,000 at ten times the seeded tasks), read again whenever it may no
 * longer be served: as an array of strings each read left that many objects in the old
 * generation for the garbage collector to mark and move, and the server's full collections came
 * several times a second (a task detail cost twice its CPU while lists of that size were held).
 * One string and two typed arrays are three objects whatever the list's length.
 */
export class TaskIdList {
  private readonly text: string;
  /** where id i starts in `text`; one more entry, the end */
  private readonly starts: Uint32Array;
  /** the positions of the ids by hash (open addressing, -1 empty), made at the first page that hides ids */
  private slots?: Int32Array;
  readonly length: number;

  constructor(
    ids: readonly string[],
    readonly at: number,
  ) {
    this.length = ids.length;
    this.starts = new Uint32Array(ids.length + 1);
    let end = 0;
    for (let i = 0; i < ids.length; i++) {
      this.starts[i] = end;
      end += ids[i].length;
    }
    this.starts[ids.length] = end;
    this.text = ids.join('');
  }

  /** The id at position i. */
  id(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1]);
  }

  /** The ids from position `from` up to `to` (not included). */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.id(i));
    return out;
  }

  /** The position of `id`, or -1. */
  indexOf(id: string): number {
    const slots = this.positions();
    const mask = slots.length - 1;
    for (let s = hashOf(id, 0, id.length) & mask; ; s = (s + 1) & mask) {
      const at = slots[s];
      if (at < 0) return -1;
      if (this.holds(at, id)) return at;
    }
  }

  private holds(at: number, id: string): boolean {
    const from = this.starts[at];
    if (this.starts[at + 1] - from !== id.length) return false;
    for (let c = 0; c < id.length; c++) if (this.text.charCodeAt(from + c) !== id.charCodeAt(c)) return false;
    return true;
  }

  private positions(): Int32Array {
    if (this.slots) return this.slots;
    let size = 8;
    while (size < this.length * 2) size *= 2;
    const slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let i = 0; i < this.length; i++) {
      let s = hashOf(this.text, this.starts[i], this.starts[i + 1]) & mask;
      while (slots[s] >= 0) s = (s + 1) & mask;
      slots[s] = i;
    }
    this.slots = slots;
    return slots;
  }

  /**
   * The ids of one page and the total, leaving out `hidden` (a user's paid tasks): the page's
   * offset counts only what the user sees, found through the hidden ids' positions, so the
   * work is the page plus the hidden ids, never the ids before the page.
   */
  page(offset: number, limit: number, hidden: readonly string[]): { ids: string[]; total: number } {
    if (hidden.length === 0) return { ids: this.slice(offset, offset + limit), total: this.length };
    const skip: number[] = [];
    for (const id of hidden) {
      const at = this.indexOf(id);
      if (at >= 0) skip.push(at);
    }
    skip.sort((a, b) => a - b);
    let start = offset;
    let k = 0;
    while (k < skip.length && skip[k] <= start) {
      start++;
      k++;
    }
    const ids: string[] = [];
    for (let i = start; i < this.length && ids.length < limit; i++) {
      if (k < skip.length && skip[k] === i) k++;
      else ids.push(this.id(i));
    }
    return { ids, total: this.length - skip.length };
  }
}

/** FNV-1a over the UTF-16 units of text[from, to). */
function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let c = from; c < to; c++) h = Math.imul(h ^ text.charCodeAt(c), 0x01000193);
  return h >>> 0;
}

interface Slot {
  at: number;
  /** served while the clock is before this (ms): the list's age limit, or its first deadline */
  until: number;
  /** the task list's version it was read under (task-list-version.ts) */
  version: number;
  list: Promise<TaskIdList>;
  size: number;
}

/** A map that forgets its least recently used entries beyond a count of entries and of ids. */
class Lru {
  private readonly slots = new Map<string, Slot>();
  private ids = 0;

  constructor(private readonly limits: { entries: number; ids: number }) {}

  get(key: string): Slot | undefined {
    const slot = this.slots.get(key);
    if (slot) {
      this.slots.delete(key);
      this.slots.set(key, slot);
    }
    return slot;
  }

  set(key: string, slot: Slot): void {
    this.delete(key);
    this.slots.set(key, slot);
    this.ids += slot.size;
    for (const [oldest, old] of this.slots) {
      if (this.slots.size <= this.limits.entries && this.ids <= this.limits.ids) break;
      if (old === slot) break;
      this.delete(oldest);
    }
  }

  /** Removes the key, or only when it still holds `slot` when one is given. */
  delete(key: string, slot?: Slot): void {
    const held = this.slots.get(key);
    if (!held || (slot && held !== slot)) return;
    this.slots.delete(key);
    this.ids -= held.size;
  }

  clear(): void {
    this.slots.clear();
    this.ids = 0;
  }

  /** Forgets the lists that can no longer be served at `now`. */
  sweep(now: number): void {
    for (const [key, slot] of this.slots) if (!servable(slot, now)) this.delete(key, slot);
  }

  get size(): number {
    return this.slots.size;
  }
}

/** Read at `at`, still served at `now` (a row). */
const young = (at: number, now: number) => now - at < TASK_LIST_MAX_AGE_MS && now >= at;

/** A list still served at `now` (a clock set back serves none read after it). */
const servable = (slot: Slot, now: number) => now >= slot.at && now < slot.until;

/** At most this many task rows are kept; past it the rows are forgotten and read again. */
const MAX_ROWS = 20_000;

/**
 * Task rows read by the pages, by id, kept under the same rules as the lists (up to
 * TASK_LIST_MAX_AGE_MS, under the version they were read with, forgotten by every task write)
 * for the columns only a task write changes: a page with all its rows held reads only the live
 * columns (tasks.repository.ts TaskLiveRow) and takes the rest from here.
 */
export class TaskRowCache<Row extends { _id: string }> {
  private rows = new Map<string, { at: number; version: number; row: Row }>();
  /** Bumped by clear(): a read begun before a write does not store what it read. */
  generation = 0;

  /** The rows of every id, or null when one is missing, too old or of another version. */
  held(ids: readonly string[], now: number, version: number): Map<string, Row> | null {
    const out = new Map<string, Row>();
    for (const id of ids) {
      const held = this.rows.get(id);
      if (!held || held.version !== version || !young(held.at, now)) return null;
      out.set(id, held.row);
    }
    return out;
  }

  /** Keeps rows read at `now` under `version`, unless a write came since `generation`. */
  keep(rows: readonly Row[], now: number, version: number, generation: number): void {
    if (generation !== this.generation) return;
    if (this.rows.size + rows.length > MAX_ROWS) this.rows.clear();
    for (const row of rows) this.rows.set(row._id, { at: now, version, row });
  }

  clear(): void {
    this.rows = new Map();
    this.generation++;
  }

  /** Forgets the rows too old to be served at `now`. */
  sweep(now: number): void {
    for (const [id, held] of this.rows) if (!young(held.at, now)) this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }
}

/**
 * The lists and rows of one opened database, made once where the app is opened (bootstrap.ts)
 * and reached through the app's deps: every app built over that opening shares it, while a
 * second opening (another node, even in the same process) keeps its own, as a separate server would.
 */
export class TaskListCache {
  private readonly browse = new Lru(TASK_LIST_LIMITS.browse);
  private readonly search = new Lru(TASK_LIST_LIMITS.search);
  /** the rows of the pages (filled and read by tasks.service.ts listTasksJson) */
  readonly rows = new TaskRowCache<TaskListRow>();
  /** the clock of the last sweep (the `now` the lists are read with) */
  private swept = Number.NEGATIVE_INFINITY;
  /** performance.now() of the last list read, and the timer that forgets all once idle */
  private lastUse = 0;
  private idle?: ReturnType<typeof setTimeout>;

  /**
   * What can no longer be served is not kept: every TASK_LIST_MAX_AGE_MS of list reads the lists
   * and rows that may not be served any more are dropped, and once no list was read for that
   * long everything is (a flood of filters held up to 500,000 ids and 20,000 rows until other
   * keys pushed them out, for the rest of the server's life).
   */
  private tidy(now: number): void {
    if (now - this.swept >= TASK_LIST_MAX_AGE_MS || now < this.swept) {
      this.swept = now;
      this.browse.sweep(now);
      this.search.sweep(now);
      this.rows.sweep(now);
    }
    this.lastUse = performance.now();
    if (this.idle) return;
    const check = () => {
      const quiet = performance.now() - this.lastUse;
      if (quiet >= TASK_LIST_MAX_AGE_MS) {
        this.idle = undefined;
        this.clear();
        return;
      }
      this.idle = setTimeout(check, TASK_LIST_MAX_AGE_MS - quiet);
      this.idle.unref?.();
    };
    this.idle = setTimeout(check, TASK_LIST_MAX_AGE_MS);
    this.idle.unref?.();
  }

  /** Lists and rows held (for the tests). */
  get size(): { lists: number; rows: number } {
    return { lists: this.browse.size + this.search.size, rows: this.rows.size };
  }

  /**
   * The list of `key`, read by `load` unless one read under the same `version` is held and may
   * still be served: for up to `maxAge` ms, and never at or past the deadline `load` reported
   * (the earliest among a public list's tasks). Requests that miss together share one read.
   */
  list(
    key: string,
    searching: boolean,
    now: number,
    version: number,
    maxAge: number,
    load: () => Promise<{ ids: string[]; nextDeadline: string | null }>,
  ): Promise<TaskIdList> {
    this.tidy(now);
    const lru = searching ? this.search : this.browse;
    const held = lru.get(key);
    if (held && held.version === version && servable(held, now)) return held.list;
    const slot: Slot = {
      at: now,
      until: now + maxAge,
      version,
      size: 0,
      list: Promise.resolve(new TaskIdList([], now)),
    };
    slot.list = load().then(
      ({ ids, nextDeadline }) => {
        if (nextDeadline !== null) {
          const leaves = Date.parse(nextDeadline);
          // a deadline not read as a time keeps the list no longer than a row
          slot.until = Math.min(slot.until, Number.isNaN(leaves) ? now + TASK_LIST_MAX_AGE_MS : leaves);
        }
        // counted once known; forgotten meanwhile (a write, or a stale page) means not kept
        if (lru.get(key) === slot) {
          lru.delete(key, slot);
          slot.size = ids.length;
          lru.set(key, slot);
        }
        return new TaskIdList(ids, now);
      },
      (err: unknown) => {
        lru.delete(key, slot);
        throw err;
      },
    );
    lru.set(key, slot);
    return slot.list;
  }

  /** Forgets the list of `key` if it is still `list` (a page found it stale). */
  async drop(key: string, searching: boolean, list: TaskIdList): Promise<void> {
    const lru = searching ? this.search : this.browse;
    const held = lru.get(key);
    if (held && (await held.list) === list) lru.delete(key, held);
  }

  /** Forgets every list and row: a task was written. */
  clear(): void {
    this.browse.clear();
    this.search.clear();
    this.rows.clear();
  }
}
