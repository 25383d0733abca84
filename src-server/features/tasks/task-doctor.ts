import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * The doctor's checks of started tasks: an expired record holds no comment (its own
 * column, and the pool's row given to its user), and each task's reserved slots are exactly the
 * records holding one: in progress, or with a proof pending or approved.
 */
export async function checkTaskRecords(db: Db): Promise<string[]> {
  const out: string[] = [];
  const holding = await db
    .selectFrom('user_tasks')
    .select(['_id', 'task_id'])
    .where('status', '=', 'expired')
    .where('automatic_comment', 'is not', null)
    .execute();
  for (const r of holding) out.push(`expired record ${r._id} of task ${r.task_id} still holds its comment`);
  const given = await db
    .selectFrom('task_comments as c')
    .innerJoin('user_tasks as ut', (join) =>
      join.onRef('ut.task_id', '=', 'c.task_id').onRef('ut.user_id', '=', 'c.used_by'),
    )
    .select(['c._id', 'c.task_id', 'ut._id as record'])
    .where('ut.status', '=', 'expired')
    .execute();
  for (const c of given)
    out.push(`comment ${c._id} of task ${c.task_id} is still given to expired record ${c.record}`);
  const slots = await db
    .selectFrom('tasks as t')
    .select([
      't._id',
      't.reserved',
      sql<number>`(SELECT count(*) FROM user_tasks ut WHERE ut.task_id = t._id AND ut.status = 'in_progress')
        + (SELECT count(*) FROM submissions s WHERE s.task_id = t._id AND s.status IN ('pending', 'approved'))`.as(
        'held',
      ),
    ])
    .where('t.deleted_at', 'is', null)
    .execute();
  for (const s of slots) {
    if (Number(s.reserved) !== Number(s.held))
      out.push(`task ${s._id} counts ${s.reserved} slots taken but ${s.held} records hold one`);
  }
  return out;
}
