import {
  type CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  expressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { RewardRange, TaskSort, TaskStatus } from '../../contract/constants';
import type { StampedReads } from '../../db/change-stamp';
import type { Db } from '../../db/database';
import { dialectOf } from '../../db/dialect';
import { prepared } from '../../db/prepared';
import type { DB, TasksTable } from '../../db/schema';
import {
  containsPattern,
  likeFolded,
  tasksContaining,
  tasksContainingScan,
  tasksContainingSource,
} from '../../db/search';
import { nameStatement, withParameters } from '../../db/statement';
import type { CommentCounts } from './task-comments.repository';
import { taskSearchBody, taskSearchTitle } from './task-search';

export type Conn = Db | Transaction<DB>;

type TaskColumns = Omit<Selectable<TasksTable>, 'search_title' | 'search_body'>;

/** A task row with its creator's name (the folded search columns are never read back). */
export type TaskRow = TaskColumns & { creator_name: string | null };

const TASK_COLUMNS = [
  'tasks._id',
  'tasks.title',
  'tasks.description',
  'tasks.category',
  'tasks.reward',
  'tasks.deadline',
  'tasks.difficulty',
  'tasks.status',
  'tasks.max_completions',
  'tasks.required_proof',
  'tasks.task_link',
  'tasks.is_featured',
  'tasks.steps',
  'tasks.requirements',
  'tasks.estimated_time',
  'tasks.rating',
  'tasks.total_completed',
  'tasks.reserved',
  'tasks.time_limit_minutes',
  'tasks.min_seconds',
  'tasks.created_by',
  'tasks.created_at',
  'tasks.updated_at',
  'tasks.deleted_at',
] as const satisfies readonly `tasks.${keyof TaskColumns}`[];

export async function findTask(db: Conn, id: string): Promise<TaskRow | undefined> {
  return (await taskById(db, id))[0];
}

/**
 * The creator's name as a subquery on the users' key, not a join: on the SQLite this app ships
 * (3.54), every column a statement of two tables reads costs about half a microsecond, against
 * a few hundredths in a statement of one table, so the task's thirty columns through a join
 * cost more than the lookup itself (docs/decisions.md, "Joins on the hot paths").
 */
const creatorName = (eb: ExpressionBuilder<DB, 'tasks'>) =>
  eb
    .selectFrom('users')
    .select('users.name')
    .whereRef('users._id', '=', 'tasks.created_by')
    .as('creator_name');

/** One live task with its creator's name. */
const liveTaskById = (db: Conn, id: string) =>
  db
    .selectFrom('tasks')
    .select(TASK_COLUMNS)
    .select(creatorName)
    .where('tasks._id', '=', id)
    .where('tasks.deleted_at', 'is', null);

// compiled once per engine: the task's writes and the detail run them again and again
const taskById = prepared(liveTaskById);

/**
 * A live task with its creator's name and its comment pool's counts, in one statement: what the
 * task detail reads when its remembered read is out of date (a round trip fewer on PostgreSQL).
 */
export async function findTaskWithCounts(db: Conn, id: string): Promise<TaskListRow | undefined> {
  return (await taskWithCountsById(db, id))[0];
}

const taskWithCountsById = prepared((db: Conn, id: string) => liveTaskById(db, id).select(commentCounts));

/** Inserts a task with its folded search columns. */
export async function insertTask(db: Conn, task: Insertable<TasksTable>): Promise<void> {
  await db
    .insertInto('tasks')
    .values({
      ...task,
      search_title: taskSearchTitle(task.title),
      search_body: taskSearchBody(task.description, task.category),
    })
    .execute();
}

/**
 * The folded search columns a patch changes. The body holds the description and the
 * category's words, so a patch of one of them reads the other from the row.
 */
async function searchPatch(db: Conn, id: string, patch: Updateable<TasksTable>) {
  const out: { search_title?: string; search_body?: string } = {};
  if (typeof patch.title === 'string') out.search_title = taskSearchTitle(patch.title);
  let { description, category } = patch;
  if (typeof description === 'string' || typeof category === 'string') {
    if (typeof description !== 'string' || typeof category !== 'string') {
      const row = await db
        .selectFrom('tasks')
        .select(['description', 'category'])
        .where('_id', '=', id)
        .executeTakeFirst();
      if (!row) return out;
      if (typeof description !== 'string') description = row.description;
      if (typeof category !== 'string') category = row.category;
    }
    out.search_body = taskSearchBody(description, category);
  }
  return out;
}

/**
 * Changes a live task (and its folded search columns when the title, description or category
 * change). When max_completions changes it must stay at or above the slots already taken:
 * false (nothing changed) when it would not.
 */
export async function updateTask(db: Conn, id: string, patch: Updateable<TasksTable>): Promise<boolean> {
  let query = db
    .updateTable('tasks')
    .set({ ...patch, ...(await searchPatch(db, id, patch)) })
    .where('_id', '=', id)
    .where('deleted_at', 'is', null);
  if (typeof patch.max_completions === 'number') query = query.where('reserved', '<=', patch.max_completions);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes one slot of a startable task (active, live, within its deadline, not full) in one
 * conditional statement, so concurrent starts can never take more than max_completions.
 */
export async function reserveSlot(db: Conn, id: string, now: string): Promise<boolean> {
  return (await reserve(db, id, now)).length === 1;
}

// compiled once: every start runs it
const reserve = prepared((db: Conn, id: string, now: string) =>
  db
    .updateTable('tasks')
    .set((eb) => ({ reserved: eb('reserved', '+', 1) }))
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('deadline', 'is', null), eb('deadline', '>', now)]))
    .where((eb) => eb('reserved', '<', eb.ref('max_completions')))
    .returning('_id'),
);

/**
 * Gives a slot back, never below zero (a rejected submission frees its slot until the task is
 * restarted). With `now` the task's updated_at moves too (a verdict changes the task a person
 * sees; the expiry sweep's release does not).
 */
export async function releaseSlot(db: Conn, id: string, now?: string): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({ reserved: eb('reserved', '-', 1), ...(now === undefined ? {} : { updated_at: now }) }))
    .where('_id', '=', id)
    .where('reserved', '>', 0)
    .execute();
}

/** One more completion; the task becomes completed when it reaches its maximum. */
export async function countCompletion(db: Conn, taskId: string, now: string): Promise<void> {
  // the count alone, and the status in a second statement only when the count reaches the
  // maximum: a SET of status, even to the value it holds, has SQLite rewrite the task's entry in
  // every index that holds status (the list's seven), a third of the pages an approval commits.
  // The row is the transaction's from the first statement on (SQLite's one writer; PostgreSQL's
  // row lock), so no other approval counts in between.
  const [row] = await addCompletion(db, taskId, now);
  if (row && Number(row.total_completed) >= Number(row.max_completions) && row.status !== 'completed')
    await db.updateTable('tasks').set({ status: 'completed' }).where('_id', '=', taskId).execute();
}

// compiled once: every approval counts one
const addCompletion = prepared((db: Conn, taskId: string, now: string) =>
  db
    .updateTable('tasks')
    .set((eb) => ({ total_completed: eb('total_completed', '+', 1), updated_at: now }))
    .where('_id', '=', taskId)
    .returning(['total_completed', 'max_completions', 'status']),
);

/**
 * The slot an approved proof holds, taken again for an overturned rejection (its rejection gave
 * it back). A task full meanwhile grows by the one the admin granted.
 */
export async function retakeSlot(db: Conn, taskId: string, now: string): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({
      reserved: eb('reserved', '+', 1),
      max_completions: eb
        .case()
        .when('reserved', '>=', eb.ref('max_completions'))
        .then(eb('max_completions', '+', 1))
        .else(eb.ref('max_completions'))
        .end(),
      updated_at: now,
    }))
    .where('_id', '=', taskId)
    .execute();
}

export interface TaskFilter {
  /** only active, live tasks within their deadline */
  publicOnly: boolean;
  now: string;
  status?: TaskStatus;
  category?: TasksTable['category'];
  difficulty?: TasksTable['difficulty'];
  rewardRange?: RewardRange;
  /** the search, folded (db/search.ts foldSearch); empty or absent: no search */
  q?: string;
}

/** Kuruş bounds of the reward filters (0-10 is <= 10, 10-20 is > 10 and <= 20...). */
const REWARD_BOUNDS: Record<RewardRange, [number | null, number | null]> = {
  '0-10': [null, 1000],
  '10-20': [1000, 2000],
  '20-50': [2000, 5000],
  '50+': [5000, null],
};

/** The filter's conditions; `withSearch: false` leaves the text search out. */
function whereFilter(db: Conn, filter: TaskFilter, withSearch: boolean) {
  return (eb: ExpressionBuilder<DB, 'tasks'>) => {
    const conds: Expression<SqlBool>[] = [eb('tasks.deleted_at', 'is', null)];
    if (filter.publicOnly) {
      conds.push(eb('tasks.status', '=', 'active'));
      conds.push(eb.or([eb('tasks.deadline', 'is', null), eb('tasks.deadline', '>', filter.now)]));
    }
    if (filter.status) conds.push(eb('tasks.status', '=', filter.status));
    if (filter.category) conds.push(eb('tasks.category', '=', filter.category));
    if (filter.difficulty) conds.push(eb('tasks.difficulty', '=', filter.difficulty));
    if (filter.rewardRange) {
      const [above, upTo] = REWARD_BOUNDS[filter.rewardRange];
      if (above !== null) conds.push(eb('tasks.reward', '>', above));
      if (upTo !== null) conds.push(eb('tasks.reward', '<=', upTo));
    }
    // with a category, the category's entries of tasks_search_filter hold the folded text to
    // test; without one, the full-text index's matches are fewer than the tasks to test
    if (withSearch && filter.q)
      conds.push(filter.category ? tasksContainingScan(db, filter.q) : tasksContaining(db, filter.q));
    return eb.and(conds);
  };
}

/** Each sort's order after the featured tasks, as its tasks_order_<sort> index holds it. */
const SORT_ORDER: Record<TaskSort, string> = {
  newest: 'tasks.created_at DESC, tasks._id',
  oldest: 'tasks.created_at, tasks._id',
  highest_reward: 'tasks.reward DESC, tasks.created_at DESC, tasks._id',
  lowest_reward: 'tasks.reward, tasks.created_at DESC, tasks._id',
  // nulls last
  quickest: 'tasks.estimated_time IS NULL, tasks.estimated_time, tasks.created_at DESC, tasks._id',
  most_popular: 'tasks.total_completed DESC, tasks.created_at DESC, tasks._id',
};

/**
 * The statement of the ids of every task matching the filter, in the list's order: a search
 * puts the tasks whose title matches first; then featured tasks; then the sort, ties newest
 * first (oldest first for `oldest`), then by id. Without a search each sort walks its own index
 * (tasks_order_<sort>), which holds the order and every filtered column, so no task row is
 * read; a search within a category reads the category's entries of tasks_search_filter (the
 * folded text beside them) and each matching row, any other search starts from the full-text
 * index's matches; both sort what they found.
 */
export function taskIdsQuery(db: Conn, filter: TaskFilter, sort: TaskSort): CompiledQuery<TaskIdRow> {
  return filter.category ? byShape(db, filter, sort) : buildTaskIdsQuery(db, filter, sort);
}

/** A value no filter holds, standing for the n-th argument while a shape is compiled. */
const standIn = (n: number) => `\u0000task-filter-${n}\u0000`;

/** Compiled statements per engine and shape of filter (which conditions, which sort). */
const shapes = new Map<string, { query: CompiledQuery<TaskIdRow>; slots: ((args: string[]) => unknown)[] }>();

/**
 * taskIdsQuery of a filter with a category, compiled once per shape: a search that misses the
 * list cache spent a third of its statement's time building it with Kysely (0.1 ms against
 * 0.2-0.3 ms for SQLite to run it). The time, category, difficulty and search are stand-ins
 * while compiling; each parameter that is one (or the LIKE pattern of one) is made from the
 * call's values, the rest (the status, the reward bounds) are the shape's constants. Not for a
 * search without a category: whether it goes through the full-text index depends on the length
 * of its words.
 */
function byShape(db: Conn, filter: TaskFilter, sort: TaskSort): CompiledQuery<TaskIdRow> {
  const shape = JSON.stringify([
    dialectOf(db),
    filter.publicOnly,
    filter.status ?? null,
    filter.difficulty !== undefined,
    filter.rewardRange ?? null,
    Boolean(filter.q),
    sort,
  ]);
  let held = shapes.get(shape);
  if (!held) {
    const markers = [0, 1, 2, 3].map(standIn);
    const query = buildTaskIdsQuery(
      db,
      {
        ...filter,
        now: markers[0],
        category: markers[1] as TaskFilter['category'],
        difficulty: filter.difficulty && (markers[2] as TaskFilter['difficulty']),
        q: filter.q && markers[3],
      },
      sort,
    );
    const slots = query.parameters.map((p, i) => {
      const n = markers.indexOf(p as string);
      if (n >= 0) return (args: string[]) => args[n];
      const pattern = markers.findIndex((m) => containsPattern(m) === p);
      if (pattern >= 0) return (args: string[]) => containsPattern(args[pattern]);
      if (typeof p === 'string' && p.includes('\u0000task-filter-'))
        throw new Error(`taskIdsQuery: parameter ${i} is made from a filter's value in a way not known here`);
      return () => p;
    });
    // run again and again: PostgreSQL prepares it once per connection under its name
    nameStatement(query.sql);
    held = { query, slots };
    shapes.set(shape, held);
  }
  const args = [filter.now, filter.category ?? '', filter.difficulty ?? '', filter.q ?? ''];
  return { ...held.query, parameters: held.slots.map((slot) => slot(args)) };
}

function buildTaskIdsQuery(db: Conn, filter: TaskFilter, sort: TaskSort): CompiledQuery<TaskIdRow> {
  const source = filter.q && !filter.category ? tasksContainingSource(db, filter.q) : null;
  const where = whereFilter(db, filter, source === null)(expressionBuilder<DB, 'tasks'>());
  const order = [sql.raw(`tasks.is_featured DESC, ${SORT_ORDER[sort]}`)];
  if (filter.q) order.unshift(sql`${likeFolded(sql.ref('tasks.search_title'), filter.q)} DESC`);
  return sql<TaskIdRow>`SELECT tasks._id, tasks.deadline FROM ${source ?? sql.ref('tasks')} WHERE ${where}
    ORDER BY ${sql.join(order)}`.compile(db);
}

/** A row of taskIdsQuery: the id, and the deadline that will take it out of a public list. */
export interface TaskIdRow {
  _id: string;
  deadline: string | null;
}

/**
 * The ids of taskIdsQuery, in order, and for a public list the earliest deadline among them:
 * the moment the first of them leaves the list by time alone (null: none ever does). The
 * deadline is in every index the statement walks, so reading it costs no row.
 */
export async function listTaskIds(
  db: Conn,
  filter: TaskFilter,
  sort: TaskSort,
): Promise<{ ids: string[]; nextDeadline: string | null }> {
  const { rows } = await db.executeQuery(taskIdsQuery(db, filter, sort));
  const ids = new Array<string>(rows.length);
  let nextDeadline: string | null = null;
  for (let i = 0; i < rows.length; i++) {
    const { _id, deadline } = rows[i];
    ids[i] = _id;
    if (filter.publicOnly && deadline !== null && (nextDeadline === null || deadline < nextDeadline))
      nextDeadline = deadline;
  }
  return { ids, nextDeadline };
}

/** A task row of the list, with its comment pool's counts. */
export type TaskListRow = TaskRow & { comments_total: number | null; comments_used: number | null };

/**
 * Whether a row read by id still matches the filter's columns (its live columns from `live`
 * when they were read apart: TaskLiveRow), as whereFilter says without
 * the search (a test holds the two to the same answers). The page's ids may be up to two
 * seconds old; the text of a task only changes through the task service, which empties the
 * list cache, so the search needs no second look.
 */
export function taskMatches(
  row: TaskRow,
  filter: TaskFilter,
  live: Pick<TaskRow, 'deleted_at' | 'status' | 'deadline'> = row,
): boolean {
  if (live.deleted_at !== null) return false;
  if (
    filter.publicOnly &&
    (live.status !== 'active' || (live.deadline !== null && live.deadline <= filter.now))
  )
    return false;
  if (filter.status && live.status !== filter.status) return false;
  if (filter.category && row.category !== filter.category) return false;
  if (filter.difficulty && row.difficulty !== filter.difficulty) return false;
  if (filter.rewardRange) {
    const [above, upTo] = REWARD_BOUNDS[filter.rewardRange];
    if ((above !== null && row.reward <= above) || (upTo !== null && row.reward > upTo)) return false;
  }
  return true;
}

/**
 * The columns of a task row that change without a task write (approvals, starts, expiry,
 * reviews and appeals move the counts and the status; comments get used), and the deadline
 * the public list checks: a page reads these fresh every time. Every other column changes
 * only through the task service, which empties the list cache, so a page may take them from
 * rows read in the last 2 s (task-list-cache.ts TaskRowCache); so does the creator's name (an
 * admin renaming themselves shows on the list within 2 s).
 */
export type TaskLiveRow = Pick<
  TaskListRow,
  | '_id'
  | 'status'
  | 'max_completions'
  | 'reserved'
  | 'total_completed'
  | 'updated_at'
  | 'deleted_at'
  | 'deadline'
  | 'comments_total'
  | 'comments_used'
>;

const LIVE_COLUMNS = [
  'tasks._id',
  'tasks.status',
  'tasks.max_completions',
  'tasks.reserved',
  'tasks.total_completed',
  'tasks.updated_at',
  'tasks.deleted_at',
  'tasks.deadline',
] as const satisfies readonly `tasks.${keyof TaskLiveRow}`[];

/** The counts commentCounts selected with a row (absent columns count as none). */
export function countsOfRow(row: {
  comments_total: number | null;
  comments_used: number | null;
}): CommentCounts {
  return { total: Number(row.comments_total ?? 0), used: Number(row.comments_used ?? 0) };
}

/** The counts of a task's comment pool, as two correlated subqueries on its index. */
const commentCounts = (eb: ExpressionBuilder<DB, 'tasks'>) => [
  eb
    .selectFrom('task_comments as c')
    .select((c) => c.fn.countAll<number>().as('n'))
    .whereRef('c.task_id', '=', 'tasks._id')
    .as('comments_total'),
  eb
    .selectFrom('task_comments as c')
    .select((c) => c.fn.count<number>('c.used_by').as('n'))
    .whereRef('c.task_id', '=', 'tasks._id')
    .as('comments_used'),
];

/**
 * The page statement for `size` ids, compiled once by Kysely (so its SQL is the dialect's):
 * every column with the creator's name (`whole`), or only the live ones.
 */
function pageStatement(db: Conn, size: number, whole: boolean) {
  const ids = Array<string>(size).fill('');
  if (!whole)
    return db
      .selectFrom('tasks')
      .select(LIVE_COLUMNS)
      .select(commentCounts)
      .where('tasks._id', 'in', ids)
      .compile();
  return db
    .selectFrom('tasks')
    .select(TASK_COLUMNS)
    .select(creatorName)
    .select(commentCounts)
    .where('tasks._id', 'in', ids)
    .compile();
}
/** Compiled once per engine, page size and kind (the SQL text is the dialect's). */
const pageStatements = new Map<string, ReturnType<typeof pageStatement>>();

async function rowsByIds(db: Conn, ids: readonly string[], size: number, whole: boolean) {
  const key = `${dialectOf(db)}:${size}:${whole}`;
  let statement = pageStatements.get(key);
  if (!statement) {
    statement = pageStatement(db, size, whole);
    pageStatements.set(key, statement);
  }
  const parameters = ids.slice(0, size);
  while (parameters.length < size) parameters.push('');
  return (await db.executeQuery(withParameters(statement, parameters))).rows;
}

/**
 * The rows of one page, by id, in no particular order: one statement with the creator's name
 * and the comment counts, found by primary key. Its SQL is built once per page size and run
 * with the page's ids (padded with '', no task's id), so a page costs no query building and
 * always the same prepared statement.
 */
export async function tasksByIds(db: Conn, ids: readonly string[], size: number): Promise<TaskListRow[]> {
  return (await rowsByIds(db, ids, size, true)) as TaskListRow[];
}

/** The live columns (TaskLiveRow) of one page's tasks, by id, as tasksByIds reads them. */
export async function liveTasksByIds(db: Conn, ids: readonly string[], size: number): Promise<TaskLiveRow[]> {
  return (await rowsByIds(db, ids, size, false)) as TaskLiveRow[];
}

const doneStatements = new Map<string, CompiledQuery<{ task_id: string }>>();

/**
 * The tasks a user is done with, which the list hides from them: paid (at most one approved
 * submission per task and user: submissions_paid_once) or with a proof waiting for review
 * (pending counts as completed for the user). Built once, like the page. Remembered per user in
 * `reads` under the request's change stamp (db/change-stamp.ts): any write (a start, a proof, a
 * review, from any process) moves it, so a remembered list is the database's answer.
 */
export async function doneTaskIds(
  db: Conn,
  reads: StampedReads<string[]>,
  stamp: string | null,
  userId: string,
): Promise<string[]> {
  return reads.get(userId, stamp, () => readDoneTaskIds(db, userId));
}

async function readDoneTaskIds(db: Conn, userId: string): Promise<string[]> {
  const dialect = dialectOf(db);
  let doneStatement = doneStatements.get(dialect);
  if (!doneStatement) {
    doneStatement = db
      .selectFrom('submissions')
      .select('task_id')
      .where('user_id', '=', '')
      .where('status', 'in', ['approved', 'pending'])
      .compile();
    doneStatements.set(dialect, doneStatement);
  }
  const { rows } = await db.executeQuery(withParameters(doneStatement, [userId, 'approved', 'pending']));
  return rows.map((r) => r.task_id);
}
