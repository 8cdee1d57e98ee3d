import { useEffect, useState } from 'react';

/** Spec ordering §9: address search debounce 500 ms (every place that searches addresses or places). */
export const ADDRESS_SEARCH_DEBOUNCE_MS = 500;

/** `value`, settled for `ms` (spec: address search debounce 500 ms). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
