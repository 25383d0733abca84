import {
  type Insertable,
  type Kysely,
  type RawBuilder,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { Db } from '../../db/database';
import { forKeyShare, forUpdate } from '../../db/locks';
import { prepared } from '../../db/prepared';
import type { DB, UsersTable } from '../../db/schema';
import { withNameSearch } from '../../db/search';

type Conn = Db | Transaction<DB>;

/** A user's row as the features read it: the money columns as plain numbers, the folded name left out. */
export type UserRow = Omit<
  UsersTable,
  'balance' | 'total_earned' | 'name_search' | 'language' | 'email_notifications'
> & {
  balance: number;
  total_earned: number;
  /** 'tr' or 'en' (contract/constants.ts MAIL_LANGUAGES) */
  language: string;
  email_notifications: number;
};

export function findUserById(db: Conn, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Inside a user's own transaction that creates something they will hold (a withdrawal, a proof,
 * an appeal, a started task): whether the account still exists, and on PostgreSQL a KEY SHARE
 * lock on its row until the transaction ends, so an admin's deletion (which locks the row FOR
 * UPDATE first: lockUserForDeletion) either sees what this one creates or comes first and
 * this one finds the account gone. On SQLite the one writer serialises them already.
 */
export async function holdLiveUser(db: Conn, userId: string): Promise<boolean> {
  return (await liveUserHeld(db, userId)).length > 0;
}

// compiled once per engine (the lock clause is PostgreSQL's only): every start, proof and
// withdrawal runs it
const liveUserHeld = prepared((db: Kysely<DB>, userId: string) =>
  forKeyShare(
    db,
    db.selectFrom('users').select('_id').where('_id', '=', userId).where('deleted_at', 'is', null),
  ),
);

/**
 * Inside a transaction that changes an account (an admin's edit): the live row, locked FOR UPDATE
 * on PostgreSQL until the transaction ends, so a deletion on another node either commits first
 * (the account is not found: nothing is written) or waits for this one and settles what it left.
 */
export function lockLiveUser(db: Conn, userId: string): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').selectAll().where('_id', '=', userId).where('deleted_at', 'is', null);
  return forUpdate(db, query).executeTakeFirst();
}

/** The deletion's first step: the user's row locked until it commits (see holdLiveUser). */
export async function lockUserForDeletion(db: Conn, userId: string): Promise<void> {
  await forUpdate(db, db.selectFrom('users').select('_id').where('_id', '=', userId)).execute();
}

export function findUserByEmail(db: Conn, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The required fields of a new account; everything optional starts empty. */
export type NewUser = Pick<
  Insertable<UsersTable>,
  '_id' | 'name' | 'email' | 'password_hash' | 'role' | 'status' | 'created_at'
> &
  Partial<Insertable<UsersTable>>;

/** A complete users row for a new account: optional fields null, updated_at = created_at. */
export function newUserRow(user: NewUser): Insertable<UsersTable> {
  return {
    ban_reason: null,
    phone: null,
    address: null,
    bio: null,
    profile_image: null,
    one_signal_id: null,
    device_id: null,
    last_active: null,
    deleted_at: null,
    updated_at: user.created_at,
    ...user,
  };
}

export async function insertUser(db: Conn, user: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(withNameSearch(user)).execute();
}

/** Changes a live account (a deleted one is never changed); false when there is none. */
export async function updateUser(db: Conn, id: string, patch: Updateable<UsersTable>): Promise<boolean> {
  // a new address is not verified, whoever changes it: the old one's proof says nothing of it
  const unverify =
    patch.email !== undefined && patch.email_verified_at === undefined
      ? {
          email_verified_at: sql<
            string | null
          >`case when email = ${patch.email} then email_verified_at else null end`,
        }
      : {};
  const result = await db
    .updateTable('users')
    .set({ ...withNameSearch(patch), ...unverify })
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function countUsers(db: Conn): Promise<number> {
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

export interface UserTotals {
  pendingBalance: number;
  completedTasks: number;
  pendingTasks: number;
}

/** Derived figures of the profile, in kuruş and counts, from the user's submissions. */
export async function userTotals(db: Conn, userId: string): Promise<UserTotals> {
  const row = await db
    .selectFrom('submissions')
    .where('user_id', '=', userId)
    .select((eb) => [
      eb.fn
        .sum<number>(eb.case().when('status', '=', 'pending').then(eb.ref('reward')).else(0).end())
        .as('pending'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'approved').then(1).else(0).end()).as('approved'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'pending').then(1).else(0).end()).as('pendingCount'),
    ])
    .executeTakeFirst();
  return {
    pendingBalance: Number(row?.pending ?? 0),
    completedTasks: Number(row?.approved ?? 0),
    pendingTasks: Number(row?.pendingCount ?? 0),
  };
}

/**
 * Records the user's activity: sets last_active to `now` when it is empty or older than
 * `notBefore`, in one conditional UPDATE, so a user's requests write at most once a minute
 * (updated_at is left alone: activity is not an edit). True when the row was written.
 */
export async function touchLastActive(
  db: Conn,
  id: string,
  now: string,
  notBefore: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ last_active: now })
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('last_active', 'is', null), eb('last_active', '<', notBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One heartbeat waiting to be written: the time to set and the age a row must be older than. */
export interface DueHeartbeat {
  id: string;
  at: string;
  notBefore: string;
}

/**
 * The due heartbeats as rows `v(id, at, not_before)` of a PostgreSQL statement: three arrays of
 * parameters, whatever the batch's size, so the statement's text is the same for every batch.
 */
export function dueHeartbeatRows(due: readonly DueHeartbeat[]): RawBuilder<unknown> {
  return sql`unnest(${due.map((d) => d.id)}::text[], ${due.map((d) => d.at)}::text[],
    ${due.map((d) => d.notBefore)}::text[]) AS v(id, at, not_before)`;
}

/**
 * PostgreSQL: many users' last_active in one statement and one commit (touchLastActive's rule
 * for each). Rows another transaction holds (a money move on the account) are skipped, not
 * waited for, and rows are locked in key order: a batch never waits, so it cannot deadlock with
 * another node's batch. Its lock is the one an UPDATE of ordinary columns takes (NO KEY), which
 * lets rows that refer to the user (a ledger row, a submission) be inserted meanwhile. The ids
 * it wrote.
 */
export async function touchLastActiveMany(db: Conn, due: readonly DueHeartbeat[]): Promise<Set<string>> {
  if (due.length === 0) return new Set();
  const { rows } = await sql<{ _id: string }>`
    WITH due AS (
      SELECT u._id, v.at FROM users u JOIN ${dueHeartbeatRows(due)} ON u._id = v.id
      WHERE u.deleted_at IS NULL AND (u.last_active IS NULL OR u.last_active < v.not_before)
      ORDER BY u._id
      FOR NO KEY UPDATE OF u SKIP LOCKED
    )
    UPDATE users SET last_active = due.at FROM due WHERE users._id = due._id RETURNING users._id`.execute(db);
  return new Set(rows.map((r) => r._id));
}

/*
 * A balance changes only through the ledger (money/ledger.ts), which writes its row in the same
 * transaction; these are the statements it runs on the user's row, each conditional so that a
 * concurrent change makes it write nothing rather than overwrite.
 */

/** Adds kuruş to a balance (and to total_earned for a reward); false when the user does not exist. */
export async function addToBalance(
  tx: Transaction<DB>,
  userId: string,
  amount: number,
  earned: boolean,
): Promise<boolean> {
  const result = await tx
    .updateTable('users')
    .set((eb) => ({
      balance: eb('balance', '+', amount),
      ...(earned ? { total_earned: eb('total_earned', '+', amount) } : {}),
    }))
    .where('_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// One statement compiled once: an approval ran Kysely's builder for every write it made.
const addToPayable = prepared((db: Kysely<DB>, userId: string, amount: number) =>
  db
    .updateTable('users')
    .set((eb) => ({
      balance: eb('balance', '+', amount),
      total_earned: eb('total_earned', '+', amount),
    }))
    .where('_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('status', '<>', 'banned')
    .returning(['_id', 'role', 'status', 'ban_reason']),
);

/**
 * A reward added to a balance (and to total_earned) only if the account may be paid: live and
 * not banned, decided by the same statement that pays. Returns the account's role and status, or
 * undefined (nothing written) when it may not be paid or does not exist; the caller asks why.
 * On PostgreSQL the UPDATE locks the row as a read FOR NO KEY UPDATE would, and a ban committed
 * meanwhile is seen by its re-check of the condition, so a banned account is never paid.
 */
export async function addToPayableBalance(
  tx: Transaction<DB>,
  userId: string,
  amount: number,
): Promise<Pick<UsersTable, '_id' | 'role' | 'status' | 'ban_reason'> | undefined> {
  const [row] = await addToPayable(tx, userId, amount);
  return row;
}

/** Takes kuruş from a balance only if it covers them (`balance >= :x` in the same statement). */
export async function takeFromBalance(tx: Transaction<DB>, userId: string, amount: number): Promise<boolean> {
  return (await takeIfCovered(tx, userId, amount)).length === 1;
}

// compiled once: every withdrawal request runs it
const takeIfCovered = prepared((db: Kysely<DB>, userId: string, amount: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '-', amount) }))
    .where('_id', '=', userId)
    .where('balance', '>=', amount)
    .returning('_id'),
);

/**
 * Sets a balance to `next` only if it is still `previous` (and, with `liveOnly`, the account is
 * not deleted); false when either no longer holds.
 */
export async function setBalanceIfStill(
  tx: Transaction<DB>,
  userId: string,
  previous: number,
  next: number,
  liveOnly: boolean,
): Promise<boolean> {
  let query = tx.updateTable('users').set({ balance: next }).where('_id', '=', userId);
  if (liveOnly) query = query.where('deleted_at', 'is', null);
  const result = await query.where('balance', '=', previous).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
