import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_USER_FILTERS, type AdminUserFilter } from '../../../src-server/contract/admin';

const SEARCH_DELAY_MS = 300;

/** The search box (applied after a short pause, or at once on Enter) and the filter. */
export function UsersToolbar({
  q,
  status,
  onSearch,
  onStatus,
}: {
  q: string;
  status: AdminUserFilter;
  onSearch(q: string): void;
  onStatus(status: AdminUserFilter): void;
}) {
  const { t } = useTranslation('adminReview');
  const [text, setText] = useState(q);
  const applied = useRef(q);
  // the URL changed from elsewhere (back button, a link): follow it
  useEffect(() => {
    if (q !== applied.current) {
      applied.current = q;
      setText(q);
    }
  }, [q]);
  useEffect(() => {
    if (text.trim() === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = text.trim();
      onSearch(text.trim());
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  return (
    <form
      className="ar-toolbar"
      aria-label={t('users.search')}
      onSubmit={(e) => {
        e.preventDefault();
        applied.current = text.trim();
        onSearch(text.trim());
      }}
    >
      <div className="field ar-grow">
        <label htmlFor="user-search">{t('users.search')}</label>
        <input
          id="user-search"
          type="search"
          value={text}
          placeholder={t('users.searchPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          maxLength={200}
        />
      </div>
      <div className="field">
        <label htmlFor="user-filter">{t('users.filterLabel')}</label>
        <select
          id="user-filter"
          value={status}
          onChange={(e) => onStatus(ADMIN_USER_FILTERS.find((f) => f === e.target.value) ?? 'all')}
        >
          {ADMIN_USER_FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`users.filters.${f}`)}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
