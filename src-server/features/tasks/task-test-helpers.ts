// Test-only helpers for the task and submission tests (never imported by the server).
import type { Insertable } from 'kysely';
import type { TasksTable } from '../../db/schema';
import type { TestApp } from '../../testing/test-app';

/** A valid body of the admin task form. */
export function taskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Uygulamayı değerlendir',
    description: 'Mağazada 5 yıldız verin\nve ekran görüntüsü yükleyin',
    reward: 12.5,
    maxCompletions: 100,
    ...overrides,
  };
}

/** Creates a task through POST /api/tasks and returns its id. */
export async function createTask(t: TestApp, adminToken: string, overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/tasks', { token: adminToken, body: taskBody(overrides) });
  if (res.status !== 201) throw new Error(`task not created: ${JSON.stringify(res.body)}`);
  return res.body.data._id as string;
}

/** Changes a task's row directly (states the API would take many steps to reach). */
export async function patchTask(t: TestApp, id: string, patch: Partial<Insertable<TasksTable>>) {
  if (Object.keys(patch).length === 0) return;
  await t.deps.db.updateTable('tasks').set(patch).where('_id', '=', id).execute();
}

export function taskRow(t: TestApp, id: string) {
  return t.deps.db.selectFrom('tasks').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
}

/** A date 'YYYY-MM-DD' `days` from today (UTC). */
export function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Marks a user's latest submission of a task as reviewed, as the review feature would. */
export async function settleLatest(
  t: TestApp,
  userId: string,
  taskId: string,
  status: 'approved' | 'rejected',
) {
  const db = t.deps.db;
  const sub = await db
    .selectFrom('submissions')
    .select(['_id'])
    .where('user_id', '=', userId)
    .where('task_id', '=', taskId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('submissions')
    .set({
      status,
      feedback: status === 'approved' ? 'ok' : 'no',
      rejection_reason: status === 'rejected' ? 'no_share' : null,
    })
    .where('_id', '=', sub._id)
    .execute();
  if (status === 'rejected') {
    await db
      .updateTable('tasks')
      .set((eb) => ({ reserved: eb('reserved', '-', 1) }))
      .where('_id', '=', taskId)
      .execute();
  }
}

/**
 * A user's record of a task written directly, with a submission in the given state
 * (a pending or rejected one marks the record completed, as sending a proof does).
 */
export async function makeRecord(
  t: TestApp,
  userId: string,
  taskId: string,
  submission?: 'pending' | 'approved' | 'rejected',
) {
  const db = t.deps.db;
  const id = `ut${Math.random().toString(16).slice(2)}`;
  const now = new Date().toISOString();
  await db
    .insertInto('user_tasks')
    .values({
      _id: id,
      user_id: userId,
      task_id: taskId,
      status: submission ? 'completed' : 'in_progress',
      automatic_comment: null,
      started_at: now,
      completed_at: submission ? now : null,
    })
    .execute();
  if (submission !== 'rejected') {
    await db
      .updateTable('tasks')
      .set((eb) => ({ reserved: eb('reserved', '+', 1) }))
      .where('_id', '=', taskId)
      .execute();
  }
  if (submission) {
    await db
      .insertInto('submissions')
      .values({
        _id: `s${id}`,
        user_task_id: id,
        user_id: userId,
        task_id: taskId,
        status: submission,
        description: null,
        feedback: null,
        rejection_reason: submission === 'rejected' ? 'no_share' : null,
        reward: 1250,
        proof_file: null,
        created_at: now,
        updated_at: now,
        reviewed_by: null,
        reviewed_at: null,
      })
      .execute();
  }
  return id;
}
