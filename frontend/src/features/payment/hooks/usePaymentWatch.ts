import { useEffect, useRef, useState } from 'react';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { subscribe } from '@/lib/socket';
import type { PaymentInfo } from '@/lib/api/types';
import { getPayment } from '../api/payments';
import { clearPayRecord } from '../recordWriters';
import { PAY_ERROR_TOAST_MS } from './usePay';

/** none: nothing known; paying: 支付处理中...; paid; failed (or cancelled): 支付失败; closed: expired. */
export type PayPhase = 'none' | 'paying' | 'paid' | 'failed' | 'closed';

export interface PaymentWatch {
  phase: PayPhase;
  /** The provider's reason of a failure (err_desc). */
  reason: string | null;
}

/** While a payment is pending, GET /payments/{id} is asked again this often (the server asks the provider). */
export const PAYMENT_POLL_MS = 3000;

/** The phase a payment state means; `failedFlag`: the provider sent the browser back with customestatus=1. */
export function phaseOf(state: PaymentInfo['state'], failedFlag: boolean): PayPhase {
  switch (state) {
    case 'paid':
      return 'paid';
    case 'failed':
      return 'failed';
    case 'closed':
      return failedFlag ? 'failed' : 'closed';
    case 'created':
    case 'pending':
      return failedFlag ? 'failed' : 'paying';
    default:
      return 'none';
  }
}

/**
 * The payment side of /order/status: `customestatus=1` marks a failed or cancelled payment; a
 * `paymentId` is asked (GET /payments/{id}, again every 3 s while pending) and `payment:result`
 * settles it live. A settled payment forgets the pay-in-progress record.
 */
export function usePaymentWatch({ orderNo, paymentId, failed }: { orderNo: string; paymentId: string | null; failed: boolean }): PaymentWatch {
  const t = useT();
  const key = `${orderNo}|${paymentId ?? ''}|${failed ? 1 : 0}`;
  const initial = (): PaymentWatch => ({ phase: failed ? 'failed' : paymentId ? 'paying' : 'none', reason: null });
  const [state, setState] = useState<{ key: string; watch: PaymentWatch }>(() => ({ key, watch: initial() }));
  let watch = state.watch;
  if (state.key !== key) {
    watch = initial();
    setState({ key, watch });
  }
  const toasted = useRef<string | null>(null);
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  });

  useEffect(() => {
    if (!orderNo) return undefined;
    const settle = (phase: PayPhase, reason: string | null = null) => {
      if (phase === 'paid' || phase === 'failed' || phase === 'closed') clearPayRecord(orderNo);
      setState({ key, watch: { phase, reason } });
    };
    const off = subscribe('/', 'payment:result', (ev) => {
      if (!ev || ev.orderNo !== orderNo) return;
      if (ev.result === 'paid' || ev.result === 'failed' || ev.result === 'closed') settle(ev.result);
    });
    if (!paymentId) {
      if (failed) clearPayRecord(orderNo);
      return off;
    }
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      getPayment(paymentId, controller.signal).then(
        (p) => {
          if (controller.signal.aborted) return;
          const phase = phaseOf(p.state, failed);
          settle(phase, p.failReason ?? null);
          if (phase === 'failed' && p.failReason && toasted.current !== paymentId) {
            toasted.current = paymentId;
            showToast(tRef.current('pay.failedWith', { reason: p.failReason }), PAY_ERROR_TOAST_MS);
          }
          if (phase === 'paying') timer = setTimeout(ask, PAYMENT_POLL_MS);
        },
        () => {
          if (!controller.signal.aborted) timer = setTimeout(ask, PAYMENT_POLL_MS);
        },
      );
    };
    ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
      off();
    };
  }, [key, orderNo, paymentId, failed]);

  return watch;
}
