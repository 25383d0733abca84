import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';

type Conn = Db | Transaction<DB>;

export function findTwoFactor(db: Conn, userId: string) {
  return db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Starts (or starts again) the setup of a secret; an account whose two-factor is already on
 * keeps its secret (false).
 */
export async function savePendingSecret(
  db: Conn,
  userId: string,
  sealed: string,
  now: string,
): Promise<boolean> {
  const res = await db
    .insertInto('two_factor')
    .values({ user_id: userId, secret: sealed, enabled_at: null, last_step: null, created_at: now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret: sealed, created_at: now, last_step: null })
        .where('two_factor.enabled_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Turns on the pending secret, with the step of the code that confirmed it; false when already on. */
export async function enableTwoFactor(db: Conn, userId: string, now: string, step: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor')
    .set({ enabled_at: now, last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Takes a code's step for the account: only a step after the last one taken, so a code is
 * accepted once, by one request, whichever node it reaches (one conditional UPDATE).
 */
export async function takeStep(db: Conn, userId: string, step: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function replaceRecoveryCodes(db: Conn, userId: string, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** Uses a recovery code up; false when it is unknown or already used (one conditional UPDATE). */
export async function spendRecoveryCode(
  db: Conn,
  userId: string,
  hash: string,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function unusedRecoveryCodes(db: Conn, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the account's second factor and its recovery codes; false when it had none. */
export async function deleteTwoFactor(db: Conn, userId: string): Promise<boolean> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  const res = await db.deleteFrom('two_factor').where('user_id', '=', userId).executeTakeFirst();
  return res.numDeletedRows > 0n;
}
