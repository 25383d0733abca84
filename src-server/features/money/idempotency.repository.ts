import type { Db } from '../../db/database';
import type { IdempotencyTable } from '../../db/schema';
import type { Tx } from './ledger';

type Conn = Db | Tx;

export interface IdempotencyScope {
  userId: string;
  key: string;
  /** the request it answers: method, path and a fingerprint of the body */
  route: string;
}

export function findReply(db: Conn, userId: string, key: string): Promise<IdempotencyTable | undefined> {
  return db
    .selectFrom('idempotency')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Claims the key inside the caller's transaction; false when it is already taken. The
 * placeholder (status 0) is never seen by others: it is replaced before the commit, or
 * rolled back with the work.
 */
export async function claimKey(tx: Tx, scope: IdempotencyScope, now: string): Promise<boolean> {
  const result = await tx
    .insertInto('idempotency')
    .values({
      user_id: scope.userId,
      key: scope.key,
      route: scope.route,
      status: 0,
      body: '',
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function storeReply(
  tx: Tx,
  scope: IdempotencyScope,
  status: number,
  body: string,
): Promise<void> {
  await tx
    .updateTable('idempotency')
    .set({ status, body })
    .where('user_id', '=', scope.userId)
    .where('key', '=', scope.key)
    .execute();
}
