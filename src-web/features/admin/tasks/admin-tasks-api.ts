import type { TaskDto, TaskSaveReply } from '@contract/tasks';
import type { Page } from '@contract/types';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, getData, request } from '../../../lib/api';

const taskPath = (id: string) => `/tasks/${encodeURIComponent(id)}`;

export const adminTaskKeys = {
  all: ['admin', 'tasks'] as const,
  list: (query: string) => ['admin', 'tasks', 'list', query] as const,
  detail: (id: string) => ['admin', 'tasks', 'detail', id] as const,
};

/** A 4xx will not change on a second try: only network and server failures are retried. */
function retryTransient(count: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return count < 1;
}

/** One page of every task (any status); the previous page stays on screen while the next loads. */
export function useAdminTaskList(query: string) {
  return useQuery({
    queryKey: adminTaskKeys.list(query),
    queryFn: ({ signal }) => getData<Page<TaskDto>>(`/tasks?${query}`, { signal }),
    placeholderData: keepPreviousData,
    retry: retryTransient,
  });
}

/** One task with its comment pool (admins get the texts and which were given out). */
export function useAdminTask(id: string | undefined) {
  return useQuery({
    queryKey: adminTaskKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getData<TaskDto>(taskPath(id ?? ''), { signal }),
    enabled: id !== undefined,
    staleTime: 0,
    refetchOnMount: 'always',
    retry: retryTransient,
  });
}

/** Creates (no id) or updates a task; the lists reload afterwards. */
export function useSaveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: Record<string, unknown> }) =>
      id
        ? request<TaskSaveReply>(taskPath(id), { method: 'PUT', body })
        : request<TaskSaveReply>('/tasks', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useFeatureTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isFeatured }: { id: string; isFeatured: boolean }) =>
      getData<TaskDto>(`${taskPath(id)}/feature`, { method: 'PUT', body: { isFeatured } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminTaskKeys.all }),
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => getData<{ _id: string }>(taskPath(id), { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
