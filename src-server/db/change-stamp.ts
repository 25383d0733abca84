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
 * Reads remembered under the change stamp, per database and key (the oldest leaves first past
 * `max` keys): a remembered answer is given only while no write reached the database since it
 * was read. On PostgreSQL every call reads.
 */
export class StampedReads<V> {
  private readonly byDb = new WeakMap<Conn, Map<string, { stamp: string; value: V }>>();

  constructor(private readonly max: number) {}

  /** `stamp`: one already read for this request (several reads then cost one stamp). */
  async get(db: Conn, key: string, read: () => Promise<V>, stamp?: string | null): Promise<V> {
    if (stamp === undefined) stamp = await changeStamp(db);
    if (stamp === null) return read();
    let known = this.byDb.get(db);
    const hit = known?.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await read();
    if (!known) {
      known = new Map();
      this.byDb.set(db, known);
    }
    known.delete(key);
    if (known.size >= this.max) known.delete(known.keys().next().value as string);
    known.set(key, { stamp, value });
    return value;
  }
}
