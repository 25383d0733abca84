import type { LinkedAccountsDto } from '../../contract/fraud';
import type { SubmissionDto } from '../../contract/submissions';
import type { Page } from '../../contract/types';
import type { WithdrawalDto } from '../../contract/withdrawals';
import type { AppDeps } from '../../deps';
import { linkedAccountsOf, withFlags } from '../fraud/fraud.service';
import { toSubmissionDto } from '../submissions/submissions.mapper';
import { listUserSubmissions } from '../submissions/submissions.repository';
import { requireUserRow } from '../users/admin-users.service';
import { listWithdrawals } from '../withdrawals/admin-withdrawals.service';

type PageQuery = { page: number; limit: number };

/** GET /api/admin/users/{id}/submissions: the user's submissions, newest first, one page. */
export async function userSubmissionsPage(
  deps: Pick<AppDeps, 'db' | 'clock' | 'secret'>,
  id: string,
  query: PageQuery,
): Promise<Page<SubmissionDto>> {
  await requireUserRow(deps, id);
  // a user has at most a few submissions per task: their whole list is small
  const rows = await listUserSubmissions(deps.db, id);
  const signing = { secret: deps.secret, now: deps.clock() };
  const start = (query.page - 1) * query.limit;
  return {
    items: await withFlags(
      deps,
      rows.slice(start, start + query.limit).map((row) => toSubmissionDto(row, signing)),
    ),
    total: rows.length,
    page: query.page,
    limit: query.limit,
    pages: Math.ceil(rows.length / query.limit),
  };
}

/** GET /api/admin/users/{id}/withdrawals: the same as GET /api/admin/withdraws?userId={id}. */
export async function userWithdrawalsPage(
  deps: Pick<AppDeps, 'db'>,
  id: string,
  query: PageQuery,
): Promise<Page<WithdrawalDto>> {
  await requireUserRow(deps, id);
  return listWithdrawals(deps, { userId: id, page: query.page, limit: query.limit });
}

/** GET /api/admin/users/{id}/linked: the accounts sharing a payout account, a device or an address. */
export async function userLinkedAccounts(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  id: string,
): Promise<LinkedAccountsDto> {
  await requireUserRow(deps, id);
  return linkedAccountsOf(deps, id);
}
