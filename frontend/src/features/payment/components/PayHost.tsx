import { createPortal } from 'react-dom';
import { Dialog } from '@/components/Dialog';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { PayFlow } from '../hooks/usePay';
import './Payment.css';

/** 支付处理中... over the page while a payment is created and handed over (spec ordering §4 step 8). */
export function PayingMask({ open }: { open: boolean }) {
  const t = useT();
  if (!open) return null;
  return createPortal(
    <div className="pay-mask" role="status" aria-live="polite" data-testid="paying">
      <div className="pay-mask__box">
        <span className="pay-mask__spinner" aria-hidden="true" />
        <span>{t('pay.processing')}</span>
      </div>
    </div>,
    document.body,
  );
}

/**
 * The payment flow's overlays: the processing mask, and for app methods (payInfo / tn, which only
 * the native app can hand to its SDK) a sheet with the instructions.
 */
export function PayHost({ flow }: { flow: PayFlow }) {
  const t = useT();
  const app = flow.appPay;
  return (
    <>
      <PayingMask open={flow.paying} />
      <Dialog open={app !== null} title={t('pay.app.title')} confirmText={t('pay.app.done')} onConfirm={flow.finishAppPay} onClose={flow.finishAppPay}>
        {app && (
          <div className="pay-app" data-testid="pay-app">
            <p>{t('pay.app.hint', { amount: formatFen(toFen(app.payAmount)) })}</p>
            {app.tn && (
              <p className="pay-app__code">
                <span>tn</span>
                <code>{app.tn}</code>
              </p>
            )}
            {app.payInfo && (
              <p className="pay-app__code">
                <span>payInfo</span>
                <code>{app.payInfo}</code>
              </p>
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
