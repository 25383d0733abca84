import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** The instants [from, to) of a month in Turkey's time (UTC+3 all year). */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const at = (year: number, index: number) =>
    new Date(Date.UTC(year, index, 1) - 3 * 3_600_000).toISOString();
  return { from: at(y, m - 1), to: at(y, m) };
}

/**
 * A user's ledger with the balance after each row, the running sum over their whole history in
 * the order the rows were written (the id), then cut to the month when one is given.
 */
function withBalance(db: Db, userId: string, range: { from: string; to: string } | null) {
  const running = db
    .selectFrom('ledger')
    .select([
      'id',
      'amount',
      'kind',
      'ref',
      'created_at',
      sql<number>`sum(amount) over (order by id rows between unbounded preceding and current row)`.as(
        'balance_after',
      ),
    ])
    .where('user_id', '=', userId);
  let rows = db.selectFrom(running.as('l'));
  if (range) rows = rows.where('l.created_at', '>=', range.from).where('l.created_at', '<', range.to);
  return rows;
}

/** One page, newest first, each reward with its task's title. */
export async function statementPage(
  db: Db,
  userId: string,
  range: { from: string; to: string } | null,
  page: number,
  limit: number,
) {
  const rows = await withBalance(db, userId, range)
    .leftJoin('submissions as s', (join) =>
      join.onRef('s._id', '=', 'l.ref').on('l.kind', '=', 'reward').on('s.user_id', '=', userId),
    )
    .leftJoin('tasks as t', 't._id', 's.task_id')
    .select([
      'l.id',
      'l.amount',
      'l.kind',
      'l.created_at',
      'l.balance_after',
      's.task_id as task_id',
      't.title as task_title',
    ])
    .orderBy('l.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount), balance_after: Number(r.balance_after) }));
}

/** Every row of the filter, oldest first, for the CSV (a worker's history is small). */
export async function statementRows(db: Db, userId: string, range: { from: string; to: string } | null) {
  const rows = await withBalance(db, userId, range)
    .leftJoin('submissions as s', (join) =>
      join.onRef('s._id', '=', 'l.ref').on('l.kind', '=', 'reward').on('s.user_id', '=', userId),
    )
    .leftJoin('tasks as t', 't._id', 's.task_id')
    .select(['l.id', 'l.amount', 'l.kind', 'l.created_at', 'l.balance_after', 't.title as task_title'])
    .orderBy('l.id', 'asc')
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount), balance_after: Number(r.balance_after) }));
}

/** The count and the sums in and out over the filter (kuruş). */
export async function statementTotals(db: Db, userId: string, range: { from: string; to: string } | null) {
  const row = await withBalance(db, userId, range)
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn
        .sum<number>(eb.case().when('l.amount', '>', 0).then(eb.ref('l.amount')).else(0).end())
        .as('credits'),
      eb.fn
        .sum<number>(eb.case().when('l.amount', '<', 0).then(eb.ref('l.amount')).else(0).end())
        .as('debits'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), credits: Number(row.credits ?? 0), debits: Number(row.debits ?? 0) };
}
