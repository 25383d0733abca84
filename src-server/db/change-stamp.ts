import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './dialect';

// biome-ignore lint/suspicious/noExplicitAny: a connection of any schema
type Conn = Kysely<any>;

// total_changes(): every row this connection inserted, updated or deleted since it opened (a
// rolled-back change included); data_version: moves when another connection (a second node, the
// command line, a sqlite3 shell) commits to the file. Together they change with every write.
export const SQLITE_STAMP_SQL =
  'select total_changes() as c, (select data_version from pragma_data_version) as v';
const STAMP = CompiledQuery.raw(SQLITE_STAMP_SQL);

/**
 * The SQLite stamp's row, read at once without the driver's queue; registered by database.ts for
 * the handles it opens. It is the stamp of what is committed, which is what the reads outside a
 * transaction see (they have a connection of their own): read from the writing connection when
 * it is between transactions, and while one is open (no other process can commit then) the one
 * read after the last commit. It skips the query builder and its promises on every request that
 * reads a remembered answer.
 */
type DirectStamp = () => { c: number; v: number; left: number };
const directStamps = new WeakMap<object, DirectStamp>();

export function readStampDirectly(db: Conn, read: DirectStamp): void {
  directStamps.set(db, read);
}

// PostgreSQL's snapshot of the statement: the transactions it counts as finished (every id
// below xmax but the ones still running, listed). Two snapshots that read the same finished
// the same set of transactions, so they see the same rows: no commit, from any connection of any
// node, happened between them. Pooled connections commit in any order, which is why no counter
// of our own would do; the snapshot lists exactly the ones still open.
const PG_SNAPSHOT = 'pg_current_snapshot()::text';
const PG_STAMP = CompiledQuery.raw(`select ${PG_SNAPSHOT} as s`);

// Rows the heartbeat batch changed through each opened SQLite database (its root handle): left
// out of the stamp, so a second's heartbeats do not make every remembered read read again. The
// only remembered read holding those columns (the signed-in session: users.last_active,
// sessions.last_seen_at) has them brought up to date by the activity writer's own record of
// what it queued (features/users/activity.ts), and no rule reads them.
const leftOut = new WeakMap<object, number>();

/** The rows left out of `db`'s stamp so far (SQLite). */
export function leftOutOfStamp(db: Conn): number {
  return leftOut.get(db) ?? 0;
}

/**
 * Leaves `changes` rows, changed through `db` (the root handle the stamp is read with) inside the
 * transaction that makes them, out of its change stamp. SQLite only: PostgreSQL's stamp is its
 * snapshot, which any commit moves.
 */
export function leaveOutOfStamp(db: Conn, changes: number): void {
  if (changes > 0 && dialectOf(db) === 'sqlite') leftOut.set(db, (leftOut.get(db) ?? 0) + changes);
}

/**
 * A value that differs after any write to the database, from this process or another, read in one
 * statement that touches no table: a read remembered under a stamp is still the database's answer
 * while the stamp is the same. A read made after the stamp was taken may be remembered under it
 * (it can only be newer; if anything committed in between, the next stamp differs). Null inside a
 * PostgreSQL transaction: nothing is remembered there.
 */
export async function changeStamp(db: Conn): Promise<string | null> {
  if (dialectOf(db) === 'sqlite') {
    const direct = directStamps.get(db)?.();
    if (direct) return `${direct.c - direct.left}:${direct.v}`;
    const row = (await db.executeQuery<{ c: number; v: number }>(STAMP)).rows[0];
    return row ? `${row.c - (leftOut.get(db) ?? 0)}:${row.v}` : null;
  }
  if (db.isTransaction) return null;
  return sharedSnapshot(db);
}

interface SnapshotReads {
  /** the statement sent last, until it answers */
  running: Promise<string | null> | null;
  /** the next one, shared by every request that arrived while `running` was out */
  next: Promise<string | null> | null;
}
const snapshotReads = new WeakMap<object, SnapshotReads>();

/**
 * PostgreSQL's stamp, one statement shared by the requests that want it at the same time. A
 * request may use a snapshot only if it was taken after the request began (so that a write that
 * answered before is seen). A statement already sent may have been taken before, so a request
 * that arrives while one is out waits for the next, which is sent when that one answers and
 * shared by every request that arrived in between: each of them began before it was sent. Under
 * load the requests of a round trip cost one statement instead of one each; alone, a request
 * costs what it did.
 */
function sharedSnapshot(db: Conn): Promise<string | null> {
  let state = snapshotReads.get(db);
  if (state === undefined) {
    state = { running: null, next: null };
    snapshotReads.set(db, state);
  }
  const { running } = state;
  if (running === null) return sendSnapshotRead(db, state);
  if (state.next !== null) return state.next;
  const shared = state;
  const settled = () => {
    shared.next = null;
    return sendSnapshotRead(db, shared);
  };
  const next = running.then(settled, settled);
  shared.next = next;
  return next;
}

function sendSnapshotRead(db: Conn, state: SnapshotReads): Promise<string | null> {
  const read = db.executeQuery<{ s: string }>(PG_STAMP).then(({ rows }) => rows[0]?.s ?? null);
  state.running = read;
  // cleared before any request waiting on it runs (its callbacks were added after this one)
  const done = () => {
    if (state.running === read) state.running = null;
  };
  read.then(done, done);
  return read;
}

/**
 * Reads remembered under the change stamp, per key (the oldest leaves first past `max` keys): a
 * remembered answer is given only while no write reached the database since it was read. One
 * instance per opened database (the app's deps), so two apps in one process never share one. A
 * null stamp (PostgreSQL) reads every time.
 */
export class StampedReads<V> {
  private readonly known = new Map<string, { stamp: string; value: V }>();

  constructor(private readonly max: number) {}

  /**
   * `stamp`: read once for the request (changeStamp) before any of its reads, so several reads
   * cost one stamp; a value read after the stamp is the database's answer at least as new as it.
   */
  async get(key: string, stamp: string | null, read: () => Promise<V>): Promise<V> {
    if (stamp === null) return read();
    const hit = this.known.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await read();
    this.known.delete(key);
    if (this.known.size >= this.max) this.known.delete(this.known.keys().next().value as string);
    this.known.set(key, { stamp, value });
    return value;
  }
}
