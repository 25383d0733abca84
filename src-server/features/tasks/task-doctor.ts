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
  // the holders counted per task in two grouped passes, not a subquery per task: one scan of
  // each table however many tasks there are
  const inProgress = db
    .selectFrom('user_tasks')
    .select(['task_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'in_progress')
    .groupBy('task_id')
    .as('ip');
  const proofs = db
    .selectFrom('submissions')
    .select(['task_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'in', ['pending', 'approved'])
    .groupBy('task_id')
    .as('pr');
  const slots = await db
    .selectFrom('tasks as t')
    .leftJoin(inProgress, 'ip.task_id', 't._id')
    .leftJoin(proofs, 'pr.task_id', 't._id')
    .select(['t._id', 't.reserved', sql<number>`coalesce(ip.n, 0) + coalesce(pr.n, 0)`.as('held')])
    .where('t.deleted_at', 'is', null)
    .execute();
  for (const s of slots) {
    if (Number(s.reserved) !== Number(s.held))
      out.push(`task ${s._id} counts ${s.reserved} slots taken but ${s.held} records hold one`);
  }
  return out;
}
