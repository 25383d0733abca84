import type { AdminSubmissionDto } from '../../contract/admin';
import { MAX_BULK_IDS } from '../../contract/bulk-review';
import type { SubmissionDto, SubmissionSort } from '../../contract/submissions';
import type { Page } from '../../contract/types';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { withFlags } from '../fraud/fraud.service';
import { type AccountOf, accountsOf, commentsOf } from './admin-submissions.repository';
import { toSubmissionDto } from './submissions.mapper';
import { findSubmission, pendingSubmissionIds } from './submissions.repository';
import { allSubmissions } from './submissions.service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'secret'>;

/**
 * What the admin sees beside a submission: the worker's email and account standing (a ban and its
 * reason), and the automatic comment they were given.
 */
function standing(account: AccountOf | undefined) {
  return {
    email: account?.email ?? '',
    status: account?.status ?? 'active',
    banReason: account?.status === 'banned' ? account.ban_reason : null,
  };
}

async function withEmails(deps: Deps, items: SubmissionDto[]): Promise<AdminSubmissionDto[]> {
  const [accounts, comments] = await Promise.all([
    accountsOf(
      deps.db,
      items.map((s) => s.user._id),
    ),
    commentsOf(
      deps.db,
      items.map((s) => s._id),
    ),
  ]);
  return withFlags(
    deps,
    items.map((s) => ({
      ...s,
      user: { ...s.user, ...standing(accounts.get(s.user._id)) },
      automaticComment: comments.get(s._id) ?? null,
    })),
  );
}

/** GET /api/admin/submissions: one page in the asked order, with a status filter and a search. */
export async function adminSubmissions(
  deps: Deps,
  query: Parameters<typeof allSubmissions>[1],
): Promise<Page<AdminSubmissionDto>> {
  const page = await allSubmissions(deps, query);
  return { ...page, items: await withEmails(deps, page.items) };
}

/** GET /api/admin/submissions/{id}: one submission as the review screen shows it (a duplicate's match). */
export async function adminSubmission(deps: Deps, id: string): Promise<AdminSubmissionDto> {
  const row = await findSubmission(deps.db, id);
  if (!row) throw fail.notFound('submission_not_found');
  const [item] = await withEmails(deps, [toSubmissionDto(row, { secret: deps.secret, now: deps.clock() })]);
  return item;
}

/** GET /api/admin/submissions/recent: the newest submissions of any status. */
export async function recentSubmissions(deps: Deps, limit: number): Promise<AdminSubmissionDto[]> {
  const page = await allSubmissions(deps, { page: 1, limit });
  return withEmails(deps, page.items);
}

/**
 * GET /api/admin/submissions/pending-ids: the pending submissions matching the search that this
 * admin may review, at most MAX_BULK_IDS of them, and how many match in all.
 */
export function reviewableIds(
  deps: Deps,
  adminId: string,
  filter: { q?: string; task?: string; user?: string; flagged?: boolean; sort?: SubmissionSort },
): Promise<{ ids: string[]; total: number; limit: number }> {
  const query = {
    q: filter.q,
    taskId: filter.task,
    userId: filter.user,
    flagged: filter.flagged,
    exceptUserId: adminId,
  };
  return pendingSubmissionIds(deps.db, query, MAX_BULK_IDS, filter.sort).then((r) => ({
    ...r,
    limit: MAX_BULK_IDS,
  }));
}
