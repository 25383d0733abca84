import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useClampPage } from './use-clamp-page';

/**
 * The plumbing of a list page: its state read from the address, the query for that state,
 * `go` to a new state (replacing the address), and a page past the end moved to the last one.
 */
export function useListPage<
  S extends { page: number },
  D extends { items: readonly unknown[]; total: number; limit: number },
>({
  read,
  search,
  queryKey,
  fetchList,
}: {
  read(params: URLSearchParams): S;
  search(state: S): string;
  queryKey(state: S): readonly unknown[];
  fetchList(state: S, signal: AbortSignal): Promise<D>;
}) {
  const [params, setParams] = useSearchParams();
  const state = read(params);
  const list = useQuery({
    queryKey: queryKey(state),
    queryFn: ({ signal }) => fetchList(state, signal),
    placeholderData: keepPreviousData,
  });
  const go = useCallback(
    (next: S) => setParams(new URLSearchParams(search(next)), { replace: true }),
    [setParams, search],
  );
  useClampPage(list.data, state.page, (page) => go({ ...state, page }));
  return { state, list, go };
}
