import type { Db } from '../../db/database';

/** Stores an open token's digest. */
export async function insertSetupToken(db: Db, digest: string, createdAt: string): Promise<void> {
  await db.insertInto('setup_tokens').values({ digest, created_at: createdAt }).execute();
}

/** Whether a token of this digest is open. */
export async function setupTokenExists(db: Db, digest: string): Promise<boolean> {
  const row = await db
    .selectFrom('setup_tokens')
    .select('digest')
    .where('digest', '=', digest)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether any token is open. */
export async function anySetupToken(db: Db): Promise<boolean> {
  return (await db.selectFrom('setup_tokens').select('digest').limit(1).executeTakeFirst()) !== undefined;
}

/** Deletes the token of this digest; whether it was open (so of two users, one finds it). */
export async function deleteSetupToken(db: Db, digest: string): Promise<boolean> {
  const res = await db.deleteFrom('setup_tokens').where('digest', '=', digest).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Deletes every open token. */
export async function deleteSetupTokens(db: Db): Promise<void> {
  await db.deleteFrom('setup_tokens').execute();
}
