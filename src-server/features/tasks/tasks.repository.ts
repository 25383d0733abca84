import {
  type Expression,
  type ExpressionBuilder,
  expressionBuilder,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { RewardRange, TaskSort, TaskStatus } from '../../contract/constants';
import type { Db } from '../../db/database';
import type { DB, TasksTable } from '../../db/schema';

export type Conn = Db | Transaction<DB>;

/** A task row with its creator's name. */
export type TaskRow = Selectable<TasksTable> & { creator_name: string | null };

export function findTask(db: Conn, id: string): Promise<TaskRow | undefined> {
  return db
    .selectFrom('tasks')
    .leftJoin('users', 'users._id', 'tasks.created_by')
    .selectAll('tasks')
    .select('users.name as creator_name')
    .where('tasks._id', '=', id)
    .where('tasks.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertTask(db: Conn, task: Insertable<TasksTable>): Promise<void> {
  await db.insertInto('tasks').values(task).execute();
}

/**
 * Changes a live task. When max_completions changes it must stay at or above the slots
 * already taken: false (nothing changed) when it would not.
 */
export async function updateTask(db: Conn, id: string, patch: Updateable<TasksTable>): Promise<boolean> {
  let query = db.updateTable('tasks').set(patch).where('_id', '=', id).where('deleted_at', 'is', null);
  if (typeof patch.max_completions === 'number') query = query.where('reserved', '<=', patch.max_completions);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes one slot of a startable task (active, live, within its deadline, not full) in one
 * conditional statement, so concurrent starts can never take more than max_completions.
 */
export async function reserveSlot(db: Conn, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('tasks')
    .set((eb) => ({ reserved: eb('reserved', '+', 1) }))
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('deadline', 'is', null), eb('deadline', '>', now)]))
    .where((eb) => eb('reserved', '<', eb.ref('max_completions')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a slot back (a rejected submission frees its slot until the task is restarted). */
export async function releaseSlot(db: Conn, id: string): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({ reserved: eb('reserved', '-', 1) }))
    .where('_id', '=', id)
    .where('reserved', '>', 0)
    .execute();
}

export interface TaskFilter {
  /** only active, live tasks within their deadline, hiding those `hideApprovedFor` completed */
  publicOnly: boolean;
  now: string;
  hideApprovedFor?: string;
  status?: TaskStatus;
  category?: string;
  difficulty?: string;
  rewardRange?: RewardRange;
  q?: string;
}

/** Kuruş bounds of the reward filters (DECISIONS.md: 0-10 is <= 10, 10-20 is > 10 and <= 20...). */
const REWARD_BOUNDS: Record<RewardRange, [number | null, number | null]> = {
  '0-10': [null, 1000],
  '10-20': [1000, 2000],
  '20-50': [2000, 5000],
  '50+': [5000, null],
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function whereFilter(filter: TaskFilter) {
  return (eb: ExpressionBuilder<DB, 'tasks'>) => {
    const conds: Expression<SqlBool>[] = [eb('tasks.deleted_at', 'is', null)];
    if (filter.publicOnly) {
      conds.push(eb('tasks.status', '=', 'active'));
      conds.push(eb.or([eb('tasks.deadline', 'is', null), eb('tasks.deadline', '>', filter.now)]));
    }
    if (filter.hideApprovedFor) {
      const approved = eb
        .selectFrom('submissions')
        .select(sql<number>`1`.as('one'))
        .whereRef('submissions.task_id', '=', 'tasks._id')
        .where('submissions.user_id', '=', filter.hideApprovedFor)
        .where('submissions.status', '=', 'approved');
      conds.push(eb.not(eb.exists(approved)));
    }
    if (filter.status) conds.push(eb('tasks.status', '=', filter.status));
    if (filter.category) conds.push(eb('tasks.category', '=', filter.category));
    if (filter.difficulty) conds.push(eb('tasks.difficulty', '=', filter.difficulty));
    if (filter.rewardRange) {
      const [above, upTo] = REWARD_BOUNDS[filter.rewardRange];
      if (above !== null) conds.push(eb('tasks.reward', '>', above));
      if (upTo !== null) conds.push(eb('tasks.reward', '<=', upTo));
    }
    if (filter.q) {
      const pattern = `%${escapeLike(filter.q)}%`;
      conds.push(
        eb.or([
          sql<SqlBool>`tasks.title LIKE ${pattern} ESCAPE '\\'`,
          sql<SqlBool>`tasks.description LIKE ${pattern} ESCAPE '\\'`,
          sql<SqlBool>`replace(tasks.category, '_', ' ') LIKE ${pattern.replace(/_/g, ' ')} ESCAPE '\\'`,
        ]),
      );
    }
    return eb.and(conds);
  };
}

/**
 * How many tasks match. The filters read only columns of the tasks_filter index, so the count
 * walks that index and never the table. Hiding the tasks a user was paid for is a subtraction:
 * a user has at most one approved submission per task (submissions_paid_once), so those tasks
 * are counted through the user's few approved submissions (CROSS JOIN: SQLite keeps that order)
 * instead of probing every task.
 */
async function countTasks(db: Conn, filter: TaskFilter): Promise<number> {
  const matches = whereFilter({ ...filter, hideApprovedFor: undefined })(expressionBuilder<DB, 'tasks'>());
  const count = async (query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);
  let total = await count(sql`SELECT count(*) AS n FROM tasks INDEXED BY tasks_filter WHERE ${matches}`);
  if (filter.hideApprovedFor) {
    total -= await count(
      sql`SELECT count(*) AS n FROM submissions CROSS JOIN tasks ON tasks._id = submissions.task_id
        WHERE submissions.user_id = ${filter.hideApprovedFor} AND submissions.status = 'approved'
        AND ${matches}`,
    );
  }
  return total;
}

/** One page of tasks, featured first, then by the chosen sort; and the total matching. */
export async function listTasks(
  db: Conn,
  filter: TaskFilter,
  sort: TaskSort,
  page: { offset: number; limit: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  const where = whereFilter(filter);
  const total = await countTasks(db, filter);
  let query = db
    .selectFrom('tasks')
    .leftJoin('users', 'users._id', 'tasks.created_by')
    .selectAll('tasks')
    .select('users.name as creator_name')
    .where(where)
    .orderBy('tasks.is_featured', 'desc');
  switch (sort) {
    case 'oldest':
      query = query.orderBy('tasks.created_at', 'asc');
      break;
    case 'highest_reward':
      query = query.orderBy('tasks.reward', 'desc');
      break;
    case 'lowest_reward':
      query = query.orderBy('tasks.reward', 'asc');
      break;
    case 'quickest':
      // nulls last, written so the tasks_sort_quickest index can serve it
      query = query.orderBy(sql`tasks.estimated_time IS NULL`).orderBy('tasks.estimated_time', 'asc');
      break;
    case 'most_popular':
      query = query.orderBy('tasks.total_completed', 'desc');
      break;
    default:
      break;
  }
  const rows = await query
    .orderBy('tasks.created_at', sort === 'oldest' ? 'asc' : 'desc')
    .orderBy('tasks._id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows, total };
}
