import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import { prepared } from '../../db/prepared';
import type { DB, InboxType } from '../../db/schema';

type Conn = Db | Kysely<DB> | Transaction<DB>;

/** Who reads: an account sees its own messages and those sent to everyone since it was made. */
export interface Reader {
  _id: string;
  created_at: string;
}

export interface NewMessage {
  /** null: everyone */
  userId: string | null;
  type: InboxType;
  title?: string | null;
  message?: string | null;
  ref?: string | null;
  at: string;
}

/** One message in, inside the caller's transaction (the event's own). */
// compiled once: approvals and rejections each write one
const insertMessage = prepared(
  (
    db: Conn,
    id: string,
    userId: string | null,
    type: InboxType,
    title: string | null,
    message: string | null,
    ref: string | null,
    at: string,
  ) => db.insertInto('inbox').values({ _id: id, user_id: userId, type, title, message, ref, created_at: at }),
);

export async function addMessage(db: Conn, m: NewMessage): Promise<void> {
  await insertMessage(db, newId(), m.userId, m.type, m.title ?? null, m.message ?? null, m.ref ?? null, m.at);
}

function visible(db: Conn, reader: Reader) {
  return db
    .selectFrom('inbox as n')
    .leftJoin('inbox_reads as r', (join) =>
      join.onRef('r.inbox_id', '=', 'n._id').on('r.user_id', '=', reader._id),
    )
    .where((eb) =>
      eb.or([
        eb('n.user_id', '=', reader._id),
        eb.and([eb('n.user_id', 'is', null), eb('n.created_at', '>=', reader.created_at)]),
      ]),
    );
}

/** One page of a reader's messages, newest first, with the total and the unread count. */
export async function pageMessages(db: Db, reader: Reader, page: number, limit: number) {
  const rows = await visible(db, reader)
    .select([
      'n._id',
      'n.type',
      'n.title',
      'n.message',
      'n.ref',
      'n.created_at',
      sql<SqlBool>`r.inbox_id IS NOT NULL`.as('read'),
    ])
    .orderBy('n.created_at', 'desc')
    .orderBy('n._id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  const counts = await visible(db, reader)
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('r.inbox_id', 'is', null).then(1).else(0).end()).as('unread'),
    ])
    .executeTakeFirstOrThrow();
  return { rows, total: Number(counts.total), unread: Number(counts.unread ?? 0) };
}

/** How many of a reader's messages are unread (the bell's badge). */
export async function countUnread(db: Db, reader: Reader): Promise<number> {
  const row = await visible(db, reader)
    .where('r.inbox_id', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one message read; false when the reader cannot see it. Reading twice changes nothing. */
export async function markRead(db: Db, reader: Reader, id: string, now: string): Promise<boolean> {
  const seen = await visible(db, reader).select('n._id').where('n._id', '=', id).executeTakeFirst();
  if (!seen) return false;
  await db
    .insertInto('inbox_reads')
    .values({ inbox_id: id, user_id: reader._id, read_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'inbox_id']).doNothing())
    .execute();
  return true;
}

/** Marks every message the reader can see read; returns how many were unread. */
export async function markAllRead(db: Db, reader: Reader, now: string): Promise<number> {
  const result = await db
    .insertInto('inbox_reads')
    .columns(['inbox_id', 'user_id', 'read_at'])
    .expression(
      visible(db, reader)
        .where('r.inbox_id', 'is', null)
        .select(['n._id', sql<string>`${reader._id}`.as('user_id'), sql<string>`${now}`.as('read_at')]),
    )
    .onConflict((oc) => oc.columns(['user_id', 'inbox_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The live account whose OneSignal id this is (a custom message sent to one player). */
export async function userByPushId(db: Conn, playerId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('_id')
    .where('one_signal_id', '=', playerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?._id ?? null;
}

/** The reader's own proofs among `ids`, with their task: what a review or appeal message is about. */
export function submissionContexts(db: Conn, userId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('submissions as s')
    .innerJoin('tasks as t', 't._id', 's.task_id')
    .select(['s._id', 's.task_id', 't.title', 's.reward', 's.rejection_reason'])
    .where('s._id', 'in', [...ids])
    .where('s.user_id', '=', userId)
    .execute();
}

/** The reader's own withdrawals among `ids`: the amount a payout message is about. */
export function withdrawalContexts(db: Conn, userId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('withdrawals')
    .select(['_id', 'amount'])
    .where('_id', 'in', [...ids])
    .where('user_id', '=', userId)
    .execute();
}

/** The titles of the tasks among `ids` (a closed task's message names it). */
export function taskTitles(db: Conn, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tasks')
    .select(['_id', 'title'])
    .where('_id', 'in', [...ids])
    .execute();
}
