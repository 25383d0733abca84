import type { Db } from '../../db/database';
import { forUpdate } from '../../db/locks';
import type { Tx } from '../money/ledger';

type Conn = Db | Tx;

/** What a user still holds: the balance, and the ids of their pending withdrawals, proofs and appeals. */
export async function heldByUser(db: Conn, userId: string) {
  const user = await db.selectFrom('users').select('balance').where('_id', '=', userId).executeTakeFirst();
  const withdrawals = await db
    .selectFrom('withdrawals')
    .select(['_id', 'amount'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
  const submissions = await db
    .selectFrom('submissions')
    .select(['_id', 'task_id'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
  const appeals = await db
    .selectFrom('appeals')
    .select('submission_id')
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
  return { balance: Number(user?.balance ?? 0), withdrawals, submissions, appeals };
}

/** The ids of a user's records in progress. */
export function userRecordsInProgress(db: Conn, userId: string) {
  return db
    .selectFrom('user_tasks')
    .select('_id')
    .where('user_id', '=', userId)
    .where('status', '=', 'in_progress')
    .execute();
}

/**
 * A deletion's first step (PostgreSQL; nothing on SQLite): the user's pending withdrawals, proofs
 * and appeals locked, before the user's row. A payout or review of one of them locks the item
 * first and then touches the user's row (a credit, or an inbox row's foreign key), so taking them
 * in the same order keeps the two from waiting on each other (a deadlock).
 */
export async function lockHeldItems(db: Conn, userId: string): Promise<void> {
  for (const table of ['withdrawals', 'submissions'] as const) {
    await forUpdate(
      db,
      db.selectFrom(table).select('_id').where('user_id', '=', userId).where('status', '=', 'pending'),
    ).execute();
  }
  await forUpdate(
    db,
    db
      .selectFrom('appeals')
      .select('submission_id')
      .where('user_id', '=', userId)
      .where('status', '=', 'pending'),
  ).execute();
}
