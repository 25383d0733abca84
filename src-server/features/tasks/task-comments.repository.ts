import { sql } from 'kysely';
import { newId } from '../../db/ids';
import { prepared } from '../../db/prepared';
import type { Conn } from './tasks.repository';

export interface CommentRow {
  task_id: string;
  text: string;
  used: boolean;
}

/** Every comment of these tasks, in the order the admin gave them. */
export async function listComments(db: Conn, taskIds: string[]): Promise<CommentRow[]> {
  if (taskIds.length === 0) return [];
  const rows =
    taskIds.length === 1
      ? await commentsOfTask(db, taskIds[0])
      : await db
          .selectFrom('task_comments')
          .select(['task_id', 'text', 'used_by'])
          .where('task_id', 'in', taskIds)
          .orderBy('task_id')
          .orderBy('position')
          .execute();
  return rows.map((r) => ({ task_id: r.task_id, text: r.text, used: r.used_by !== null }));
}

export interface CommentCounts {
  total: number;
  used: number;
}

/** Pool sizes per task, without the texts. */
export async function countComments(db: Conn, taskIds: string[]): Promise<Map<string, CommentCounts>> {
  const out = new Map<string, CommentCounts>();
  if (taskIds.length === 0) return out;
  const rows =
    taskIds.length === 1
      ? await countsOfTask(db, taskIds[0])
      : await db
          .selectFrom('task_comments')
          .select((eb) => [
            'task_id',
            eb.fn.countAll<number>().as('total'),
            eb.fn.count<number>('used_by').as('used'),
          ])
          .where('task_id', 'in', taskIds)
          .groupBy('task_id')
          .execute();
  for (const r of rows) out.set(r.task_id, { total: Number(r.total), used: Number(r.used) });
  return out;
}

/**
 * Makes the unused pool of a task exactly `texts` (in that order). Comments already given
 * out are never removed or changed: they stay, used, whether or not `texts` lists them.
 */
export async function replaceUnusedComments(db: Conn, taskId: string, texts: string[]): Promise<void> {
  const used = await db
    .selectFrom('task_comments')
    .select(['_id', 'text'])
    .where('task_id', '=', taskId)
    .where('used_by', 'is not', null)
    .orderBy('position')
    .execute();
  const usedByText = new Map(used.map((c) => [c.text, c._id]));
  await db.deleteFrom('task_comments').where('task_id', '=', taskId).where('used_by', 'is', null).execute();
  const fresh: { _id: string; task_id: string; text: string; position: number }[] = [];
  texts.forEach((text, position) => {
    const usedId = usedByText.get(text);
    if (usedId === undefined) fresh.push({ _id: newId(), task_id: taskId, text, position });
  });
  // used comments the list names take its place; the others follow it, in their old order
  let next = texts.length;
  for (const c of used) {
    const listed = texts.indexOf(c.text);
    await db
      .updateTable('task_comments')
      .set({ position: listed >= 0 ? listed : next++ })
      .where('_id', '=', c._id)
      .execute();
  }
  for (let i = 0; i < fresh.length; i += 200) {
    await db
      .insertInto('task_comments')
      .values(fresh.slice(i, i + 200))
      .execute();
  }
}

/**
 * Gives one unused comment of the task, chosen at random, to the user: one conditional
 * statement, so two starts at the same moment can never get the same comment. Null when
 * the pool is empty.
 */
export async function takeRandomComment(
  db: Conn,
  taskId: string,
  userId: string,
  now: string,
): Promise<string | null> {
  const row = await db
    .updateTable('task_comments')
    .set({ used_by: userId, used_at: now })
    .where('used_by', 'is', null)
    .where(
      '_id',
      '=',
      db
        .selectFrom('task_comments')
        .select('_id')
        .where('task_id', '=', taskId)
        .where('used_by', 'is', null)
        .orderBy(sql`random()`)
        .limit(1),
    )
    .returning('text')
    .executeTakeFirst();
  return row?.text ?? null;
}

// one task's pool, compiled once per engine: the task detail reads it on every request
const commentsOfTask = prepared((db: Conn, taskId: string) =>
  db
    .selectFrom('task_comments')
    .select(['task_id', 'text', 'used_by'])
    .where('task_id', '=', taskId)
    .orderBy('position'),
);
const countsOfTask = prepared((db: Conn, taskId: string) =>
  db
    .selectFrom('task_comments')
    .select((eb) => [
      'task_id',
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('used_by').as('used'),
    ])
    .where('task_id', '=', taskId)
    .groupBy('task_id'),
);
