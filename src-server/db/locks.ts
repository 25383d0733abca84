import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Locks for the few places that read and then decide (docs/decisions.md, "PostgreSQL"). On SQLite
 * every transaction already holds the only write lock (BEGIN IMMEDIATE on one connection), so
 * each helper does nothing there; on PostgreSQL (READ COMMITTED) they take the lock.
 */

/** A stable 64-bit advisory-lock key for a name: the first 8 bytes of its MD5, computed in SQL. */
function lockKey(name: string) {
  return sql<string>`('x' || substr(md5(${`taskreward:${name}`}), 1, 16))::bit(64)::bigint`;
}

/**
 * Serialises the transactions that pass the same name until they commit (write skew guards:
 * "the last admin", the settings merge, the first admin). Call inside a transaction.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export async function lockForTransaction(tx: Kysely<any>, name: string): Promise<void> {
  if (!isPostgres(tx)) return;
  await sql`select pg_advisory_xact_lock(${lockKey(name)})`.execute(tx);
}

/**
 * Runs `fn` only if no other node is running a job of this name (a scheduled sweep, the proof
 * backfill, the start-up clean-up); returns null when another holds it. The lock is a session
 * lock on a connection kept for the duration, so it is released when the node dies.
 */
export async function withJobLock<T>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema
  db: Kysely<any>,
  name: string,
  fn: () => Promise<T>,
): Promise<T | null> {
  if (!isPostgres(db)) return fn();
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${lockKey(name)}) as ok`.execute(conn);
    if (!got.rows[0]?.ok) return null;
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${lockKey(name)})`.execute(conn);
    }
  });
}

/**
 * Like withJobLock, but waits for the lock instead of giving up (start-up work every node must see
 * done once: the bootstrap admin).
 */
export async function withStartupLock<T>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema
  db: Kysely<any>,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (!isPostgres(db)) return fn();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${lockKey(name)})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${lockKey(name)})`.execute(conn);
    }
  });
}

/**
 * `FOR UPDATE` on PostgreSQL, nothing on SQLite: a row read inside a transaction that later
 * decides on it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a select query builder of any shape
export function forUpdate<Q extends { forUpdate(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * `FOR NO KEY UPDATE` on PostgreSQL, nothing on SQLite: the lock an UPDATE of the row's ordinary
 * columns takes, taken early so the row read is the one the transaction decides on (a payee's
 * status) while another's KEY SHARE hold of the row (holdLiveUser) does not wait for it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a select query builder of any shape
export function forNoKeyUpdate<Q extends { forNoKeyUpdate(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forNoKeyUpdate() : query;
}

/**
 * `FOR KEY SHARE` on PostgreSQL, nothing on SQLite: the row must stay (not be deleted or have its
 * key changed, nor be locked FOR UPDATE by a deletion) until this transaction ends, while ordinary
 * updates of it (a balance) go on.
 */
// biome-ignore lint/suspicious/noExplicitAny: a select query builder of any shape
export function forKeyShare<Q extends { forKeyShare(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forKeyShare() : query;
}
