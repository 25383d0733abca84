import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  hasWithdrawalFilters,
  isReversedRange,
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
  const { t } = useTranslation('adminReview');
  const reversed = isReversedRange(state);
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
      className="ar-toolbar ar-withdrawal-filters"
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
      <div className="field">
        <label htmlFor="withdrawal-from">{t('withdrawals.filters.from')}</label>
        <input
          id="withdrawal-from"
          type="date"
          value={state.from}
          max={state.to || undefined}
          onChange={(e) => onChange({ from: e.target.value })}
        />
      </div>
      <div className={`field${reversed ? ' has-error' : ''}`}>
        <label htmlFor="withdrawal-to">{t('withdrawals.filters.to')}</label>
        <input
          id="withdrawal-to"
          type="date"
          value={state.to}
          min={state.from || undefined}
          aria-invalid={reversed || undefined}
          aria-describedby={reversed ? 'withdrawal-to-error' : undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
        {reversed && (
          <p className="field-error" id="withdrawal-to-error" role="alert">
            {t('common:fields.dateRangeReversed')}
          </p>
        )}
      </div>
      <div className="field ar-grow">
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
      <div className="ar-toolbar-end">
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
