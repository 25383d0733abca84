import { useTranslation } from 'react-i18next';

/** What is being loaded looks like: a grid of cards, a table's rows, or a page of cards. */
export type SkeletonLayout = 'cards' | 'table' | 'page';

/**
 * A grey outline of the content while it loads, in place of a lone spinner: the page keeps its
 * shape, and screen readers hear "Loading…" once.
 */
export function Skeleton({ layout, count }: { layout: SkeletonLayout; count?: number }) {
  const { t } = useTranslation();
  const n = count ?? (layout === 'cards' ? 6 : layout === 'table' ? 8 : 3);
  return (
    <div className={`skeleton skeleton-${layout}`} role="status" aria-busy="true" data-testid="skeleton">
      <span className="sr-only">{t('status.loading')}</span>
      {Array.from({ length: n }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity but their place
        <div className="skeleton-item" key={i} aria-hidden="true">
          <span className="skeleton-line skeleton-line-title" />
          <span className="skeleton-line" />
          {layout !== 'table' && <span className="skeleton-line skeleton-line-short" />}
        </div>
      ))}
    </div>
  );
}
