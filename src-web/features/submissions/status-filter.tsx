import { useTranslation } from 'react-i18next';
import { SUBMISSION_FILTERS, type SubmissionFilter } from './submissions-api';

/** All, pending, approved, rejected: toggle buttons, the chosen one pressed. */
export function StatusFilter({
  value,
  onChange,
}: {
  value: SubmissionFilter;
  onChange(f: SubmissionFilter): void;
}) {
  const { t } = useTranslation('submissions');
  return (
    <fieldset className="status-filter">
      <legend className="sr-only">{t('filter.label')}</legend>
      {SUBMISSION_FILTERS.map((f) => (
        <button
          key={f}
          type="button"
          className={`chip${value === f ? ' is-active' : ''}`}
          aria-pressed={value === f}
          onClick={() => onChange(f)}
          data-testid={`filter-${f}`}
        >
          {t(`filter.${f}`)}
        </button>
      ))}
    </fieldset>
  );
}
