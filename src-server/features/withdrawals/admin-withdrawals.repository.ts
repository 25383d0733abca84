import { type SqlBool, sql } from 'kysely';
import type { AdminWithdrawalsQuery } from '../../contract/withdrawals';
import type { Db } from '../../db/database';
import { pageWindow } from '../../db/paging';
import { containsPattern, foldSearch, likeFolded } from '../../db/search';
import { hasOpenFlag } from '../fraud/fraud.repository';
import type { Tx } from '../money/ledger';
import { type WithdrawalRow, withdrawalsWithUser } from './withdrawals.repository';

/** Turkey keeps UTC+3 all year: the admin's calendar days are cut at 21:00 UTC. */
const TURKEY_OFFSET = '+03:00';
const DAY_MS = 86_400_000;

function dayStart(date: string, plusDays = 0): string {
  return new Date(Date.parse(`${date}T00:00:00${TURKEY_OFFSET}`) + plusDays * DAY_MS).toISOString();
}

function filtered(db: Db, f: AdminWithdrawalsQuery) {
  let query = withdrawalsWithUser(db);
  if (f.status) query = query.where('w.status', '=', f.status);
  if (f.userId) query = query.where('w.user_id', '=', f.userId);
  if (f.from) query = query.where('w.created_at', '>=', dayStart(f.from));
  if (f.to) query = query.where('w.created_at', '<', dayStart(f.to, 1));
  if (f.flagged) query = query.where(hasOpenFlag('w._id', 'w.user_id'));
  if (f.q) {
    // names folded (users.name_search, withdrawals.full_name_search); account numbers are
    // stored without spaces and in upper case
    const folded = foldSearch(f.q);
    const compact = containsPattern(f.q.replace(/\s+/g, '').toUpperCase());
    query = query.where((eb) =>
      eb.or([
        // the account's folded name, looked up by the withdrawal's user (the rows carry no join)
        eb.exists(
          eb
            .selectFrom('users as u')
            .select('u._id')
            .whereRef('u._id', '=', 'w.user_id')
            .where(likeFolded(sql.ref('u.name_search'), folded)),
        ),
        likeFolded(sql.ref('w.full_name_search'), folded),
        sql<SqlBool>`w.account_number like ${compact} escape '\\'`,
      ]),
    );
  }
  return query;
}

/** The filters that need no join, on the withdrawals table alone. */
function ownFilters(db: Db, f: AdminWithdrawalsQuery) {
  let query = db.selectFrom('withdrawals');
  if (f.status) query = query.where('status', '=', f.status);
  if (f.userId) query = query.where('user_id', '=', f.userId);
  if (f.from) query = query.where('created_at', '>=', dayStart(f.from));
  if (f.to) query = query.where('created_at', '<', dayStart(f.to, 1));
  if (f.flagged) query = query.where(hasOpenFlag('withdrawals._id', 'withdrawals.user_id'));
  return query;
}

/**
 * One page of withdrawals matching the filters, newest first, and the total count. Without a
 * search the count and the page read only the withdrawals indexes (every withdrawal has its
 * user, who is never removed) and the page's rows are joined afterwards; a deep page walks the
 * index from its nearer end (db/paging.ts).
 */
export async function pageWithdrawals(
  db: Db,
  f: AdminWithdrawalsQuery,
): Promise<{ rows: WithdrawalRow[]; total: number }> {
  const offset = (f.page - 1) * f.limit;
  if (!f.q) {
    const counted = await ownFilters(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(counted.n);
    const window = pageWindow(total, offset, f.limit);
    if (!window) return { rows: [], total };
    const pageIds = ownFilters(db, f)
      .select('_id')
      .orderBy('created_at', window.direction)
      .orderBy('_id', window.direction)
      .limit(window.limit)
      .offset(window.offset);
    const rows = await withdrawalsWithUser(db)
      .where('w._id', 'in', pageIds)
      .orderBy('w.created_at', 'desc')
      .orderBy('w._id', 'desc')
      .execute();
    return { rows, total };
  }
  const counted = await filtered(db, f)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, f)
    .orderBy('w.created_at', 'desc')
    .orderBy('w._id', 'desc')
    .limit(f.limit)
    .offset(offset)
    .execute();
  return { rows, total: Number(counted.n) };
}

/** pending -> approved|rejected in one conditional statement; 0 when it was not pending. */
export async function settleWithdrawal(
  tx: Tx,
  id: string,
  status: 'approved' | 'rejected',
  v: { adminId: string; now: string; reason: string | null },
): Promise<number> {
  const result = await tx
    .updateTable('withdrawals')
    .set({
      status,
      rejection_reason: v.reason,
      reviewed_by: v.adminId,
      reviewed_at: v.now,
      updated_at: v.now,
    })
    .where('_id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
