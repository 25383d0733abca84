import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchState } from '../../lib/use-search-state';
import { useClampPage } from './use-clamp-page';

/**
 * The plumbing of a list page: its state read from the address, the query for that state,
 * `go` to a new state (replacing the address), `patch` to change some of it, and a page past
 * the end moved to the last one.
 */
export function useListPage<
  S extends { page: number },
  D extends { items: readonly unknown[]; total: number; limit: number },
>({
  read,
  search,
  queryKey,
  fetchList,
  enabled = () => true,
}: {
  /** false for a state not worth asking the server about (a reversed date range) */
  enabled?(state: S): boolean;
  read(params: URLSearchParams): S;
  search(state: S): string;
  queryKey(state: S): readonly unknown[];
  fetchList(state: S, signal: AbortSignal): Promise<D>;
}) {
  const toParams = useCallback((next: S) => new URLSearchParams(search(next)), [search]);
  const { state, set: go, patch } = useSearchState(read, toParams);
  const list = useQuery({
    queryKey: queryKey(state),
    queryFn: ({ signal }) => fetchList(state, signal),
    placeholderData: keepPreviousData,
    enabled: enabled(state),
  });
  useClampPage(list.data, state.page, (page) => patch({ page } as Partial<S>));
  return { state, list, go, patch };
}
