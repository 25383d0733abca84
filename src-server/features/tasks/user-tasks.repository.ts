import { type Insertable, type Selectable, sql } from 'kysely';
import type { FeedbackCode } from '../../contract/constants';
import { isPostgres } from '../../db/dialect';
import { forUpdate } from '../../db/locks';
import { prepared } from '../../db/prepared';
import type { SubmissionsTable, TasksTable, UserTasksTable } from '../../db/schema';
import type { Conn } from './tasks.repository';

export type UserTaskRow = Selectable<UserTasksTable>;

/** A user task record with its task's headline and its latest submission (if any). */
export interface UserTaskRecordRow extends UserTaskRow {
  task_title: string;
  task_reward: number;
  task_status: TasksTable['status'];
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
  sub_reviewed_at: string | null;
  appeal_status: 'pending' | 'upheld' | 'overturned' | null;
}

export async function findUserTask(
  db: Conn,
  userId: string,
  taskId: string,
): Promise<UserTaskRow | undefined> {
  const [row] = await userTaskOf(db, userId, taskId);
  return row;
}

// compiled once: every start asks it
const userTaskOf = prepared((db: Conn, userId: string, taskId: string) =>
  db.selectFrom('user_tasks').selectAll().where('user_id', '=', userId).where('task_id', '=', taskId),
);

export async function insertUserTask(db: Conn, row: Insertable<UserTasksTable>): Promise<void> {
  await db.insertInto('user_tasks').values(row).execute();
}

/**
 * Back to in_progress with a new time limit: after a rejection (from completed, keeping its
 * comment) or after it expired (from expired, with the comment a new start drew). False when the
 * record is not in `from`.
 */
export async function reopenUserTask(
  db: Conn,
  id: string,
  from: 'completed' | 'expired',
  change: { now: string; expiresAt: string; comment?: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('user_tasks')
    .set({
      status: 'in_progress',
      started_at: change.now,
      completed_at: null,
      expires_at: change.expiresAt,
      expired_at: null,
      end_reason: null,
      ...(change.comment !== undefined && { automatic_comment: change.comment }),
    })
    .where('_id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * In progress to completed (proof sent) when the proof arrived (`arrivedAt`, when its request
 * began) before the time ran out; false otherwise. The sweep's update asks the opposite of the
 * same row, so of a proof and an expiry at the same moment exactly one happens.
 */
export async function completeUserTask(db: Conn, id: string, now: string, arrivedAt = now): Promise<boolean> {
  const result = await db
    .updateTable('user_tasks')
    .set({ status: 'completed', completed_at: now })
    .where('_id', '=', id)
    .where('status', '=', 'in_progress')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', arrivedAt)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// compiled once: every approval writes it
const completeRecord = prepared((db: Conn, id: string, now: string) =>
  db.updateTable('user_tasks').set({ status: 'completed', completed_at: now }).where('_id', '=', id),
);

/**
 * A record completed by a verdict (an approval, an overturned rejection): unconditional, unlike
 * completeUserTask, because the proof was accepted whatever happened to the record since.
 */
export async function markUserTaskCompleted(db: Conn, id: string, now: string): Promise<void> {
  await completeRecord(db, id, now);
}

/** Records in progress whose time ran out by `cutoff`, oldest first (of one task, or all). */
export function dueRecords(db: Conn, cutoff: string, limit: number, taskId?: string) {
  if (taskId) return dueOfTask(db, cutoff, limit, taskId);
  return db
    .selectFrom('user_tasks')
    .select('_id')
    .where('status', '=', 'in_progress')
    .where('expires_at', '<=', cutoff)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

// Every start sweeps its task first. SQLite chose the task's index for it: every record the task
// ever had, each row fetched from a table of millions and sorted (0.6-1.4 ms, a quarter of a
// start's CPU on the full-scale folder). The partial index of records in progress by their
// expiry (user_tasks_due) holds only the ones past their time that the sweep every 30 s has not
// ended yet, usually none (27 µs); the unary plus keeps SQLite off the task's index. PostgreSQL
// weighs the two with its statistics, so it gets the plain column.
const dueOfTask = prepared((db: Conn, cutoff: string, limit: number, taskId: string) =>
  db
    .selectFrom('user_tasks')
    .select('_id')
    .where('status', '=', 'in_progress')
    .where('expires_at', '<=', cutoff)
    .where(isPostgres(db) ? sql.ref('task_id') : sql`+"task_id"`, '=', taskId)
    .orderBy('expires_at')
    .limit(limit),
);

/**
 * In progress and out of time by `cutoff` to expired, its comment taken off it; the record as it
 * was (task, user, comment), or undefined when something else ended it first.
 */
export async function endExpired(
  db: Conn,
  id: string,
  now: string,
  cutoff: string | null,
  reason: 'time' | 'task_closed' | 'user_deleted' = 'time',
) {
  const before = await db
    .selectFrom('user_tasks')
    .select(['task_id', 'user_id', 'automatic_comment'])
    .where('_id', '=', id)
    .executeTakeFirst();
  let update = db
    .updateTable('user_tasks')
    .set({ status: 'expired', expired_at: now, automatic_comment: null, end_reason: reason })
    .where('_id', '=', id)
    .where('status', '=', 'in_progress');
  // a closing task ends its records whatever their time
  if (cutoff !== null) update = update.where('expires_at', '<=', cutoff);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? before : undefined;
}

/** The ids of a task's records in progress. */
export function recordsInProgress(db: Conn, taskId: string) {
  return db
    .selectFrom('user_tasks')
    .select(['_id', 'user_id'])
    .where('task_id', '=', taskId)
    .where('status', '=', 'in_progress')
    .execute();
}

/** A comment given to `userId` back into the task's pool (one row, if the text is there twice). */
export async function returnComment(db: Conn, taskId: string, userId: string, text: string): Promise<void> {
  await db
    .updateTable('task_comments')
    .set({ used_by: null, used_at: null })
    .where(
      '_id',
      '=',
      db
        .selectFrom('task_comments')
        .select('_id')
        .where('task_id', '=', taskId)
        .where('used_by', '=', userId)
        .where('text', '=', text)
        .limit(1),
    )
    .execute();
}

/** The status of a submission's appeal (undefined: none was sent), for the restart's check. */
export async function appealStatusOf(db: Conn, submissionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('appeals')
    .select('status')
    .where('submission_id', '=', submissionId)
    .executeTakeFirst();
  return row?.status;
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
export async function listUserTaskRecords(
  db: Conn,
  userId: string,
  taskId?: string,
): Promise<UserTaskRecordRow[]> {
  const records = taskId ? await recordsOfUserTask(db, userId, taskId) : await recordsOfUser(db, userId);
  const latestIds = records.flatMap((r) => (r.latest_id === null ? [] : [r.latest_id]));
  const latest = new Map<string, LatestSubmission>();
  if (latestIds.length === 1) {
    const [row] = await submissionById(db, latestIds[0]);
    if (row) latest.set(row._id, row);
  } else {
    for (let i = 0; i < latestIds.length; i += 500)
      for (const row of await latestSubmissions(db)
        .where('s._id', 'in', latestIds.slice(i, i + 500))
        .execute())
        latest.set(row._id, row);
  }
  return records.map(({ latest_id, ...record }) => {
    const s = latest_id === null ? undefined : latest.get(latest_id);
    return {
      ...record,
      sub_id: s?._id ?? null,
      sub_status: s?.status ?? null,
      sub_description: s?.description ?? null,
      sub_feedback: s?.feedback ?? null,
      sub_rejection_reason: s?.rejection_reason ?? null,
      sub_feedback_code: s?.feedback_code ?? null,
      sub_reward: s?.reward ?? null,
      sub_created_at: s?.created_at ?? null,
      sub_updated_at: s?.updated_at ?? null,
      sub_reviewed_at: s?.reviewed_at ?? null,
      appeal_status: s?.appeal_status ?? null,
    };
  });
}

/**
 * The records with their task's four columns and the id of their latest submission, each a
 * subquery on a key; the submissions' columns come in a second statement, only for records that
 * have one. Not joins: SQLite 3.54 reads each column of a statement of several tables for about
 * half a microsecond (a few hundredths in a statement of one table), and this read's 26 columns
 * through four tables cost 77 µs a start (docs/decisions.md, "Joins on the hot paths").
 */
function recordsQuery(db: Conn, userId: string) {
  return db
    .selectFrom('user_tasks as ut')
    .selectAll('ut')
    .select((eb) => {
      const task = () => eb.selectFrom('tasks as t').whereRef('t._id', '=', 'ut.task_id');
      return [
        task().select('t.title').$asScalar().$notNull().as('task_title'),
        task().select('t.reward').$asScalar().$notNull().as('task_reward'),
        task().select('t.status').$asScalar().$notNull().as('task_status'),
        task().select('t.deadline').$asScalar().as('task_deadline'),
        eb
          .selectFrom('submissions as latest')
          .select('latest._id')
          .whereRef('latest.user_task_id', '=', 'ut._id')
          .orderBy('latest.created_at', 'desc')
          .orderBy('latest._id', 'desc')
          .limit(1)
          .as('latest_id'),
      ];
    })
    .where('ut.user_id', '=', userId);
}

// compiled once per engine (the task detail of a signed-in user reads its record every time)
const recordsOfUser = prepared((db: Conn, userId: string) =>
  recordsQuery(db, userId).orderBy('ut.started_at', 'desc').orderBy('ut._id'),
);
const recordsOfUserTask = prepared((db: Conn, userId: string, taskId: string) =>
  recordsQuery(db, userId)
    .where('ut.task_id', '=', taskId)
    .orderBy('ut.started_at', 'desc')
    .orderBy('ut._id'),
);

/** What a record shows of its latest submission, with the submission's appeal. */
function latestSubmissions(db: Conn) {
  return db
    .selectFrom('submissions as s')
    .select([
      's._id',
      's.status',
      's.description',
      's.feedback',
      's.rejection_reason',
      's.feedback_code',
      's.reward',
      's.created_at',
      's.updated_at',
      's.reviewed_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('appeals as a')
        .select('a.status')
        .whereRef('a.submission_id', '=', 's._id')
        .as('appeal_status'),
    );
}
type LatestSubmission = Awaited<ReturnType<ReturnType<typeof latestSubmissions>['execute']>>[number];

const submissionById = prepared((db: Conn, id: string) => latestSubmissions(db).where('s._id', '=', id));

/**
 * A record's row locked until the transaction ends (PostgreSQL; SQLite's one writer already
 * serialises): an appeal and a restart of the same record read, then decide, so each takes this
 * first and they exclude each other on any engine (a rejection under appeal cannot be restarted).
 */
export async function lockUserTask(db: Conn, id: string): Promise<void> {
  await forUpdate(db, db.selectFrom('user_tasks').select('_id').where('_id', '=', id)).execute();
}
