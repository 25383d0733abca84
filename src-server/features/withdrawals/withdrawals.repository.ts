import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { WithdrawalsTable } from '../../db/schema';
import { foldSearch } from '../../db/search';
import type { Tx } from '../money/ledger';

type Conn = Db | Tx;

export type WithdrawalRow = Omit<WithdrawalsTable, 'full_name_search'> & { user_name: string };

/**
 * Withdrawals with their user's name: the base of every withdrawal list and reply. The name is
 * a subquery on the users' key, not a join: SQLite 3.54 reads each column of a statement of two
 * tables for about half a microsecond, so the withdrawal's columns cost more through a join
 * than the lookups themselves (docs/decisions.md, "Joins on the hot paths"). Every withdrawal
 * has its user (a foreign key; accounts are never removed, only marked deleted).
 */
export function withdrawalsWithUser(db: Conn) {
  return db
    .selectFrom('withdrawals as w')
    .selectAll('w')
    .select((eb) =>
      eb
        .selectFrom('users as u')
        .select('u.name')
        .whereRef('u._id', '=', 'w.user_id')
        .$asScalar()
        .$notNull()
        .as('user_name'),
    );
}

export function findWithdrawal(db: Conn, id: string): Promise<WithdrawalRow | undefined> {
  return withdrawalsWithUser(db).where('w._id', '=', id).executeTakeFirst();
}

export function listUserWithdrawals(db: Conn, userId: string): Promise<WithdrawalRow[]> {
  return withdrawalsWithUser(db)
    .where('w.user_id', '=', userId)
    .orderBy('w.created_at', 'desc')
    .orderBy('w._id', 'desc')
    .execute();
}

/** Inserts a withdrawal with the folded holder's name the admin search reads. */
export async function insertWithdrawal(tx: Tx, row: Insertable<WithdrawalsTable>): Promise<void> {
  await tx
    .insertInto('withdrawals')
    .values({ ...row, full_name_search: foldSearch(row.full_name) })
    .execute();
}

/** The balance as it is inside the transaction (kuruş); undefined for an unknown user. */
export async function currentBalance(tx: Tx, userId: string): Promise<number | undefined> {
  const row = await tx.selectFrom('users').select('balance').where('_id', '=', userId).executeTakeFirst();
  return row ? Number(row.balance) : undefined;
}
