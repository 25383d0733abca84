import { useTranslation } from 'react-i18next';

/**
 * The page numbers to show: all of them for 5 pages or fewer, otherwise the first, the last
 * and the neighbours of the current page, with `null` where an ellipsis goes.
 */
export function pageItems(page: number, pages: number): (number | null)[] {
  if (pages <= 5) return Array.from({ length: pages }, (_, i) => i + 1);
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && p - last > 1) out.push(null);
    out.push(p);
  }
  return out;
}

/** Previous, page buttons (with ellipses past 5 pages) and next. */
export function Pagination({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage(page: number): void;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('pagination.prev')}
      </button>
      {pageItems(page, pages).map((p, i) =>
        p === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: ellipses have no identity but their place
          <span key={`gap-${i}`} className="pagination-gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={p}
            type="button"
            onClick={() => onPage(p)}
            aria-current={p === page ? 'page' : undefined}
            aria-label={t('pagination.page', { page: p })}
          >
            {p}
          </button>
        ),
      )}
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {t('pagination.next')}
      </button>
    </nav>
  );
}
