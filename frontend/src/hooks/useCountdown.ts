import { useCallback, useState } from 'react';
import { serverNow, useCountdown as useCountdownTo } from '@/lib/clock';

/**
 * A seconds countdown (SMS resend). `start(n)` runs it from n down to 0; `left` is 0 when idle.
 * It counts against the server clock (lib/clock), so a tab that slept or a local clock that
 * jumped still shows the true time left.
 */
export function useCountdown(): { left: number; start: (seconds: number) => void; reset: () => void } {
  const [endAt, setEndAt] = useState<number | null>(null);
  const { secondsLeft } = useCountdownTo(endAt);

  const start = useCallback((seconds: number) => {
    const s = Math.max(0, Math.ceil(seconds));
    setEndAt(s > 0 ? serverNow() + s * 1000 : null);
  }, []);
  const reset = useCallback(() => setEndAt(null), []);
  return { left: secondsLeft, start, reset };
}
