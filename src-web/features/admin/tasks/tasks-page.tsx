import type { Category } from '@contract/constants';
import type { TaskDto } from '@contract/tasks';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionError } from '../../../components/admin/action-error';
import { formatCount } from '../../../components/admin/growth';
import { Pagination } from '../../../components/pagination';
import { Skeleton } from '../../../components/skeleton';
import { useToast } from '../../../components/toast';
import { usePageTitle } from '../../../lib/page-title';
import { useSearchState } from '../../../lib/use-search-state';
import { resources } from '../../../locales';
import { useAdminTaskList, useDeleteTask, useFeatureTask } from './admin-tasks-api';
import { DeleteTaskModal } from './delete-task-modal';
import {
  readTaskListState,
  type TaskListFilter,
  type TaskListState,
  taskListApiQuery,
  writeTaskListState,
} from './task-list-query';
import { TaskTable } from './task-table';
import { TasksToolbar } from './tasks-toolbar';

const CATEGORY_LABELS: Record<Category, string>[] = [
  resources.tr.common.categories,
  resources.en.common.categories,
];

/** /admin/tasks: every task, searched and filtered in the address bar, 10 a page. */
export function AdminTasksPage() {
  const { t } = useTranslation('admin');
  usePageTitle(t('common:titles.adminTasks'));
  const toast = useToast();
  const { state, patch } = useSearchState(readTaskListState, writeTaskListState);
  const list = useAdminTaskList(taskListApiQuery(state, CATEGORY_LABELS));
  const feature = useFeatureTask();
  const remove = useDeleteTask();
  const [deleting, setDeleting] = useState<TaskDto | null>(null);

  const update = useCallback((change: Partial<TaskListState>) => patch({ page: 1, ...change }), [patch]);
  const onSearch = useCallback((q: string) => update({ q }), [update]);
  // past the last page (after a delete): go to the last one
  const pages = list.data?.pages ?? 0;
  useEffect(() => {
    if (pages > 0 && state.page > pages) update({ page: pages });
  }, [pages, state.page, update]);

  // starring moves the task to the top of the list: focus follows it there
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (!refocus || list.isFetching) return;
    document.querySelector<HTMLElement>(`[data-testid=feature-toggle][data-task-id="${refocus}"]`)?.focus();
    setRefocus(null);
  }, [refocus, list.isFetching]);
  const onFeature = (task: TaskDto) => {
    if (feature.isPending) return;
    feature.mutate(
      { id: task._id, isFeatured: !task.isFeatured },
      {
        onSuccess: () => {
          setRefocus(task._id);
          toast.success(t(task.isFeatured ? 'tasks.unfeatured' : 'tasks.featured', { title: task.title }));
        },
        onError: (err) => toast.error(actionError(t, err, 'admin:tasks.taskFeatureError')),
      },
    );
  };
  const onDelete = (task: TaskDto) =>
    remove.mutate(task._id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success(t('tasks.deleted', { title: task.title }));
      },
      onError: (err) => {
        setDeleting(null);
        toast.error(actionError(t, err, 'admin:tasks.taskDeleteError'));
      },
    });

  const data = list.data;
  return (
    <section className="admin-page" aria-labelledby="admin-tasks-title">
      <header className="admin-page-head">
        <div>
          <h1 id="admin-tasks-title">{t('tasks.title')}</h1>
          {data && (
            <p className="muted" data-testid="task-total">
              {t('tasks.total', { count: data.total, formatted: formatCount(data.total) })}
            </p>
          )}
        </div>
      </header>
      <TasksToolbar
        q={state.q}
        status={state.status}
        onSearch={onSearch}
        onStatus={(status: TaskListFilter) => update({ status })}
      />
      {list.isError && !data ? (
        <div className="notice notice-error admin-load-error" role="alert">
          <p>{t('tasks.taskManagerTaskLoadError')}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => list.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      ) : !data ? (
        <Skeleton layout="table" />
      ) : data.items.length === 0 ? (
        <p className="card admin-empty" data-testid="admin-tasks-empty">
          {t(state.q || state.status !== 'all' ? 'tasks.emptyFiltered' : 'tasks.empty')}
        </p>
      ) : (
        <div className={list.isPlaceholderData ? 'is-updating' : undefined}>
          <TaskTable
            tasks={data.items}
            featuring={feature.isPending ? (feature.variables?.id ?? null) : null}
            onFeature={onFeature}
            onDelete={setDeleting}
          />
          <Pagination page={state.page} pages={data.pages} onPage={(page) => update({ page })} />
        </div>
      )}
      <DeleteTaskModal
        task={deleting}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
      />
    </section>
  );
}
