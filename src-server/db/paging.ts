/**
 * The slice of an index to read for one page of a list sorted newest first, given the
 * list's total. Pages past the middle are read from the oldest end in ascending order (the
 * caller sorts the page back to newest first), so an OFFSET never walks more than half the
 * list: at 1,000,000 submissions, page 45,000 of 20 skips 100,000 index entries, not 900,000.
 * Null when the page is past the end.
 */
export interface PageWindow {
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export function pageWindow(total: number, offset: number, limit: number): PageWindow | null {
  if (limit <= 0 || offset >= total) return null;
  const take = Math.min(limit, total - offset);
  if (offset > total / 2) return { direction: 'asc', offset: total - offset - take, limit: take };
  return { direction: 'desc', offset, limit: take };
}
