import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { dialectOf } from './dialect';

// biome-ignore lint/suspicious/noExplicitAny: a connection of any schema
type Conn = Kysely<any>;

// total_changes(): every row this connection inserted, updated or deleted since it opened (a
// rolled-back change included); data_version: moves when another connection (a second node, the
// command line, a sqlite3 shell) commits to the file. Together they change with every write.
const STAMP = CompiledQuery.raw(
  'select total_changes() as c, (select data_version from pragma_data_version) as v',
);

// PostgreSQL's snapshot of the statement: the transactions it counts as finished (every id
// below xmax but the ones still running, listed). Two snapshots that read the same finished
// the same set of transactions, so they see the same rows: no commit, from any connection of any
// node, happened between them. Pooled connections commit in any order, which is why no counter
// of our own would do; the snapshot lists exactly the ones still open.
const PG_SNAPSHOT = 'pg_current_snapshot()::text';
const PG_STAMP = CompiledQuery.raw(`select ${PG_SNAPSHOT} as s`);

/**
 * Whether this handle's reads can be remembered under a stamp. Not inside a transaction on
 * PostgreSQL: its own uncommitted writes do not move its snapshot.
 */
function stampable(db: Conn): boolean {
  return dialectOf(db) === 'sqlite' || !db.isTransaction;
}

// Rows the heartbeat batch changed through each opened SQLite database (its root handle): left
// out of the stamp, so a second's heartbeats do not make every remembered read read again. The
// only remembered read holding those columns (the signed-in session: users.last_active,
// sessions.last_seen_at) has them brought up to date by the activity writer's own record of
// what it queued (features/users/activity.ts), and no rule reads them.
const leftOut = new WeakMap<object, number>();

/**
 * Leaves `changes` rows, just committed by `db` (the root handle the stamp is read with), out of
 * its change stamp. SQLite only: PostgreSQL's stamp is its snapshot, which any commit moves.
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
    const { rows } = await db.executeQuery<{ c: number; v: number }>(STAMP);
    const row = rows[0];
    return row ? `${row.c - (leftOut.get(db) ?? 0)}:${row.v}` : null;
  }
  if (db.isTransaction) return null;
  const { rows } = await db.executeQuery<{ s: string }>(PG_STAMP);
  return rows[0]?.s ?? null;
}

/**
 * A column a statement can carry so that it brings its own stamp (PostgreSQL: the snapshot it
 * ran under, the exact one its rows come from) and spares the request a round trip for it.
 * Null on SQLite, whose stamp is a call inside the process, and in a transaction.
 */
export function stampColumn(db: Conn): RawBuilder<string | null> {
  return sql<string | null>`${sql.raw(dialectOf(db) === 'postgres' && stampable(db) ? PG_SNAPSHOT : 'null')}`;
}

/**
 * Whether reads should bring their own stamp (stampColumn) rather than cost a statement for it:
 * on PostgreSQL, where the stamp is a round trip and not a call inside the process.
 */
export function stampsInline(db: Conn): boolean {
  return dialectOf(db) === 'postgres';
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
