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
 * placeholder (status 0) is replaced by the reply before the commit, or rolled back with the
 * work; only a many-transaction run (runClaimed) commits it first and replaces it at its end.
 */
export async function claimKey(tx: Conn, scope: IdempotencyScope, now: string): Promise<boolean> {
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
  tx: Conn,
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

/** A failed many-transaction run's claim removed, so the request may be sent again. */
export async function releaseClaim(db: Conn, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency')
    .where('user_id', '=', scope.userId)
    .where('key', '=', scope.key)
    .where('status', '=', 0)
    .execute();
}

/**
 * A claim whose run died with its node, taken over by a request for the same route: true when
 * this request won it (the claim still the one read, now stamped `now`).
 */
export async function takeOverClaim(tx: Conn, scope: IdempotencyScope, claimedAt: string, now: string) {
  const result = await tx
    .updateTable('idempotency')
    .set({ created_at: now })
    .where('user_id', '=', scope.userId)
    .where('key', '=', scope.key)
    .where('route', '=', scope.route)
    .where('status', '=', 0)
    .where('created_at', '=', claimedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
