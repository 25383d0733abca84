import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeFields } from '../../../components/admin/date-range-fields';
import {
  hasWithdrawalFilters,
  WITHDRAWAL_FILTERS,
  type WithdrawalListState,
} from '../../../components/admin/list-queries';

const SEARCH_DELAY_MS = 300;

/** Status, start and end date, a search (after a short pause) and a reset. */
export function WithdrawalsFilters({
  state,
  onChange,
  onReset,
}: {
  state: WithdrawalListState;
  onChange(patch: Partial<WithdrawalListState>): void;
  onReset(): void;
}) {
  const { t } = useTranslation('adminLists');
  const [text, setText] = useState(state.q);
  const applied = useRef(state.q);
  const change = useRef(onChange);
  change.current = onChange;
  useEffect(() => {
    if (state.q !== applied.current) {
      applied.current = state.q;
      setText(state.q);
    }
  }, [state.q]);
  useEffect(() => {
    if (text.trim() === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = text.trim();
      change.current({ q: text.trim() });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <form
      className="al-toolbar al-withdrawal-filters"
      aria-label={t('withdrawals.filters.label')}
      onSubmit={(e) => {
        e.preventDefault();
        applied.current = text.trim();
        onChange({ q: text.trim() });
      }}
    >
      <div className="field">
        <label htmlFor="withdrawal-status">{t('withdrawals.filters.status')}</label>
        <select
          id="withdrawal-status"
          value={state.status}
          onChange={(e) =>
            onChange({ status: WITHDRAWAL_FILTERS.find((f) => f === e.target.value) ?? 'all' })
          }
        >
          {WITHDRAWAL_FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? t('withdrawals.filters.all') : t(`reviewStatus.${f}`)}
            </option>
          ))}
        </select>
      </div>
      <DateRangeFields
        id="withdrawal"
        from={state.from}
        to={state.to}
        labels={{
          from: t('withdrawals.filters.from'),
          to: t('withdrawals.filters.to'),
          reversed: t('common:fields.dateRangeReversed'),
        }}
        onChange={onChange}
      />
      <div className="field al-grow">
        <label htmlFor="withdrawal-search">{t('withdrawals.filters.search')}</label>
        <input
          id="withdrawal-search"
          type="search"
          value={text}
          placeholder={t('withdrawals.filters.searchPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          maxLength={100}
        />
      </div>
      <div className="al-flag-filter">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={state.flagged}
            onChange={(e) => onChange({ flagged: e.target.checked })}
            data-testid="withdrawals-filter-flagged"
          />
          <span>
            <span aria-hidden="true">⚑ </span>
            {t('adminFraud:filter.flaggedOnly')}
          </span>
        </label>
      </div>
      <div className="al-toolbar-end">
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => {
            applied.current = '';
            setText('');
            onReset();
          }}
          disabled={!hasWithdrawalFilters(state) && text.trim() === ''}
          data-testid="withdrawals-reset"
        >
          {t('withdrawals.filters.reset')}
        </button>
      </div>
    </form>
  );
}
