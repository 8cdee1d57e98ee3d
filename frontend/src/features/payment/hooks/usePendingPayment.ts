import { useEffect, useState } from 'react';
import { serverNow } from '@/lib/clock';
import { getPaymentInProgress } from '../api/payments';
import { recordOfServer, savePayRecord } from '../recordWriters';

/**
 * The server's copy of the pay-in-progress record (GET /payments/in-progress), asked when the
 * page knows of no attempt for an unpaid order (another tab or device started it): the payment
 * id when it is this order's, kept as the local record too.
 */
export function usePendingPayment(orderNo: string, enabled: boolean): string | null {
  const [found, setFound] = useState<{ orderNo: string; paymentId: string } | null>(null);
  useEffect(() => {
    if (!enabled || !orderNo) return undefined;
    const controller = new AbortController();
    getPaymentInProgress(controller.signal).then(
      (p) => {
        if (controller.signal.aborted || !p || p.orderNo !== orderNo) return;
        savePayRecord(recordOfServer(p, serverNow()));
        setFound({ orderNo, paymentId: p.paymentId });
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [orderNo, enabled]);
  return found && found.orderNo === orderNo ? found.paymentId : null;
}
