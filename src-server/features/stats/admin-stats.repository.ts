import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** A half-open time window [from, to) of ISO texts; either end may be open. */
export interface TimeWindow {
  from?: string;
  to?: string;
}

const n = (row: { n: number | string | bigint | null } | undefined) => Number(row?.n ?? 0);

/** Live accounts (anonymised ones left out) created in the window. */
export async function countUsersCreated(db: Db, w: TimeWindow = {}): Promise<number> {
  let q = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deleted_at', 'is', null);
  if (w.from) q = q.where('created_at', '>=', w.from);
  if (w.to) q = q.where('created_at', '<', w.to);
  return n(await q.executeTakeFirst());
}

/** Tasks not deleted, created in the window. */
export async function countTasks(db: Db, w: TimeWindow = {}): Promise<number> {
  let q = db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deleted_at', 'is', null);
  if (w.from) q = q.where('created_at', '>=', w.from);
  if (w.to) q = q.where('created_at', '<', w.to);
  return n(await q.executeTakeFirst());
}

/** Submissions sent in the window, of one status when given. */
export async function countSubmissions(
  db: Db,
  filter: { status?: 'pending' | 'approved' | 'rejected' } & TimeWindow = {},
): Promise<number> {
  let q = db.selectFrom('submissions').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.from) q = q.where('created_at', '>=', filter.from);
  if (filter.to) q = q.where('created_at', '<', filter.to);
  return n(await q.executeTakeFirst());
}

/** Submissions approved or rejected (by review time) in the window. */
export async function countReviewed(db: Db, status: 'approved' | 'rejected', w: TimeWindow): Promise<number> {
  let q = db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status);
  if (w.from) q = q.where('reviewed_at', '>=', w.from);
  if (w.to) q = q.where('reviewed_at', '<', w.to);
  return n(await q.executeTakeFirst());
}

/** Kuruş: the rewards of submissions approved in the window (all of them without one). */
export async function sumApprovedRewards(db: Db, w: TimeWindow = {}): Promise<number> {
  let q = db
    .selectFrom('submissions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('reward'), eb.lit(0)).as('n'))
    .where('status', '=', 'approved');
  if (w.from) q = q.where('reviewed_at', '>=', w.from);
  if (w.to) q = q.where('reviewed_at', '<', w.to);
  return n(await q.executeTakeFirst());
}

/** The counters' metrics (migration 2026-11-25-1700-stat-counters keeps them by triggers). */
export type StatMetric = 'users' | 'tasks' | 'submissions' | 'pending' | 'approved' | 'rejected' | 'rewards';

/** Submissions per UTC day of created_at, in all and by status (the admins' list's deep pages). */
type DayMetric = 'days' | 'days_pending' | 'days_approved' | 'days_rejected';

/** A metric's all-time counter (bucket '*'): users, tasks, pending, rewards. */
export async function counterTotal(db: Db, metric: StatMetric): Promise<number> {
  // one row on SQLite; on PostgreSQL the counter's shards (migration stat-counters)
  const row = await db
    .selectFrom('stat_counters')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('value'), eb.lit(0)).as('n'))
    .where('metric', '=', metric)
    .where('bucket', '=', '*')
    .executeTakeFirst();
  return n(row);
}

/**
 * The sum of a metric's hourly buckets (keys 'YYYY-MM-DDTHH') after `after` (exclusive) or
 * from `from` (inclusive), and before `before` (exclusive); the all-time bucket left out.
 */
export async function counterHours(
  db: Db,
  metric: StatMetric,
  range: { after?: string; from?: string; before?: string },
): Promise<number> {
  let q = db
    .selectFrom('stat_counters')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('value'), eb.lit(0)).as('n'))
    .where('metric', '=', metric)
    .where('bucket', '>=', '0');
  if (range.after) q = q.where('bucket', '>', range.after);
  if (range.from) q = q.where('bucket', '>=', range.from);
  if (range.before) q = q.where('bucket', '<', range.before);
  return n(await q.executeTakeFirst());
}

/** A metric's hourly buckets from `from` (inclusive, an hour key) on, each summed over its shards. */
export async function counterBuckets(
  db: Db,
  metric: StatMetric,
  from: string,
): Promise<{ bucket: string; n: number }[]> {
  const rows = await db
    .selectFrom('stat_counters')
    .select((eb) => ['bucket', eb.fn.sum<number>('value').as('n')])
    .where('metric', '=', metric)
    .where('bucket', '>=', from)
    .groupBy('bucket')
    .execute();
  return rows.map((r) => ({ bucket: r.bucket, n: Number(r.n ?? 0) }));
}

/** Every counter row that is not zero, as `metric|bucket` -> value. */
export async function allCounters(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('stat_counters')
    .select((eb) => ['metric', 'bucket', eb.fn.sum<number>('value').as('value')])
    .groupBy(['metric', 'bucket'])
    .execute();
  return new Map(
    rows.filter((r) => Number(r.value) !== 0).map((r) => [`${r.metric}|${r.bucket}`, Number(r.value)]),
  );
}

/**
 * The counters recounted from the rows themselves (slow: it reads every row), in the shape of
 * allCounters, for `doctor` and the tests.
 */
export async function recountCounters(db: Db): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const put = (
    metric: StatMetric | DayMetric,
    rows: { bucket: string | null; n: number | string | bigint | null }[],
  ) => {
    for (const r of rows) {
      const v = Number(r.n ?? 0);
      if (r.bucket !== null && v !== 0) out.set(`${metric}|${r.bucket}`, v);
    }
  };
  const hourOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 13)`;
  for (const table of ['users', 'tasks'] as const) {
    const live = db.selectFrom(table).where('deleted_at', 'is', null);
    put(
      table,
      await live
        .select((eb) => [hourOf('created_at').as('bucket'), eb.fn.countAll<number>().as('n')])
        .groupBy(hourOf('created_at'))
        .execute(),
    );
    put(table, [
      { bucket: '*', n: n(await live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()) },
    ]);
  }
  const subs = db.selectFrom('submissions');
  put(
    'submissions',
    await subs
      .select((eb) => [hourOf('created_at').as('bucket'), eb.fn.countAll<number>().as('n')])
      .groupBy(hourOf('created_at'))
      .execute(),
  );
  put('pending', [{ bucket: '*', n: await countSubmissions(db, { status: 'pending' }) }]);
  // the admins' submission list reads its totals and its deep pages' days from these (migration
  // submission-counts)
  put('submissions', [{ bucket: '*', n: await countSubmissions(db) }]);
  const dayOf = sql<string>`substr(created_at, 1, 10)`;
  const days = (status?: 'pending' | 'approved' | 'rejected') =>
    (status ? subs.where('status', '=', status) : subs)
      .select((eb) => [dayOf.as('bucket'), eb.fn.countAll<number>().as('n')])
      .groupBy(dayOf)
      .execute();
  put('days', await days());
  for (const status of ['pending', 'approved', 'rejected'] as const)
    put(`days_${status}`, await days(status));
  for (const status of ['approved', 'rejected'] as const) {
    put(
      status,
      await subs
        .where('status', '=', status)
        .where('reviewed_at', 'is not', null)
        .select((eb) => [hourOf('reviewed_at').as('bucket'), eb.fn.countAll<number>().as('n')])
        .groupBy(hourOf('reviewed_at'))
        .execute(),
    );
  }
  put(
    'rewards',
    await subs
      .where('status', '=', 'approved')
      .where('reviewed_at', 'is not', null)
      .select((eb) => [hourOf('reviewed_at').as('bucket'), eb.fn.sum<number>('reward').as('n')])
      .groupBy(hourOf('reviewed_at'))
      .execute(),
  );
  put('rewards', [{ bucket: '*', n: await sumApprovedRewards(db) }]);
  return out;
}
