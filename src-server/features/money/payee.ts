import { forNoKeyUpdate } from '../../db/locks';
import type { UsersTable } from '../../db/schema';
import { AppError, fail } from '../../errors';
import { creditIfPayable, type Movement, type Tx } from './ledger';

export interface Payee {
  _id: string;
  role: UsersTable['role'];
  status: UsersTable['status'];
  ban_reason: string | null;
}

/**
 * The account a money move is about to pay (a reward, a withdrawal sent out), read inside that
 * move's transaction and, on PostgreSQL, locked against concurrent edits until it commits. A ban
 * is an update of the same row, so it either commits first and is seen here, or waits and lands
 * after the payment: an account is never paid once its ban committed. Throws 404 `user_not_found`
 * for a missing account, 409 `already_reviewed` for a deleted one and 409 `user_banned` (with the
 * reason) for a banned one.
 * Call it after the item's own conditional update (pending -> decided) and before the credit: the
 * item locked first, then the user's row, the order every money move and a deletion take
 * (lockHeldItems), so none waits on another in a circle. A refusal rolls the update back.
 */
export async function payableUser(tx: Tx, userId: string): Promise<Payee> {
  const query = tx
    .selectFrom('users')
    .select(['_id', 'role', 'status', 'ban_reason', 'deleted_at'])
    .where('_id', '=', userId);
  const row = await forNoKeyUpdate(tx, query).executeTakeFirst();
  if (!row) throw fail.notFound('user_not_found');
  // a deletion settles every pending item of the account in its own transaction (the row locked
  // first): once it committed, whatever is asked of this account was already decided
  if (row.deleted_at !== null) throw fail.conflict('already_reviewed');
  if (row.status === 'banned')
    throw new AppError(409, 'user_banned', undefined, { banReason: row.ban_reason });
  return { _id: row._id, role: row.role, status: row.status, ban_reason: row.ban_reason };
}

/**
 * A submission's reward paid in the caller's transaction: the credit's UPDATE carries the payee
 * check in its condition (one statement where payableUser and the credit took two), and only
 * when it pays nobody is the account read to refuse with the same errors as payableUser. Call
 * it where payableUser would be called (after the item's own conditional update).
 */
export async function payReward(tx: Tx, m: Movement): Promise<Payee> {
  const paid = await creditIfPayable(tx, m);
  if (paid) return { _id: paid._id, role: paid.role, status: paid.status, ban_reason: paid.ban_reason };
  await payableUser(tx, m.userId);
  // payableUser found it payable though the credit's condition did not: not possible inside one
  // transaction holding the row, but never pay on a doubt
  throw fail.notFound('user_not_found');
}
