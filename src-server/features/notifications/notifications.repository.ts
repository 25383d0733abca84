import type { Db } from '../../db/database';

/** The OneSignal id of a live account, or null when it has none. */
export async function pushIdOf(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('one_signal_id')
    .where('_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.one_signal_id?.trim() || null;
}
