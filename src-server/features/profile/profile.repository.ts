import type { Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import { withNameSearch } from '../../db/search';

/** The fields a user may change about themself, and nothing else. */
export type ProfilePatch = Pick<
  Updateable<UsersTable>,
  'name' | 'password_hash' | 'phone' | 'address' | 'bio' | 'profile_image' | 'updated_at'
>;

/** Changes the user's own live row; false when the account was deleted meanwhile. */
export async function updateProfile(db: Db, userId: string, patch: ProfilePatch): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(withNameSearch(patch))
    .where('_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The user's approved submissions with their task, newest approval first. */
export function approvedSubmissions(db: Db, userId: string) {
  return db
    .selectFrom('submissions as s')
    .innerJoin('tasks as t', 't._id', 's.task_id')
    .where('s.user_id', '=', userId)
    .where('s.status', '=', 'approved')
    .select([
      's._id',
      's.reward',
      's.reviewed_at',
      's.updated_at',
      't._id as task_id',
      't.title as task_title',
      't.reward as task_reward',
    ])
    .orderBy('s.reviewed_at', 'desc')
    .orderBy('s._id', 'desc')
    .execute();
}
