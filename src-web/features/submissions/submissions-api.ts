import { REVIEW_STATUSES, type ReviewStatus } from '@contract/constants';
import type { SubmissionDto } from '@contract/submissions';
import type { UserTaskDto } from '@contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { getData } from '../../lib/api';

/** The filter of the page: every submission, or one review status. */
export type SubmissionFilter = 'all' | ReviewStatus;
export const SUBMISSION_FILTERS: readonly SubmissionFilter[] = ['all', ...REVIEW_STATUSES];

export function readFilter(value: string | null): SubmissionFilter {
  return SUBMISSION_FILTERS.find((f) => f === value) ?? 'all';
}

export const mySubmissionsKey = (filter: SubmissionFilter) => ['submissions', 'mine', filter] as const;

/** The user's own submissions, newest first, with freshly signed proof URLs. */
export function useMySubmissions(filter: SubmissionFilter) {
  return useQuery({
    queryKey: mySubmissionsKey(filter),
    queryFn: ({ signal }) =>
      getData<SubmissionDto[]>(
        filter === 'all' ? '/submissions/user' : `/submissions/user?status=${filter}`,
        {
          signal,
        },
      ),
  });
}

/** POST /api/tasks/{id}/restart: a rejected task goes back to in progress. */
export const restartTask = (taskId: string) =>
  getData<UserTaskDto>(`/tasks/${encodeURIComponent(taskId)}/restart`, { method: 'POST' });
