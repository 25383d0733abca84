import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { PayoutAccountsTable } from '../../db/schema';
import type { Tx } from '../money/ledger';

type Conn = Db | Tx;

export type PayoutAccountRow = Selectable<PayoutAccountsTable>;

export function findPayoutAccount(db: Conn, userId: string): Promise<PayoutAccountRow | undefined> {
  return db.selectFrom('payout_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Remembers the account a withdrawal was asked to (the worker's one saved account, replaced). */
export async function savePayoutAccount(tx: Tx, row: PayoutAccountRow): Promise<void> {
  const { user_id: _user, ...rest } = row;
  await tx
    .insertInto('payout_accounts')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(rest))
    .execute();
}

/** Forgets a worker's saved account (their own choice, or their account's deletion); 1 when one was kept. */
export async function forgetPayoutAccount(db: Conn, userId: string): Promise<number> {
  const result = await db.deleteFrom('payout_accounts').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
