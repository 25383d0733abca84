import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { PlusIcon } from '../shell/admin-icons';
import { TASK_LIST_FILTERS, type TaskListFilter } from './task-list-query';

const SEARCH_DELAY_MS = 300;

/** Search (by title or category), the status filter and the new-task button. */
export function TasksToolbar({
  q,
  status,
  onSearch,
  onStatus,
}: {
  q: string;
  status: TaskListFilter;
  onSearch(q: string): void;
  onStatus(status: TaskListFilter): void;
}) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(q);
  const sent = useRef(q);
  // the latest callback: a search fired by the timer must not act on an older address bar
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const search = (value: string) => {
    clearTimeout(timer.current);
    sent.current = value;
    onSearchRef.current(value);
  };
  // the search follows the typing after a short pause
  const type = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => search(value), SEARCH_DELAY_MS);
  };
  // a search changed from outside (back button, a link) shows in the box
  useEffect(() => {
    if (q !== sent.current) {
      sent.current = q;
      setText(q);
    }
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="admin-toolbar">
      <search className="admin-search">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            search(text);
          }}
        >
          <label htmlFor="admin-task-search" className="sr-only">
            {t('tasks.searchLabel')}
          </label>
          <input
            id="admin-task-search"
            type="search"
            className="input"
            placeholder={t('tasks.searchPlaceholder')}
            value={text}
            onChange={(e) => type(e.target.value)}
          />
        </form>
      </search>
      <div className="admin-filter">
        <label htmlFor="admin-task-status" className="sr-only">
          {t('tasks.statusFilter')}
        </label>
        <select
          id="admin-task-status"
          className="input"
          value={status}
          onChange={(e) => onStatus(TASK_LIST_FILTERS.find((s) => s === e.target.value) ?? 'all')}
        >
          {TASK_LIST_FILTERS.map((s) => (
            <option key={s} value={s}>
              {t(`tasks.filters.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <Link to={paths.adminTaskNew} className="btn btn-primary admin-new-task" data-testid="new-task">
        <PlusIcon />
        <span>{t('tasks.newTask')}</span>
      </Link>
    </div>
  );
}
