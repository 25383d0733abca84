import { TIMINGS_MS } from '@contract/constants';
import { useCallback, useEffect, useState } from 'react';

/** A success message that clears itself after 3 seconds. */
export function useFlash(
  ms: number = TIMINGS_MS.successBanner,
): [string | null, (text: string | null) => void] {
  // a counter, so that the same message shown again starts a new 3 seconds
  const [flash, setFlash] = useState<{ text: string | null; n: number }>({ text: null, n: 0 });
  useEffect(() => {
    if (flash.text === null) return;
    const timer = setTimeout(() => setFlash((f) => (f.n === flash.n ? { text: null, n: f.n } : f)), ms);
    return () => clearTimeout(timer);
  }, [flash, ms]);
  const show = useCallback((text: string | null) => setFlash((f) => ({ text, n: f.n + 1 })), []);
  return [flash.text, show];
}
