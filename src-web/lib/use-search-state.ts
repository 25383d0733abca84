import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * Page state kept in the address (filters, sort, page). `set` replaces it; `patch` changes part
 * of it, building on the last state asked for rather than on this render's, so two changes made
 * before the address catches up (a date typed right after another, a delayed search landing
 * after a filter) never undo each other. React Router's own functional setSearchParams reads
 * the render's parameters and has that race.
 */
export function useSearchState<S>(
  read: (params: URLSearchParams) => S,
  write: (state: S) => URLSearchParams,
) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => read(params), [read, params]);
  const requested = useRef<S | null>(null);
  const current = useRef(state);
  current.current = state;
  if (requested.current && write(requested.current).toString() === write(state).toString()) {
    requested.current = null;
  }
  const set = useCallback(
    (next: S, options: { replace?: boolean } = { replace: true }) => {
      requested.current = next;
      setParams(write(next), { replace: options.replace ?? true });
    },
    [setParams, write],
  );
  const patch = useCallback(
    (change: Partial<S>, options?: { replace?: boolean }) =>
      set({ ...(requested.current ?? current.current), ...change }, options),
    [set],
  );
  return { state, set, patch };
}
