import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, updated when it changes (a resize or a rotation). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The width from which the task list shows its filters beside the results instead of in a drawer. */
export const WIDE_QUERY = '(min-width: 900px)';
