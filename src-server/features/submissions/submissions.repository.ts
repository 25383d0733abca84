import {
  type ExpressionBuilder,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  sql,
} from 'kysely';
import type { ReviewStatus } from '../../contract/constants';
import type { SubmissionSort } from '../../contract/submissions';
import { pageWindow } from '../../db/paging';
import type { DB, SubmissionsTable } from '../../db/schema';
import { foldSearch, likeFolded } from '../../db/search';
import { hasOpenFlag } from '../fraud/fraud.repository';
import type { Conn } from '../tasks/tasks.repository';

/** A submission with its task's headline and its sender's name. */
export interface SubmissionRow extends Selectable<SubmissionsTable> {
  task_title: string;
  task_reward: number;
  user_name: string;
  /** its record's status, and whether it is the record's newest proof (not restarted since) */
  record_status: string;
  is_latest: number;
  appeal_message: string | null;
  appeal_status: 'pending' | 'upheld' | 'overturned' | null;
  appeal_created_at: string | null;
  appeal_decided_at: string | null;
  appeal_response: string | null;
}

export async function insertSubmission(db: Conn, row: Insertable<SubmissionsTable>): Promise<void> {
  await db.insertInto('submissions').values(row).execute();
}

/**
 * The admins' search on submissions (the review screen and its export): the task's title, the
 * sender's name or email contains the query, Turkish folded like every other search (db/search.ts;
 * emails are stored lower-case ASCII, folded already). Aliases: `t` tasks, `u` users.
 */
export function submissionSearch(q: string) {
  const folded = foldSearch(q);
  return sql<SqlBool>`(${likeFolded(sql.ref('t.search_title'), folded)} OR ${likeFolded(sql.ref('u.name_search'), folded)} OR ${likeFolded(sql.ref('u.email'), folded)})`;
}

/**
 * The ORDER BY of an admins' list (alias `s`) in each sort; every one ends on the id so a page
 * never shares a row with the next. Ties of reward or flag go oldest first: within them, the
 * worker who waited longest comes first as well.
 */
function submissionOrder(sort: SubmissionSort): [RawBuilder<unknown>, 'asc' | 'desc'][] {
  const oldest: [RawBuilder<unknown>, 'asc' | 'desc'][] = [
    [sql.ref('s.created_at'), 'asc'],
    [sql.ref('s._id'), 'asc'],
  ];
  switch (sort) {
    case 'newest':
      return [
        [sql.ref('s.created_at'), 'desc'],
        [sql.ref('s._id'), 'desc'],
      ];
    case 'reward':
      return [[sql.ref('s.reward'), 'desc'], ...oldest];
    case 'flagged':
      return [[sql`CASE WHEN ${hasOpenFlag('s._id', 's.user_id')} THEN 0 ELSE 1 END`, 'asc'], ...oldest];
    default:
      return oldest;
  }
}

/** A submission's (alias `s`) task title and reward and its sender's name, each a subquery on a key. */
export function submissionHeadline(eb: ExpressionBuilder<DB & { s: DB['submissions'] }, 's'>) {
  const task = () => eb.selectFrom('tasks as t').whereRef('t._id', '=', 's.task_id');
  return [
    task().select('t.title').$asScalar().$notNull().as('task_title'),
    task().select('t.reward').$asScalar().$notNull().as('task_reward'),
    eb
      .selectFrom('users as u')
      .select('u.name')
      .whereRef('u._id', '=', 's.user_id')
      .$asScalar()
      .$notNull()
      .as('user_name'),
  ] as const;
}

/**
 * Submissions (alias `s`) with their task's headline, their sender's name, their record's status
 * and their appeal, each a subquery on a key rather than a join: SQLite 3.54 reads each column of
 * a statement of several tables for about half a microsecond, a few hundredths with one table in
 * the FROM (docs/decisions.md, "Joins on the hot paths"), and a page of these rows has thirty
 * columns each. A submission's task, user and record always exist (foreign keys; none is ever
 * removed); it has at most one appeal (its key).
 */
function withNames(db: Conn) {
  return db
    .selectFrom('submissions as s')
    .selectAll('s')
    .select((eb) => {
      const appeal = () => eb.selectFrom('appeals as a').whereRef('a.submission_id', '=', 's._id');
      return [
        ...submissionHeadline(eb),
        eb
          .selectFrom('user_tasks as ut')
          .select('ut.status')
          .whereRef('ut._id', '=', 's.user_task_id')
          .$asScalar()
          .$notNull()
          .as('record_status'),
        appeal().select('a.message').as('appeal_message'),
        appeal().select('a.status').as('appeal_status'),
        appeal().select('a.created_at').as('appeal_created_at'),
        appeal().select('a.decided_at').as('appeal_decided_at'),
        appeal().select('a.response').as('appeal_response'),
        sql<number>`NOT EXISTS (SELECT 1 FROM submissions n WHERE n.user_task_id = s.user_task_id AND n.created_at > s.created_at)`.as(
          'is_latest',
        ),
      ];
    });
}

export function findSubmission(db: Conn, id: string): Promise<SubmissionRow | undefined> {
  return withNames(db).where('s._id', '=', id).executeTakeFirst();
}

/** A user's own submissions, newest first. */
export function listUserSubmissions(
  db: Conn,
  userId: string,
  status?: ReviewStatus,
): Promise<SubmissionRow[]> {
  let query = withNames(db).where('s.user_id', '=', userId);
  if (status) query = query.where('s.status', '=', status);
  return query.orderBy('s.created_at', 'desc').orderBy('s._id', 'desc').execute();
}

/**
 * How many submissions there are, of one status or in all, from the counters the database's
 * triggers keep in the same transaction as every insert, delete and change of status (migration
 * submission-counts): the all-time one (one row on SQLite, its shards on PostgreSQL), or the
 * sum of a status's days. Counting the index instead read every entry of it, a million at the
 * bench's scale, on every page of the admins' list.
 */
export async function countedSubmissions(db: Conn, status?: ReviewStatus): Promise<number> {
  const sum = db
    .selectFrom('stat_counters')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('value'), eb.lit(0)).as('n'));
  const row = await (status
    ? sum.where('metric', '=', `days_${status}`).where('bucket', '>=', '0')
    : sum.where('metric', '=', 'submissions').where('bucket', '=', '*')
  ).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The UTC day (YYYY-MM-DD) of created_at that holds the submission `position` places from one
 * end of the list by date (of one status, or all), `asc` counting from the oldest, and how many
 * of that day's come before it from that end: the day counters the triggers keep (migration
 * submission-counts) summed from that end. A deep page then skips only within one day instead
 * of walking up to half the index (100,000 entries at 1,000,000 submissions). Null when the
 * counters hold fewer rows than the position (they never should: the caller then skips the
 * whole way, as before).
 */
async function dayOfPosition(
  db: Conn,
  status: ReviewStatus | undefined,
  direction: 'asc' | 'desc',
  position: number,
): Promise<{ day: string; skip: number } | null> {
  const metric: string = status ? `days_${status}` : 'days';
  const days = await db
    .selectFrom('stat_counters')
    .select((eb) => ['bucket', eb.fn.sum<number>('value').as('n')])
    .where('metric', '=', metric)
    .where('bucket', '>=', '0')
    .groupBy('bucket')
    .orderBy('bucket', direction)
    .execute();
  let before = 0;
  for (const { bucket, n } of days) {
    const count = Number(n);
    if (before + count > position) return { day: bucket, skip: position - before };
    before += count;
  }
  return null;
}

/** The day after a 'YYYY-MM-DD': the first created_at text that sorts after every one of `day`. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Every submission (admins) in one of the sorts, filtered by status and a search on task and
 * sender. Without a search, in date order, the total is a counter (countedSubmissions) and the
 * page reads only the submissions indexes (every submission has its task and its user: foreign
 * keys, and neither is ever removed), and the rows of the page are joined afterwards; a deep
 * page starts from its nearer end (db/paging.ts) at the day that holds its first row
 * (dayOfPosition).
 */
export async function listSubmissions(
  db: Conn,
  filter: {
    status?: ReviewStatus;
    q?: string;
    appealPending?: boolean;
    taskId?: string;
    userId?: string;
    flagged?: boolean;
  },
  page: { offset: number; limit: number },
  sort: SubmissionSort = 'newest',
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const byDate = sort === 'newest' || sort === 'oldest';
  if (byDate && !filter.q && !filter.appealPending && !filter.taskId && !filter.userId && !filter.flagged) {
    let ids = db.selectFrom('submissions').select('_id');
    if (filter.status) ids = ids.where('status', '=', filter.status);
    // exact: the counters change in the transaction of every row change they count
    const total = await countedSubmissions(db, filter.status);
    const window = pageWindow(total, page.offset, page.limit);
    if (!window) return { rows: [], total };
    // the window is worked out for newest first; oldest first reads the index the other way
    const flip = { asc: 'desc', desc: 'asc' } as const;
    const direction = sort === 'oldest' ? flip[window.direction] : window.direction;
    let skip = window.offset;
    const from = skip > 0 ? await dayOfPosition(db, filter.status, direction, skip) : null;
    if (from) {
      ids =
        direction === 'asc'
          ? ids.where('created_at', '>=', from.day)
          : ids.where('created_at', '<', nextDay(from.day));
      skip = from.skip;
    }
    const pageIds = ids
      .orderBy('created_at', direction)
      .orderBy('_id', direction)
      .limit(window.limit)
      .offset(skip);
    let rows = withNames(db).where('s._id', 'in', pageIds);
    for (const [by, dir] of submissionOrder(sort)) rows = rows.orderBy(by, dir);
    return { rows: await rows.execute(), total };
  }
  // the filters on the submissions, their task and sender joined only for a search (it reads
  // both; a status alone counted 50,000 pending rows in 1 ms, 100 with the joins); the page's ids
  // from there, then its rows by id without the joins (withNames)
  const q = filter.q;
  let matching = db.selectFrom('submissions as s').$if(Boolean(q), (qb) =>
    qb
      .innerJoin('tasks as t', 't._id', 's.task_id')
      .innerJoin('users as u', 'u._id', 's.user_id')
      .where(submissionSearch(q ?? '')),
  );
  if (filter.status) matching = matching.where('s.status', '=', filter.status);
  // one task's or one worker's proofs (indexes submissions_task, submissions_user)
  if (filter.taskId) matching = matching.where('s.task_id', '=', filter.taskId);
  if (filter.userId) matching = matching.where('s.user_id', '=', filter.userId);
  // a fraud signal not dismissed, on the proof or its worker's account
  if (filter.flagged) matching = matching.where(hasOpenFlag('s._id', 's.user_id'));
  if (filter.appealPending) {
    const pending = db.selectFrom('appeals').select('submission_id').where('status', '=', 'pending');
    matching = matching.where('s._id', 'in', pending);
  }
  const counted = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let pageIds = matching.select('s._id');
  for (const [by, dir] of submissionOrder(sort)) pageIds = pageIds.orderBy(by, dir);
  let rows = withNames(db).where('s._id', 'in', pageIds.limit(page.limit).offset(page.offset));
  for (const [by, dir] of submissionOrder(sort)) rows = rows.orderBy(by, dir);
  return { rows: await rows.execute(), total: Number(counted.n) };
}

/**
 * The ids of pending submissions matching the review screen's search, in the list's order, at
 * most `limit`, leaving out `exceptUserId`'s own (an admin cannot review them): what
 * "select all matching" hands to a bulk review.
 */
export async function pendingSubmissionIds(
  db: Conn,
  filter: { q?: string; taskId?: string; userId?: string; flagged?: boolean; exceptUserId: string },
  limit: number,
  sort: SubmissionSort = 'newest',
): Promise<{ ids: string[]; total: number }> {
  let base = db
    .selectFrom('submissions as s')
    .innerJoin('tasks as t', 't._id', 's.task_id')
    .innerJoin('users as u', 'u._id', 's.user_id')
    .where('s.status', '=', 'pending')
    .where('s.user_id', '<>', filter.exceptUserId);
  if (filter.q) base = base.where(submissionSearch(filter.q));
  if (filter.taskId) base = base.where('s.task_id', '=', filter.taskId);
  if (filter.userId) base = base.where('s.user_id', '=', filter.userId);
  if (filter.flagged) base = base.where(hasOpenFlag('s._id', 's.user_id'));
  let ordered = base.select('s._id');
  for (const [by, dir] of submissionOrder(sort)) ordered = ordered.orderBy(by, dir);
  const [rows, count] = await Promise.all([
    ordered.limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r._id), total: Number(count.n) };
}

/** proofFilesNamed's statement for one batch of names, unrun (its plan is checked: an index per name). */
export function proofsNaming(db: Conn, names: string[]) {
  return db
    .selectFrom('submissions')
    .select(['proof_file', 'proof_thumb'])
    .where((eb) => eb.or([eb('proof_file', 'in', names), eb('proof_thumb', 'in', names)]));
}

/** Which of these proof file names a submission refers to (its proof or its thumbnail). */
export async function proofFilesNamed(db: Conn, names: string[]): Promise<Set<string>> {
  const named = new Set<string>();
  for (let i = 0; i < names.length; i += 500) {
    const rows = await proofsNaming(db, names.slice(i, i + 500)).execute();
    for (const r of rows) {
      if (r.proof_file) named.add(r.proof_file);
      if (r.proof_thumb) named.add(r.proof_thumb);
    }
  }
  return named;
}

/** A proof the backfill gives its thumbnail and prints to. */
export interface ProofToBackfill {
  _id: string;
  proof_file: string;
  proof_thumb: string | null;
  user_id: string;
  task_id: string;
  created_at: string;
}

/**
 * Proofs that have no thumbnail or no print yet (stored before either existed, or before the
 * current kind of print), oldest first after `after` (created_at and id): each is judged for
 * duplicates against the older ones, which by then have theirs (the background backfill).
 */
export function proofsWithoutPrint(db: Conn, after: { at: string; id: string }, limit: number) {
  return proofBacklog(db, after, limit).execute() as Promise<ProofToBackfill[]>;
}

/** proofsWithoutPrint's statement, unrun (its plan is checked: the backlog's own index). */
export function proofBacklog(db: Conn, after: { at: string; id: string }, limit: number) {
  return db
    .selectFrom('submissions')
    .select(['_id', 'proof_file', 'proof_thumb', 'user_id', 'task_id', 'created_at'])
    .where('proof_print', 'is', null)
    .where('proof_file', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('created_at', '>', after.at),
        eb.and([eb('created_at', '=', after.at), eb('_id', '>', after.id)]),
      ]),
    )
    .orderBy('created_at')
    .orderBy('_id')
    .limit(limit);
}

/**
 * Records a proof's fingerprints and lookup bands, and its thumbnail when `thumb` is given (it
 * had none), unless another writer did first; true when written.
 */
export async function setProofDerivatives(
  db: Conn,
  id: string,
  thumb: string | null,
  lookup: Pick<
    Insertable<SubmissionsTable>,
    'proof_hash' | 'proof_print' | 'proof_b0' | 'proof_b1' | 'proof_b2' | 'proof_b3' | 'proof_b4' | 'proof_b5'
  >,
): Promise<boolean> {
  let update = db
    .updateTable('submissions')
    .set({ ...lookup, ...(thumb && { proof_thumb: thumb }) })
    .where('_id', '=', id)
    .where('proof_print', 'is', null);
  if (thumb) update = update.where('proof_thumb', 'is', null);
  const res = await update.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
