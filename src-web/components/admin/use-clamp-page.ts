import { useEffect, useRef } from 'react';
import { pageCount } from './list-range';

/**
 * A page past the end (the last row of the last page was deleted or settled, or an old link)
 * moves to the last page that has rows, instead of showing an empty list.
 */
export function useClampPage(
  data: { items: readonly unknown[]; total: number; limit: number } | undefined,
  page: number,
  onPage: (page: number) => void,
) {
  const last = data ? pageCount(data.total, data.limit) : 1;
  const past = data !== undefined && data.items.length === 0 && data.total > 0 && page > last;
  const move = useRef(onPage);
  move.current = onPage;
  useEffect(() => {
    if (past) move.current(last);
  }, [past, last]);
}
