import type { UserTaskDto } from '../../contract/tasks';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import type { UserRow } from '../users/users.repository';
import { holdLiveUser } from '../users/users.repository';
import { takeRandomComment } from './task-comments.repository';
import { expireDue } from './task-expiry';
import { toUserTaskDto } from './tasks.mapper';
import { type Conn, findTask, reserveSlot, type TaskRow } from './tasks.repository';
import { isOpen } from './tasks.service';
import {
  appealStatusOf,
  findUserTask,
  insertUserTask,
  latestSubmission,
  listUserTaskRecords,
  lockUserTask,
  reopenUserTask,
} from './user-tasks.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** After a failed reservation: full when every slot is taken, otherwise no longer startable. */
async function reservationFailure(db: Conn, taskId: string, now: string) {
  const task = await findTask(db, taskId);
  if (!task) return fail.notFound('task_not_found');
  if (isOpen(task, now) && task.reserved >= task.max_completions) return fail.conflict('task_full');
  return fail.conflict('task_unavailable');
}

async function recordOf(db: Conn, userId: string, taskId: string, now: string): Promise<UserTaskDto> {
  const [record] = await listUserTaskRecords(db, userId, taskId);
  return toUserTaskDto(record, now);
}

/** When a record started now on this task runs out of time. */
function expiryOf(task: Pick<TaskRow, 'time_limit_minutes'>, now: string): string {
  return new Date(Date.parse(now) + task.time_limit_minutes * 60_000).toISOString();
}

/**
 * POST /api/tasks/{id}/start: in one transaction, the user's record, one slot of the task
 * and one random unused comment (none when the pool is empty), with the task's time limit.
 * Each step is a conditional statement, so concurrent starts never share a comment nor exceed
 * maxCompletions. The task's records past their time are ended first (their slots and comments
 * come back), and a record of the user's own that expired starts again with a new comment.
 */
export async function startTask(deps: Deps, user: UserRow, taskId: string): Promise<UserTaskDto> {
  const now = nowIso(deps.clock);
  const task = await findTask(deps.db, taskId);
  if (!task) throw fail.notFound('task_not_found');
  await expireDue(deps.db, now, taskId);
  const existing = await findUserTask(deps.db, user._id, taskId);
  if (existing && existing.status !== 'expired') throw fail.conflict('task_already_started');
  if (!isOpen(task, now)) throw fail.conflict('task_unavailable');
  try {
    return await deps.db.transaction().execute(async (trx) => {
      if (!(await holdLiveUser(trx, user._id))) throw fail.unauthorized();
      if (!(await reserveSlot(trx, taskId, now))) throw await reservationFailure(trx, taskId, now);
      const comment = await takeRandomComment(trx, taskId, user._id, now);
      const expiresAt = expiryOf(task, now);
      if (existing) {
        if (!(await reopenUserTask(trx, existing._id, 'expired', { now, expiresAt, comment })))
          throw fail.conflict('task_already_started');
      } else {
        await insertUserTask(trx, {
          _id: newId(),
          user_id: user._id,
          task_id: taskId,
          status: 'in_progress',
          automatic_comment: comment,
          started_at: now,
          completed_at: null,
          expires_at: expiresAt,
          expired_at: null,
        });
      }
      return recordOf(trx, user._id, taskId, now);
    });
  } catch (err) {
    // the same user starting twice at once: the unique (user, task) index decides
    if (isUniqueViolation(err)) throw fail.conflict('task_already_started');
    throw err;
  }
}

/**
 * POST /api/tasks/{id}/restart: only when the latest submission was rejected. The record
 * goes back to in_progress with a new time limit, keeps its comment and takes a slot again (if
 * one is free).
 */
export async function restartTask(deps: Deps, user: UserRow, taskId: string): Promise<UserTaskDto> {
  const now = nowIso(deps.clock);
  const task = await findTask(deps.db, taskId);
  if (!task) throw fail.notFound('task_not_found');
  const record = await findUserTask(deps.db, user._id, taskId);
  if (!record) throw fail.conflict('task_not_restartable');
  return deps.db.transaction().execute(async (trx) => {
    if (!(await holdLiveUser(trx, user._id))) throw fail.unauthorized();
    await lockUserTask(trx, record._id);
    const latest = await latestSubmission(trx, record._id);
    if (record.status !== 'completed' || latest?.status !== 'rejected')
      throw fail.conflict('task_not_restartable');
    // appealing and restarting exclude each other: not while its appeal waits
    if ((await appealStatusOf(trx, latest._id)) === 'pending') throw fail.conflict('appeal_pending');
    const expiresAt = expiryOf(task, now);
    if (!(await reopenUserTask(trx, record._id, 'completed', { now, expiresAt })))
      throw fail.conflict('task_not_restartable');
    if (!(await reserveSlot(trx, taskId, now))) throw await reservationFailure(trx, taskId, now);
    return recordOf(trx, user._id, taskId, now);
  });
}

/** GET /api/tasks/user: the user's records, newest first. */
export async function myTaskRecords(deps: Deps, user: UserRow): Promise<UserTaskDto[]> {
  const now = nowIso(deps.clock);
  return (await listUserTaskRecords(deps.db, user._id)).map((row) => toUserTaskDto(row, now));
}
