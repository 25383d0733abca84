import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { AccountTokensTable, DB } from '../../db/schema';

type Conn = Db | Kysely<DB> | Transaction<DB>;
type Purpose = AccountTokensTable['purpose'];

/**
 * A new one-time link of an account, and every earlier one of the same purpose made void: only
 * the latest mail's link works. Inside the transaction that queues the mail.
 */
export async function issueAccountToken(
  db: Conn,
  t: { digest: string; userId: string; purpose: Purpose; email: string; at: string; expiresAt: string },
): Promise<void> {
  await db
    .deleteFrom('account_tokens')
    .where('user_id', '=', t.userId)
    .where('purpose', '=', t.purpose)
    .execute();
  await db
    .insertInto('account_tokens')
    .values({
      digest: t.digest,
      user_id: t.userId,
      purpose: t.purpose,
      email: t.email,
      created_at: t.at,
      expires_at: t.expiresAt,
      used_at: null,
    })
    .execute();
}

/** The unused, unexpired token of this digest and purpose, without using it. */
export function findLiveToken(db: Conn, digest: string, purpose: Purpose, now: string) {
  return db
    .selectFrom('account_tokens')
    .select(['user_id', 'email'])
    .where('digest', '=', digest)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Uses the token: one conditional UPDATE, so of two requests with the same token one finds it
 * (the other gets nothing). Undefined when unknown, used or expired.
 */
export function useToken(db: Conn, digest: string, purpose: Purpose, now: string) {
  return db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('digest', '=', digest)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

/** Every token of an account of this purpose void (a reset done ends the other reset links). */
export async function voidAccountTokens(db: Conn, userId: string, purpose: Purpose): Promise<void> {
  await db
    .deleteFrom('account_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .execute();
}
