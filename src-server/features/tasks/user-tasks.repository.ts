import type { Insertable, Selectable } from 'kysely';
import type { FeedbackCode } from '../../contract/constants';
import type { SubmissionsTable, UserTasksTable } from '../../db/schema';
import type { Conn } from './tasks.repository';

export type UserTaskRow = Selectable<UserTasksTable>;

/** A user task record with its task's headline and its latest submission (if any). */
export interface UserTaskRecordRow extends UserTaskRow {
  task_title: string;
  task_reward: number;
  task_status: string;
  task_deadline: string | null;
  sub_id: string | null;
  sub_status: SubmissionsTable['status'] | null;
  sub_description: string | null;
  sub_feedback: string | null;
  sub_rejection_reason: string | null;
  sub_feedback_code: FeedbackCode | null;
  sub_reward: number | null;
  sub_created_at: string | null;
  sub_updated_at: string | null;
}

export function findUserTask(db: Conn, userId: string, taskId: string): Promise<UserTaskRow | undefined> {
  return db
    .selectFrom('user_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();
}

export async function insertUserTask(db: Conn, row: Insertable<UserTasksTable>): Promise<void> {
  await db.insertInto('user_tasks').values(row).execute();
}

/** Back to in_progress after a rejection; false when the record is not in a finished state. */
export async function reopenUserTask(db: Conn, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('user_tasks')
    .set({ status: 'in_progress', started_at: now, completed_at: null })
    .where('_id', '=', id)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** In progress to completed (proof sent); false when the record was not in progress. */
export async function completeUserTask(db: Conn, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('user_tasks')
    .set({ status: 'completed', completed_at: now })
    .where('_id', '=', id)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The newest submission of a record. */
export function latestSubmission(
  db: Conn,
  userTaskId: string,
): Promise<Selectable<SubmissionsTable> | undefined> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('user_task_id', '=', userTaskId)
    .orderBy('created_at', 'desc')
    .orderBy('_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A user's records, newest start first, each with its task and latest submission. */
export function listUserTaskRecords(db: Conn, userId: string, taskId?: string): Promise<UserTaskRecordRow[]> {
  let query = db
    .selectFrom('user_tasks as ut')
    .innerJoin('tasks as t', 't._id', 'ut.task_id')
    .leftJoin('submissions as s', (join) =>
      join.on((eb) =>
        eb(
          's._id',
          '=',
          eb
            .selectFrom('submissions as latest')
            .select('latest._id')
            .whereRef('latest.user_task_id', '=', 'ut._id')
            .orderBy('latest.created_at', 'desc')
            .orderBy('latest._id', 'desc')
            .limit(1),
        ),
      ),
    )
    .selectAll('ut')
    .select([
      't.title as task_title',
      't.reward as task_reward',
      't.status as task_status',
      't.deadline as task_deadline',
      's._id as sub_id',
      's.status as sub_status',
      's.description as sub_description',
      's.feedback as sub_feedback',
      's.rejection_reason as sub_rejection_reason',
      's.feedback_code as sub_feedback_code',
      's.reward as sub_reward',
      's.created_at as sub_created_at',
      's.updated_at as sub_updated_at',
    ])
    .where('ut.user_id', '=', userId);
  if (taskId) query = query.where('ut.task_id', '=', taskId);
  return query.orderBy('ut.started_at', 'desc').orderBy('ut._id').execute();
}
