import { useTranslation } from 'react-i18next';
import { Pagination } from '../../components/pagination';
import { Skeleton } from '../../components/skeleton';
import { TaskCard } from './task-card';
import { hasAnyFilter, type TaskFilters } from './task-filters';
import { useMyTaskOffers, type useTaskList } from './tasks-api';

/** The count of tasks found, the cards, the pages; or the loading, error or empty state. */
export function TaskResults({
  list,
  filters,
  onPage,
  onClear,
}: {
  list: ReturnType<typeof useTaskList>;
  filters: TaskFilters;
  onPage(page: number): void;
  onClear(): void;
}) {
  const { t } = useTranslation('tasks');
  const offerOf = useMyTaskOffers();
  if (list.isPending) return <Skeleton layout="cards" />;
  if (list.isError && !list.data) {
    return (
      <div className="card state-card" role="alert" data-testid="tasks-error">
        <p className="notice notice-error">{t('list.loadError')}</p>
        <button type="button" className="btn btn-primary" onClick={() => list.refetch()}>
          {t('common:actions.retry')}
        </button>
      </div>
    );
  }
  const data = list.data;
  const filtered = hasAnyFilter(filters);
  return (
    <div className={list.isPlaceholderData ? 'task-results is-updating' : 'task-results'}>
      <p className="tasks-count" aria-live="polite" data-testid="tasks-count">
        {t('list.found', { count: data.total })}
      </p>
      {data.items.length === 0 ? (
        <div className="card state-card" data-testid="tasks-empty">
          <h2>{t('list.emptyTitle')}</h2>
          <p className="muted">{filtered ? t('list.emptyFiltered') : t('list.emptyAll')}</p>
          {filtered && (
            <button type="button" className="btn btn-outline" onClick={onClear}>
              {t('list.clear')}
            </button>
          )}
        </div>
      ) : (
        <div className="task-grid">
          {data.items.map((task) => (
            <TaskCard key={task._id} task={task} offer={offerOf(task._id)} />
          ))}
        </div>
      )}
      <Pagination page={data.page} pages={data.pages} onPage={onPage} />
    </div>
  );
}
