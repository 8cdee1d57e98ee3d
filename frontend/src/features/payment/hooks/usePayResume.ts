import { useEffect, useRef } from 'react';
import { PAY_RESUME_DELAY_MS, readPayRecord, type PayRecord } from '../record';

/**
 * Spec ordering §4 payment flow step 6: when the page becomes visible again while a payment is
 * in progress (the pay-in-progress record lives), `onResume` runs after 500 ms — the app then
 * goes to /order/status. Also on a page restored from the browser's cache (back from the provider).
 */
export function usePayResume(onResume: (record: PayRecord) => void, delayMs: number = PAY_RESUME_DELAY_MS): void {
  const callback = useRef(onResume);
  useEffect(() => {
    callback.current = onResume;
  });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      if (document.visibilityState === 'hidden' || !readPayRecord()) return;
      timer = setTimeout(() => {
        const record = readPayRecord();
        if (record && document.visibilityState !== 'hidden') callback.current(record);
      }, delayMs);
    };
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) check();
    };
    document.addEventListener('visibilitychange', check);
    window.addEventListener('pageshow', onShow);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('pageshow', onShow);
    };
  }, [delayMs]);
}
