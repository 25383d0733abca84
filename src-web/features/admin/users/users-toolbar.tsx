import { ADMIN_USER_FILTERS, type AdminUserFilter } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../../components/admin/use-search-text';

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
  const { t } = useTranslation('adminLists');
  const { text, setText, submit } = useSearchText(q, onSearch);

  return (
    <form
      className="al-toolbar"
      aria-label={t('users.search')}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="field al-grow">
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
