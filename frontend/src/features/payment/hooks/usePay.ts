import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '@/components/Toast';
import { isApiError } from '@/lib/api';
import { serverNow } from '@/lib/clock';
import { useT } from '@/lib/i18n';
import { uuid } from '@/lib/uuid';
import type { PayMethod, PaymentCreated } from '@/lib/api/types';
import { createPayment } from '../api/payments';
import { handoffOf, performHandoff } from '../handoff';
import { statusPath } from '../paths';
import { recordOfCreated, savePayRecord } from '../recordWriters';

/** Spec ordering §8: a pay failure shows err_desc for 3 s. */
export const PAY_ERROR_TOAST_MS = 3000;

export interface PayFlow {
  /** A payment is being created or the page is leaving for the provider: 支付处理中... */
  paying: boolean;
  /** An app method's instructions (payInfo / tn), which only the native app can run. */
  appPay: PaymentCreated | null;
  /** Creates a payment for the order with `method` and follows its instructions. */
  start: (orderNo: string, method: PayMethod) => Promise<void>;
  /** Closes the app-pay sheet and goes to the order's status. */
  finishAppPay: () => void;
}

export interface UsePayOptions {
  /** In-app navigation (react-router's navigate). */
  navigate: (to: string, opts?: { replace?: boolean }) => void;
}

/**
 * The payment step (spec ordering §4 payment flow 2–5, 7, 8): POST /payments with an
 * Idempotency-Key, the pay-in-progress record, then the hand-over to the provider. A failure
 * shows 支付失败 with the server's reason for 3 s and goes to /order/status with customestatus=1.
 */
export function usePay({ navigate }: UsePayOptions): PayFlow {
  const t = useT();
  const [paying, setPaying] = useState(false);
  const [appPay, setAppPay] = useState<PaymentCreated | null>(null);
  // One key per attempt: only a retry after a lost answer reuses it (the server answers once).
  const attempt = useRef<{ orderNo: string; method: string; key: string } | null>(null);
  const busy = useRef(false);

  const start = useCallback(
    async (orderNo: string, method: PayMethod) => {
      if (busy.current) return;
      busy.current = true;
      setPaying(true);
      const prev = attempt.current;
      const key = prev && prev.orderNo === orderNo && prev.method === method ? prev.key : uuid();
      attempt.current = { orderNo, method, key };
      try {
        // A path of this site: the server takes nothing else (an absolute URL, even ours, would
        // be replaced by the status page).
        const created = await createPayment({ orderNo, method, returnUrl: statusPath(orderNo) }, key);
        attempt.current = null;
        if (method === 'offline') {
          setPaying(false);
          busy.current = false;
          navigate(statusPath(orderNo), { replace: true });
          return;
        }
        savePayRecord(recordOfCreated(created, serverNow()));
        const handoff = handoffOf(created, window.location.href);
        if (performHandoff(handoff)) return; // leaving for the provider: the mask stays up
        setPaying(false);
        busy.current = false;
        if (handoff.kind === 'app') setAppPay(created);
        else navigate(statusPath(orderNo, { paymentId: created.paymentId }), { replace: true });
      } catch (e) {
        const lost = isApiError(e) && (e.isNetwork || e.status >= 500);
        if (!lost) attempt.current = null;
        setPaying(false);
        busy.current = false;
        const reason = e instanceof Error ? e.message : String(e);
        showToast(reason ? t('pay.failedWith', { reason }) : t('pay.failed'), PAY_ERROR_TOAST_MS);
        navigate(statusPath(orderNo, { failed: true }), { replace: true });
      }
    },
    [navigate, t],
  );

  const finishAppPay = useCallback(() => {
    setAppPay(null);
    if (appPay) navigate(statusPath(appPay.orderNo, { paymentId: appPay.paymentId }), { replace: true });
  }, [appPay, navigate]);

  // Back from the provider through the browser's page cache: the page was frozen mid-hand-over.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      busy.current = false;
      setPaying(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  return { paying, appPay, start, finishAppPay };
}
