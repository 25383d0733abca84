import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './dialect';

// biome-ignore lint/suspicious/noExplicitAny: a connection of any schema
type Conn = Kysely<any>;

// total_changes(): every row this connection inserted, updated or deleted since it opened (a
// rolled-back change included); data_version: moves when another connection (a second node, the
// command line, a sqlite3 shell) commits to the file. Together they change with every write.
const STAMP = CompiledQuery.raw(
  'select total_changes() as c, (select data_version from pragma_data_version) as v',
);

/**
 * A value that differs after any write to the database, from this process or another, read in one
 * statement that touches no table: a read remembered under a stamp is still the database's answer
 * while the stamp is the same. Null on PostgreSQL, whose pooled connections commit out of order
 * with any such counter: nothing may be remembered there.
 */
export async function changeStamp(db: Conn): Promise<string | null> {
  if (dialectOf(db) !== 'sqlite') return null;
  const { rows } = await db.executeQuery<{ c: number; v: number }>(STAMP);
  const row = rows[0];
  return row ? `${row.c}:${row.v}` : null;
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
