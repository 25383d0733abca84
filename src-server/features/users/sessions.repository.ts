import { type Insertable, sql, type Transaction } from 'kysely';
import { StampedReads } from '../../db/change-stamp';
import type { Db } from '../../db/database';
import { forNoKeyUpdate } from '../../db/locks';
import { prepared } from '../../db/prepared';
import type { DB, SessionsTable } from '../../db/schema';
import { type DueHeartbeat, dueHeartbeatRows, type UserRow } from './users.repository';

type Conn = Db | Transaction<DB>;

export function insertSession(db: Conn, row: Insertable<SessionsTable>): Promise<unknown> {
  return db.insertInto('sessions').values(row).execute();
}

/** What a signed-in request needs of its session, read in one statement. */
export interface SignedIn {
  user: UserRow;
  lastSeenAt: string;
  twoFactorOn: boolean;
}

/**
 * The live sessions read lately, each with the change stamp (db/change-stamp.ts) it was read
 * under: while the stamp is the same, no write of any kind reached the database, from this
 * process or another, so the session, its account and its two-factor row are as they were
 * (a ban, a role change, an ended session or a new password moves the stamp before the next
 * request reads it). One statement that touches no table instead of three primary-key lookups
 * and a wide row (on PostgreSQL one statement shared by the requests of the same moment). Made
 * once per opened database (bootstrap.ts openApp).
 */
export type SignedInReads = StampedReads<SignedIn | undefined>;
export const signedInReads = (): SignedInReads => new StampedReads(2_000);

/**
 * The live account of a live session: one statement (the account's row, its session and its
 * two-factor row, each by its primary key), so a signed-in request costs one round trip as it
 * did before sessions were rows. Undefined for an ended or foreign session or a deleted account. Expiry is
 * the token's own (its `exp`, as before sessions were rows); the row's expires_at, the same
 * time, decides what is listed and swept. `stamp`: the request's change stamp, read before.
 */
export async function findSignedIn(
  db: Conn,
  reads: SignedInReads,
  stamp: string | null,
  sessionId: string,
  userId: string,
): Promise<SignedIn | undefined> {
  const toSignedIn = (row: Awaited<ReturnType<typeof signedIn>>[number]): SignedIn | undefined => {
    const { session_seen_at, two_factor_at, ...user } = row;
    return session_seen_at === null
      ? undefined
      : { user, lastSeenAt: session_seen_at, twoFactorOn: two_factor_at !== null };
  };
  const found = await reads.get(`${sessionId} ${userId}`, stamp, async () => {
    const [row] = await signedIn(db, sessionId, userId);
    return row && toSignedIn(row);
  });
  // a copy: the request may change its user object, the next one must not see that
  return found && { ...found, user: { ...found.user } };
}

// compiled once per engine: every signed-in request runs it, and building the query object and
// its SQL each time cost more than SQLite's three primary-key lookups. The account's row with
// the session and the two-factor row as subqueries on their keys, not joins: SQLite 3.54 reads
// each column of a statement of two tables for about half a microsecond (a few hundredths in
// one of one table), and the account's 26 columns through the join took 30 of the 33 µs
// (docs/decisions.md, "Joins on the hot paths"). last_seen_at is never null, so a null one is
// no session of this account's.
const signedIn = prepared((db: Conn, sessionId: string, userId: string) =>
  db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => [
      eb
        .selectFrom('sessions')
        .select('sessions.last_seen_at')
        .where('sessions.id', '=', sessionId)
        .whereRef('sessions.user_id', '=', 'users._id')
        .as('session_seen_at'),
      eb
        .selectFrom('two_factor')
        .select('two_factor.enabled_at')
        .whereRef('two_factor.user_id', '=', 'users._id')
        .as('two_factor_at'),
    ])
    .where('users._id', '=', userId)
    .where('users.deleted_at', 'is', null),
);

/** Moves a session's last_seen_at to now unless it moved within the minute; true when written. */
export async function touchSession(db: Conn, id: string, now: string, notBefore: string): Promise<boolean> {
  const res = await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('id', '=', id)
    .where('last_seen_at', '<', notBefore)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * PostgreSQL: many sessions' last_seen_at in one statement (touchSession's rule for each),
 * skipping rows another transaction holds, in key order (users.repository touchLastActiveMany).
 * The ids it wrote.
 */
export async function touchSessionsMany(db: Conn, due: readonly DueHeartbeat[]): Promise<Set<string>> {
  if (due.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    WITH due AS (
      SELECT s.id, v.at FROM sessions s JOIN ${dueHeartbeatRows(due)} ON s.id = v.id
      WHERE s.last_seen_at < v.not_before
      ORDER BY s.id
      FOR NO KEY UPDATE OF s SKIP LOCKED
    )
    UPDATE sessions SET last_seen_at = due.at FROM due WHERE sessions.id = due.id RETURNING sessions.id`.execute(
    db,
  );
  return new Set(rows.map((r) => r.id));
}

/** A user's unexpired sessions, oldest first. */
export function liveSessions(db: Conn, userId: string, now: string) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Ends one session of a user; false when the user has no such session. */
export async function deleteSession(db: Conn, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** Ends every session of a user but `keep` (all of them without one); the number ended. */
export async function deleteSessionsOf(db: Conn, userId: string, keep?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id', '<>', keep);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

/** The session carries on under a new password (the one that changed it). */
export async function restampSession(db: Conn, id: string, stamp: string): Promise<void> {
  await db.updateTable('sessions').set({ password_stamp: stamp }).where('id', '=', id).execute();
}

/** Removes sessions that expired before `now`; the number removed. */
export async function deleteExpiredSessions(db: Conn, now: string): Promise<number> {
  return Number(
    (await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()).numDeletedRows,
  );
}

/**
 * Inside a transaction that ends sessions of a user from one of them: the user's row held (on
 * PostgreSQL; SQLite's one writer serialises them already), so two sessions ending each other
 * at once on two nodes go one after the other, and the second finds itself ended.
 */
export async function holdSessionsOf(db: Transaction<DB>, userId: string): Promise<void> {
  await forNoKeyUpdate(db, db.selectFrom('users').select('_id').where('_id', '=', userId)).execute();
}

export async function sessionExists(db: Conn, userId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}
