import { useCallback, useEffect, useState } from 'react';

/**
 * A seconds countdown (SMS resend). `start(n)` runs it from n down to 0; `left` is 0 when idle.
 * It counts against the clock, so a tab that slept shows the true time left.
 */
export function useCountdown(): { left: number; start: (seconds: number) => void; reset: () => void } {
  const [endAt, setEndAt] = useState<number | null>(null);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (endAt === null) return undefined;
    const tick = () => {
      const rest = Math.max(0, Math.ceil((endAt - Date.now()) / 1000));
      setLeft(rest);
      if (rest === 0) setEndAt(null);
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [endAt]);

  const start = useCallback((seconds: number) => {
    const s = Math.max(0, Math.ceil(seconds));
    setLeft(s);
    setEndAt(s > 0 ? Date.now() + s * 1000 : null);
  }, []);
  const reset = useCallback(() => {
    setEndAt(null);
    setLeft(0);
  }, []);
  return { left, start, reset };
}
