import type { SubmissionDto } from '@contract/submissions';
import type { TaskDto, TaskSaveReply, UserTaskDto } from '@contract/tasks';
import type { Page } from '@contract/types';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { ApiError, getData, request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText } from '../../lib/errors';
import { type TaskOffer, taskOffer } from '../../lib/task-offer';
import { apiQuery, type TaskFilters } from './task-filters';

const taskPath = (id: string) => `/tasks/${encodeURIComponent(id)}`;

export const taskKeys = {
  all: ['tasks'] as const,
  mine: (viewer: string) => ['tasks', 'mine', viewer] as const,
  list: (filters: TaskFilters, viewer: string) => ['tasks', 'list', viewer, filters] as const,
  detail: (id: string, viewer: string) => ['tasks', 'detail', viewer, id] as const,
};

/** A 4xx will not change on a second try: only network and server failures are retried. */
function retryTransient(count: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return count < 1;
}

/** One page of the task list; the previous page stays on screen while the next loads. */
export function useTaskList(filters: TaskFilters) {
  const { user, loading } = useAuth();
  return useQuery({
    queryKey: taskKeys.list(filters, user?._id ?? 'guest'),
    queryFn: ({ signal }) => getData<Page<TaskDto>>(`/tasks?${apiQuery(filters)}`, { signal }),
    placeholderData: keepPreviousData,
    enabled: !loading,
    retry: retryTransient,
  });
}

/**
 * The offer of each task to the signed-in worker (from GET /api/tasks/user), by task id, for
 * the list's cards; nothing for visitors.
 */
export function useMyTaskOffers(): (taskId: string) => TaskOffer | undefined {
  const { user, loading } = useAuth();
  const records = useQuery({
    queryKey: taskKeys.mine(user?._id ?? 'guest'),
    queryFn: ({ signal }) => getData<UserTaskDto[]>('/tasks/user', { signal }),
    enabled: !loading && user !== null,
    retry: retryTransient,
  });
  const suspended = user?.status === 'suspended';
  return useMemo(() => {
    const byTask = new Map(
      (records.data ?? []).map((r) => [r.task._id, taskOffer(r, { suspended })] as const),
    );
    // a task never touched is open to an active account; a suspended one sees it blocked too
    const untouched = suspended ? taskOffer(null, { suspended }) : undefined;
    return (taskId: string) => byTask.get(taskId) ?? untouched;
  }, [records.data, suspended]);
}

/** One task, with the signed-in user's record of it (`userTask`). */
export function useTask(id: string) {
  const { user, loading } = useAuth();
  return useQuery({
    queryKey: taskKeys.detail(id, user?._id ?? 'guest'),
    queryFn: ({ signal }) => getData<TaskDto>(taskPath(id), { signal }),
    enabled: !loading,
    retry: retryTransient,
  });
}

export const startTask = (id: string) => getData<UserTaskDto>(`${taskPath(id)}/start`, { method: 'POST' });
export const restartTask = (id: string) =>
  getData<UserTaskDto>(`${taskPath(id)}/restart`, { method: 'POST' });

/** POST /api/submissions: the proof its task asks for (an image, a link, a code or a text) and a note. */
export function sendProof(
  taskId: string,
  proof: { file?: File; proofUrl?: string; proofText?: string; description: string },
): Promise<SubmissionDto> {
  const form = new FormData();
  form.set('task', taskId);
  form.set('description', proof.description);
  if (proof.proofUrl !== undefined) form.set('proofUrl', proof.proofUrl);
  if (proof.proofText !== undefined) form.set('proofText', proof.proofText);
  if (proof.file) form.set('proofImage', proof.file, proof.file.name);
  return getData<SubmissionDto>('/submissions', { method: 'POST', form });
}

export const saveTask = (id: string, body: Record<string, unknown>) =>
  request<TaskSaveReply>(taskPath(id), { method: 'PUT', body });

// codes that say nothing more than "it failed": the screen's own message is better
const GENERIC = new Set(['internal', 'bad_request', 'malformed_json', 'route_not_found', 'not_found']);

/** The server's reason in the user's language when it has one, else the action's own message. */
export function actionError(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError && !GENERIC.has(error.code) && error.status < 500) {
    return errorText(t, error, fallbackKey);
  }
  return t(fallbackKey);
}
