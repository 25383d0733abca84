import { TASK_SORTS, type TaskSort } from '@contract/constants';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activeFilterCount, type TaskFilters } from './task-filters';

const SEARCH_DELAY_MS = 350;

/** The search box (applied while typing, after a short pause), the filter button on phones, the sort. */
export function TasksToolbar({
  filters,
  onChange,
  onOpenFilters,
}: {
  filters: TaskFilters;
  onChange(patch: Partial<TaskFilters>, replace?: boolean): void;
  /** only at phone width, where the filters live in a drawer */
  onOpenFilters?: () => void;
}) {
  const { t } = useTranslation('tasks');
  const [text, setText] = useState(filters.q);

  // the URL changed elsewhere (clear filters, back button): show its search
  useEffect(() => {
    setText((current) => (current.trim() === filters.q ? current : filters.q));
  }, [filters.q]);

  useEffect(() => {
    const q = text.trim();
    if (q === filters.q) return;
    const timer = setTimeout(() => onChange({ q }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters.q, onChange]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== filters.q) onChange({ q: text.trim() });
  };
  const count = activeFilterCount(filters);

  return (
    <div className="tasks-toolbar">
      <search>
        <form className="tasks-search" onSubmit={submit}>
          <label htmlFor="task-search" className="sr-only">
            {t('list.searchLabel')}
          </label>
          <input
            id="task-search"
            type="search"
            className="input"
            placeholder={t('list.searchPlaceholder')}
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            {t('list.search')}
          </button>
        </form>
      </search>
      <div className="tasks-toolbar-row">
        {onOpenFilters && (
          <button
            type="button"
            className="btn btn-outline filter-button"
            onClick={onOpenFilters}
            aria-haspopup="dialog"
            data-testid="filter-button"
          >
            <FilterIcon />
            {count > 0 ? t('list.filtersWithCount', { count }) : t('list.filters')}
          </button>
        )}
        <div className="tasks-sort">
          <label htmlFor="task-sort">{t('list.sort')}</label>
          <select
            id="task-sort"
            className="input"
            value={filters.sort}
            onChange={(e) => onChange({ sort: e.target.value as TaskSort })}
          >
            {TASK_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`sorts.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}

function FilterIcon() {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <path d="M3 5h18l-7 8v6l-4 2v-8z" strokeLinejoin="round" />
    </svg>
  );
}
