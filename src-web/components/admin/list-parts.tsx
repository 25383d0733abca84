import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { listRange } from './list-range';

/** A load failure with a retry button. */
export function LoadError({
  message,
  onRetry,
  testId,
}: {
  message: string;
  onRetry(): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="notice notice-error al-load-error" role="alert" data-testid={testId}>
      <span>{message}</span>
      <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
        {t('actions.retry')}
      </button>
    </div>
  );
}

/** "Showing 11–20 of 57". */
export function RangeText({
  page,
  limit,
  total,
  textKey,
  testId,
}: {
  page: number;
  limit: number;
  total: number;
  textKey: string;
  testId: string;
}) {
  const { t } = useTranslation('adminLists');
  if (total === 0) return null;
  return (
    <p className="muted al-range" data-testid={testId} aria-live="polite">
      {t(textKey, { ...listRange(page, limit, total) })}
    </p>
  );
}

/** The title and the line under it, at the top of a list page. */
export function ListPageHead({
  id,
  title,
  subtitle,
  actions,
}: {
  id: string;
  title: string;
  subtitle: string;
  actions?: ReactNode;
}) {
  return (
    <header className="page-head al-head">
      <div>
        <h1 id={id}>{title}</h1>
        <p className="muted">{subtitle}</p>
      </div>
      {actions}
    </header>
  );
}
