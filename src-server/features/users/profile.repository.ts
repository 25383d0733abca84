import type { Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import { updateUser } from './users.repository';

/** The fields a user may change about themself, and nothing else. */
export type ProfilePatch = Pick<
  Updateable<UsersTable>,
  | 'name'
  | 'password_hash'
  | 'phone'
  | 'address'
  | 'bio'
  | 'profile_image'
  | 'updated_at'
  | 'language'
  | 'email_notifications'
>;

/** Changes the user's own live row; false when the account was deleted meanwhile. */
export function updateProfile(db: Db, userId: string, patch: ProfilePatch): Promise<boolean> {
  return updateUser(db, userId, patch);
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
