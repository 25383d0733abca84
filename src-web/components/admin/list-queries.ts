import { ADMIN_USER_FILTERS, type AdminUserFilter } from '@contract/admin';
import { PAGE_SIZES, REVIEW_STATUSES, type ReviewStatus } from '@contract/constants';
import { SUBMISSION_PAGE_SIZES, SUBMISSION_SORTS, type SubmissionSort } from '@contract/submissions';

/** Lists of the admin screens keep their filters in the URL, so a reload or a shared link keeps them. */

export const USERS_PAGE_SIZE = PAGE_SIZES.adminUsers;
export const SUBMISSIONS_PAGE_SIZE = 10;
export const WITHDRAWALS_PAGE_SIZE = 10;

function readPage(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** Builds `?a=1&b=2` from the entries that are set; '' when none is. */
function queryString(entries: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

// ---- users ----

export interface UserListState {
  q: string;
  status: AdminUserFilter;
  page: number;
}

export function readUserList(params: URLSearchParams): UserListState {
  const status = ADMIN_USER_FILTERS.find((f) => f === params.get('status')) ?? 'all';
  return { q: (params.get('q') ?? '').trim(), status, page: readPage(params.get('page')) };
}

/** The URL search of the screen: defaults left out. */
export function userListSearch(state: UserListState): string {
  return queryString({
    q: state.q.trim(),
    status: state.status === 'all' ? undefined : state.status,
    page: state.page > 1 ? state.page : undefined,
  });
}

/** The query of GET /api/admin/users. */
export function userListApiQuery(state: UserListState): string {
  return queryString({
    q: state.q.trim(),
    status: state.status,
    page: state.page,
    limit: USERS_PAGE_SIZE,
  });
}

// ---- submissions ----

/** 'appeals': the rejected proofs whose appeal waits for a decision. */
export type SubmissionFilter = 'all' | ReviewStatus | 'appeals';
export const SUBMISSION_FILTERS: readonly SubmissionFilter[] = ['all', ...REVIEW_STATUSES, 'appeals'];

export interface SubmissionListState {
  status: SubmissionFilter;
  /** the task's title, or the sender's name or email */
  q: string;
  /** one task's proofs, one worker's proofs (ids; '' for any) */
  task: string;
  user: string;
  /** only the proofs with a fraud signal not dismissed (theirs or their worker's account's) */
  flagged: boolean;
  /** the order chosen; absent: the filter's own (submissionSort) */
  sort?: SubmissionSort;
  /** the page size chosen; absent: SUBMISSIONS_PAGE_SIZE */
  size?: number;
  page: number;
}

/**
 * The order a filter starts in: the proofs waiting for a decision (pending, appeals) oldest
 * first, so the worker who has waited longest is seen first; decided ones newest first (a
 * history, read from its latest).
 */
export function submissionSort(state: Pick<SubmissionListState, 'status' | 'sort'>): SubmissionSort {
  if (state.sort) return state.sort;
  return state.status === 'pending' || state.status === 'appeals' ? 'oldest' : 'newest';
}

export function submissionPageSize(state: Pick<SubmissionListState, 'size'>): number {
  return state.size ?? SUBMISSIONS_PAGE_SIZE;
}

/** `flagged=true` in the URL, as the API spells it. */
const readFlagged = (params: URLSearchParams) => params.get('flagged') === 'true';

const idParam = (v: string | null) => (v && /^[0-9a-f]{24}$/.test(v) ? v : '');

/** Pending is the default: the review queue is what the screen is for. */
export function readSubmissionList(params: URLSearchParams): SubmissionListState {
  const status = SUBMISSION_FILTERS.find((f) => f === params.get('status')) ?? 'pending';
  return {
    status,
    q: (params.get('q') ?? '').trim(),
    task: idParam(params.get('task')),
    user: idParam(params.get('user')),
    flagged: readFlagged(params),
    sort: SUBMISSION_SORTS.find((s) => s === params.get('sort')),
    size: SUBMISSION_PAGE_SIZES.find((n) => String(n) === params.get('size')),
    page: readPage(params.get('page')),
  };
}

export function submissionListSearch(state: SubmissionListState): string {
  const size = submissionPageSize(state);
  return queryString({
    status: state.status === 'pending' ? undefined : state.status,
    q: state.q || undefined,
    task: state.task || undefined,
    user: state.user || undefined,
    flagged: state.flagged ? 'true' : undefined,
    sort: state.sort && state.sort !== submissionSort({ status: state.status }) ? state.sort : undefined,
    size: size === SUBMISSIONS_PAGE_SIZE ? undefined : size,
    page: state.page > 1 ? state.page : undefined,
  });
}

export function submissionListApiQuery(state: SubmissionListState): string {
  return queryString({
    status: state.status === 'all' || state.status === 'appeals' ? undefined : state.status,
    appeal: state.status === 'appeals' ? 'pending' : undefined,
    q: state.q || undefined,
    task: state.task || undefined,
    user: state.user || undefined,
    flagged: state.flagged ? 'true' : undefined,
    sort: submissionSort(state),
    page: state.page,
    limit: submissionPageSize(state),
  });
}

// ---- withdrawals ----

export type WithdrawalFilter = 'all' | ReviewStatus;
export const WITHDRAWAL_FILTERS: readonly WithdrawalFilter[] = ['all', ...REVIEW_STATUSES];

export interface WithdrawalListState {
  status: WithdrawalFilter;
  /** calendar days, YYYY-MM-DD, or '' */
  from: string;
  to: string;
  q: string;
  /** only withdrawals with a fraud signal not dismissed (theirs or their account's) */
  flagged: boolean;
  page: number;
}

export const EMPTY_WITHDRAWAL_FILTERS: WithdrawalListState = {
  status: 'all',
  from: '',
  to: '',
  q: '',
  flagged: false,
  page: 1,
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const readDay = (value: string | null) => (value && ISO_DAY.test(value) ? value : '');

export function readWithdrawalList(params: URLSearchParams): WithdrawalListState {
  const status = WITHDRAWAL_FILTERS.find((f) => f === params.get('status')) ?? 'all';
  return {
    status,
    from: readDay(params.get('from')),
    to: readDay(params.get('to')),
    q: (params.get('q') ?? '').trim(),
    flagged: readFlagged(params),
    page: readPage(params.get('page')),
  };
}

export function withdrawalListSearch(state: WithdrawalListState): string {
  return queryString({
    status: state.status === 'all' ? undefined : state.status,
    from: state.from,
    to: state.to,
    q: state.q.trim(),
    flagged: state.flagged ? 'true' : undefined,
    page: state.page > 1 ? state.page : undefined,
  });
}

export function withdrawalListApiQuery(state: WithdrawalListState): string {
  return queryString({
    status: state.status === 'all' ? undefined : state.status,
    from: state.from,
    to: state.to,
    q: state.q.trim(),
    flagged: state.flagged ? 'true' : undefined,
    page: state.page,
    limit: WITHDRAWALS_PAGE_SIZE,
  });
}

/** Whether any filter differs from the defaults (the reset button is offered then). */
export function hasWithdrawalFilters(state: WithdrawalListState): boolean {
  return (
    state.status !== 'all' || state.from !== '' || state.to !== '' || state.q.trim() !== '' || state.flagged
  );
}

/** A date range whose start is after its end: nothing to ask the server, a message to show. */
export function isReversedRange(state: Pick<WithdrawalListState, 'from' | 'to'>): boolean {
  return state.from !== '' && state.to !== '' && state.from > state.to;
}
