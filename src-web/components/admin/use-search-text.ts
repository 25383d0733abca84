import { useEffect, useRef, useState } from 'react';

const SEARCH_DELAY_MS = 300;

/**
 * A search box's text, applied with `onSearch` after a short pause or at once with `submit`
 * (Enter); when `q` changes from elsewhere (the back button, a link) the box follows it.
 */
export function useSearchText(q: string, onSearch: (q: string) => void) {
  const [text, setText] = useState(q);
  const applied = useRef(q);
  useEffect(() => {
    if (q !== applied.current) {
      applied.current = q;
      setText(q);
    }
  }, [q]);
  useEffect(() => {
    if (text.trim() === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = text.trim();
      onSearch(text.trim());
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  const submit = () => {
    applied.current = text.trim();
    onSearch(text.trim());
  };
  return { text, setText, submit };
}
