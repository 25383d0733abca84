import type { AdminSubmissionDto, AdminUserDetailDto, AdminUserSummaryDto } from '@contract/admin';
import type { BulkReviewDto } from '@contract/bulk-review';
import type { ReviewedSubmissionDto, ReviewRequest } from '@contract/review';
import type { SubmissionDto, SubmissionSort } from '@contract/submissions';
import type { Page } from '@contract/types';
import type { WithdrawalDto } from '@contract/withdrawals';
import type { UserEditBody } from '../../features/admin/users/user-edit';
import { getData } from '../../lib/api';
import {
  type SubmissionListState,
  submissionListApiQuery,
  type UserListState,
  userListApiQuery,
  type WithdrawalListState,
  withdrawalListApiQuery,
} from './list-queries';

/** Everything under 'admin' is refreshed after a change, so the dashboard's counts follow too. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (state: UserListState) => ['admin', 'users', state] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  userSubmissions: (id: string, page: number) => ['admin', 'user', id, 'submissions', page] as const,
  userWithdrawals: (id: string, page: number) => ['admin', 'user', id, 'withdrawals', page] as const,
  submissions: (state: SubmissionListState) => ['admin', 'submissions', state] as const,
  withdrawals: (state: WithdrawalListState) => ['admin', 'withdrawals', state] as const,
  dashboard: (part: 'stats' | 'today' | 'withdrawals' | 'submissions') =>
    ['admin', 'dashboard', part] as const,
};

const id = (value: string) => encodeURIComponent(value);
const withKey = (key: string) => ({ 'Idempotency-Key': key });

export const HISTORY_PAGE_SIZE = 10;

export const fetchUsers = (state: UserListState, signal?: AbortSignal) =>
  getData<Page<AdminUserSummaryDto>>(`/admin/users${userListApiQuery(state)}`, { signal });

export const fetchUser = (userId: string, signal?: AbortSignal) =>
  getData<AdminUserDetailDto>(`/admin/users/${id(userId)}`, { signal });

export const updateUser = (userId: string, body: UserEditBody) =>
  getData<AdminUserDetailDto>(`/admin/users/${id(userId)}`, { method: 'PUT', body });

/** What a deletion found the user holding (the 409 user_has_money's `held`; balance in TL). */
export interface HeldByUser {
  balance: number;
  pendingWithdrawals: number;
  pendingSubmissions: number;
  pendingAppeals: number;
}

/** Deletes an account; with `forfeit` what it holds is settled and moved out in the same step. */
export const deleteUser = ({ userId, forfeit }: { userId: string; forfeit: boolean }) =>
  getData<{ _id: string; deleted: true; forfeited: HeldByUser & { endedRecords: number } }>(
    `/admin/users/${id(userId)}${forfeit ? '?forfeit=true' : ''}`,
    { method: 'DELETE' },
  );

const emptyPage = <T>(page: number): Page<T> => ({
  items: [],
  total: 0,
  page,
  limit: HISTORY_PAGE_SIZE,
  pages: 0,
});

/** The user's submissions; a failure becomes an empty list. */
export async function fetchUserSubmissions(userId: string, page: number, signal?: AbortSignal) {
  try {
    return await getData<Page<SubmissionDto>>(
      `/admin/users/${id(userId)}/submissions?page=${page}&limit=${HISTORY_PAGE_SIZE}`,
      { signal },
    );
  } catch {
    return emptyPage<SubmissionDto>(page);
  }
}

/**
 * The user's withdrawals: the user's own route, then the withdrawal list filtered by the user
 * as the fallback, then an empty list.
 */
export async function fetchUserWithdrawals(userId: string, page: number, signal?: AbortSignal) {
  const paging = `page=${page}&limit=${HISTORY_PAGE_SIZE}`;
  try {
    return await getData<Page<WithdrawalDto>>(`/admin/users/${id(userId)}/withdrawals?${paging}`, {
      signal,
    });
  } catch {
    try {
      return await getData<Page<WithdrawalDto>>(`/admin/withdraws?userId=${id(userId)}&${paging}`, {
        signal,
      });
    } catch {
      return emptyPage<WithdrawalDto>(page);
    }
  }
}

export const fetchSubmissions = (state: SubmissionListState, signal?: AbortSignal) =>
  getData<Page<AdminSubmissionDto>>(`/admin/submissions${submissionListApiQuery(state)}`, { signal });

export const reviewSubmission = (submissionId: string, request: ReviewRequest, key: string) =>
  getData<ReviewedSubmissionDto>(`/submissions/${id(submissionId)}/review`, {
    method: 'PUT',
    body: request,
    headers: withKey(key),
  });

/**
 * The pending ids matching the screen's search, its task or worker and its "Flagged" filter that
 * this admin may review (at most `limit`).
 */
export const fetchPendingIds = (filter: {
  q: string;
  task: string;
  user: string;
  flagged: boolean;
  sort: SubmissionSort;
}) => {
  const params = new URLSearchParams({ sort: filter.sort });
  if (filter.q) params.set('q', filter.q);
  if (filter.task) params.set('task', filter.task);
  if (filter.user) params.set('user', filter.user);
  if (filter.flagged) params.set('flagged', 'true');
  const query = params.toString();
  return getData<{ ids: string[]; total: number; limit: number }>(
    `/admin/submissions/pending-ids${query ? `?${query}` : ''}`,
  );
};

/** Many submissions decided alike, each its own money move; the reply lists each id's result. */
export const bulkReviewSubmissions = (ids: readonly string[], request: ReviewRequest, key: string) =>
  getData<BulkReviewDto>('/admin/submissions/review', {
    method: 'PUT',
    body: { ids, ...request },
    headers: withKey(key),
  });

/** Many pending withdrawals approved, or rejected with one reason (refunded), each on its own. */
export const bulkReviewWithdrawals = (
  ids: readonly string[],
  decision: { status: 'approved' } | { status: 'rejected'; reason: string },
  key: string,
) =>
  getData<BulkReviewDto>('/admin/withdraws/review', {
    method: 'PUT',
    body: { ids, ...decision },
    headers: withKey(key),
  });

export const fetchWithdrawals = (state: WithdrawalListState, signal?: AbortSignal) =>
  getData<Page<WithdrawalDto>>(`/admin/withdraws${withdrawalListApiQuery(state)}`, { signal });

export const approveWithdrawal = (withdrawalId: string, key: string) =>
  getData<WithdrawalDto>(`/admin/withdraws/${id(withdrawalId)}/approve`, {
    method: 'PUT',
    body: {},
    headers: withKey(key),
  });

export const rejectWithdrawal = (withdrawalId: string, reason: string, key: string) =>
  getData<WithdrawalDto>(`/admin/withdraws/${id(withdrawalId)}/reject`, {
    method: 'PUT',
    body: { reason },
    headers: withKey(key),
  });
