import { useEffect } from 'react';
import { useT } from '@/lib/i18n';
import { RING_INTERVAL_MS } from '../alarm';
import { beep } from '../sound';
import { shortOrderNo } from '../stages';
import { useBoard } from '../store/board';

/**
 * A customer cancelled an order this board held: a red dialog that beeps every 2 s until the
 * crew taps "got it" (one at a time, oldest first). The card itself has already left the queue.
 */
export function CancelAlert() {
  const t = useT();
  const alerts = useBoard((s) => s.cancelAlerts);
  const first = alerts[0];
  const pending = alerts.length > 0;
  useEffect(() => {
    if (!pending) return undefined;
    beep();
    const timer = setInterval(() => beep(), RING_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [pending]);
  if (!first) return null;
  const type = first.orderType === 1 ? 1 : first.orderType === 2 ? 2 : 0;
  const more = alerts.length - 1;
  return (
    <div className="tab-mask tab-mask--center tab-cancel-mask" role="presentation">
      <div className="tab-cancel" role="alertdialog" aria-labelledby="tab-cancel-title" data-testid="tablet-cancel-alert" data-order={first.orderNo}>
        <h2 id="tab-cancel-title">⚠ {t('tablet.cancel.title')}</h2>
        <p className="tab-cancel__body">{t('tablet.cancel.body', { no: shortOrderNo(first.orderNo), type: t(`orderType.${type}`) })}</p>
        <p className="tab-cancel__no">{first.orderNo}</p>
        {more > 0 && <p className="tab-muted">{t(more === 1 ? 'tablet.cancel.more.one' : 'tablet.cancel.more.other', { n: more })}</p>}
        <button type="button" className="tab-btn tab-btn--go tab-cancel__ack" onClick={() => useBoard.getState().acknowledge(first.orderNo)} data-testid="tablet-cancel-ack" autoFocus>
          {t('tablet.cancel.ack')}
        </button>
      </div>
    </div>
  );
}
