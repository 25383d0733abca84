import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from '../../components/drawer';
import { usePageTitle } from '../../lib/page-title';
import { useSearchState } from '../../lib/use-search-state';
import { FilterPanel } from './filter-panel';
import { DEFAULT_FILTERS, hasAnyFilter, readFilters, type TaskFilters, writeFilters } from './task-filters';
import { TaskResults } from './task-results';
import { useTaskList } from './tasks-api';
import { TasksToolbar } from './tasks-toolbar';
import { useMediaQuery, WIDE_QUERY } from './use-media-query';

/** /tasks: search, filters (beside the list, or in a drawer on phones), sort, the cards and pages. */
export function TasksPage() {
  const { t } = useTranslation('tasks');
  usePageTitle(t('common:titles.tasks'));
  const { state: filters, patch } = useSearchState(readFilters, writeFilters);
  const wide = useMediaQuery(WIDE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const list = useTaskList(filters);

  const update = useCallback(
    (change: Partial<TaskFilters>, replace = false) => patch({ page: 1, ...change }, { replace }),
    [patch],
  );
  const clear = () => update({ ...DEFAULT_FILTERS, sort: filters.sort });
  const onPage = (page: number) => {
    update({ page });
    window.scrollTo({ top: 0 });
  };
  const clearButton = hasAnyFilter(filters) && (
    <button type="button" className="btn btn-outline btn-block" onClick={clear}>
      {t('list.clear')}
    </button>
  );

  return (
    <section className="container section tasks-page">
      <header className="page-head">
        <h1 data-testid="tasks-title">{t('list.title')}</h1>
        <p className="muted">{t('list.subtitle')}</p>
      </header>
      <div className="tasks-layout">
        {wide && (
          <aside className="card tasks-aside" aria-labelledby="filters-title">
            <h2 id="filters-title">{t('list.filters')}</h2>
            <FilterPanel idPrefix="side" filters={filters} onChange={update} />
            {clearButton}
          </aside>
        )}
        <div className="tasks-main">
          <TasksToolbar
            filters={filters}
            onChange={update}
            onOpenFilters={wide ? undefined : () => setDrawerOpen(true)}
          />
          <TaskResults list={list} filters={filters} onPage={onPage} onClear={clear} />
        </div>
      </div>
      {!wide && (
        <Drawer
          testId="filter-drawer"
          open={drawerOpen}
          title={t('list.filters')}
          onClose={() => setDrawerOpen(false)}
          footer={
            <>
              {clearButton}
              <button
                type="button"
                className="btn btn-primary btn-block"
                onClick={() => setDrawerOpen(false)}
                data-testid="drawer-show"
              >
                {list.data ? t('list.showResults', { count: list.data.total }) : t('list.show')}
              </button>
            </>
          }
        >
          <FilterPanel idPrefix="drawer" filters={filters} onChange={update} />
        </Drawer>
      )}
    </section>
  );
}
