import { TIMINGS_MS } from '@contract/constants';
import type { TaskDto } from '@contract/tasks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { actionError, restartTask, startTask, taskKeys } from './tasks-api';

/** Start and restart of one task: the record replaces the old one at once, then all task data refreshes. */
export function useTaskProgress(task: TaskDto, onStarted?: () => void) {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const key = taskKeys.detail(task._id, user?._id ?? 'guest');

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
  const keepRecord = (record: TaskDto['userTask']) =>
    queryClient.setQueryData<TaskDto>(key, (old) => (old ? { ...old, userTask: record } : old));
  // the server knows better than this page: a second tab started or sent it already
  const staleState = (err: unknown) =>
    err instanceof ApiError && ['task_already_started', 'task_not_restartable'].includes(err.code);

  const start = useMutation({
    mutationFn: () => startTask(task._id),
    onSuccess: (record) => {
      keepRecord(record);
      toast.success(t('detail.startSuccess'), TIMINGS_MS.startToast);
      onStarted?.();
      void refresh();
    },
    onError: (err) => {
      if (staleState(err)) void refresh();
    },
  });

  const restart = useMutation({
    mutationFn: () => restartTask(task._id),
    onSuccess: (record) => {
      keepRecord(record);
      toast.success(t('state.restartSuccess'));
      onStarted?.();
      void refresh();
    },
    onError: (err) => {
      toast.error(actionError(t, err, 'tasks:state.restartError'));
      if (staleState(err)) void refresh();
    },
  });

  return {
    start: () => start.mutate(),
    starting: start.isPending,
    startError: start.isError ? actionError(t, start.error, 'tasks:detail.startError') : null,
    restart: () => restart.mutate(),
    restarting: restart.isPending,
    refresh,
  };
}
