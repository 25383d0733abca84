import type { Db } from '../../db/database';

/** A half-open time window [from, to) of ISO texts; either end may be open. */
export interface TimeWindow {
  from?: string;
  to?: string;
}

const n = (row: { n: number | string | bigint | null } | undefined) => Number(row?.n ?? 0);

/** Live accounts (anonymised ones left out) created in the window. */
export async function countUsers(db: Db, w: TimeWindow = {}): Promise<number> {
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
