import type { Db } from '../../db/database';

/** The email of each of these users, by id (anonymised accounts keep their placeholder). */
export async function emailsOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['_id', 'email']).where('_id', 'in', unique).execute();
  return new Map(rows.map((r) => [r._id, r.email]));
}
