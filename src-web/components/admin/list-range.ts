/** The numbers of "Showing 11–20 of 57": the first and last row of the page, and the total. */
export interface ListRange {
  from: number;
  to: number;
  total: number;
}

/** The rows a page shows, 1-based; 0–0 for an empty list or a page past the end. */
export function listRange(page: number, limit: number, total: number): ListRange {
  const safeTotal = Math.max(0, Math.floor(total));
  if (safeTotal === 0 || limit <= 0 || page < 1) return { from: 0, to: 0, total: safeTotal };
  const from = (Math.floor(page) - 1) * limit + 1;
  if (from > safeTotal) return { from: 0, to: 0, total: safeTotal };
  return { from, to: Math.min(safeTotal, from + limit - 1), total: safeTotal };
}

/** The number of pages for a total, at least 1 so a pager never shows "page 1 of 0". */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, limit)));
}
