import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';

export interface AccountOf {
  email: string;
  status: UsersTable['status'];
  ban_reason: string | null;
}

/**
 * The email and standing (status, ban reason) of each of these users, by id (anonymised accounts
 * keep their placeholder).
 */
export async function accountsOf(db: Db, userIds: readonly string[]): Promise<Map<string, AccountOf>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['_id', 'email', 'status', 'ban_reason'])
    .where('_id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r._id, { email: r.email, status: r.status, ban_reason: r.ban_reason }]));
}

/** The automatic comment each of these submissions' workers was given at start, by submission id. */
export async function commentsOf(db: Db, submissionIds: readonly string[]): Promise<Map<string, string>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('submissions as s')
    .innerJoin('user_tasks as ut', 'ut._id', 's.user_task_id')
    .select(['s._id', 'ut.automatic_comment'])
    .where('s._id', 'in', [...submissionIds])
    .where('ut.automatic_comment', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r._id, r.automatic_comment ?? '']));
}
