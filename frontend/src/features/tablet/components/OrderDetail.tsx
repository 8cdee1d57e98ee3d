import { PriceBreakdown } from '@/components/PriceBreakdown';
import { useLang, useT } from '@/lib/i18n';
import { formatYuan } from '@/lib/money';
import { arrivalText } from '@/utils/arrival';
import { formatClock } from '@/utils/time';
import { stageLabelKey } from '../stages';
import { promiseOf } from '../timing';
import type { TabletOrder } from '../types';
import { usePrint } from '../store/print';
import { OrderFlags } from './OrderFlags';
import { OrderLines } from './OrderLines';
import { Modal } from './Modal';

/** Everything about one order, for the call to the customer or the rider. */
export function OrderDetail({ order, nowMs, onClose }: { order: TabletOrder; nowMs: number; onClose: () => void }) {
  const t = useT();
  const lang = useLang();
  const promise = promiseOf(order);
  const type = order.orderType === 1 ? 1 : order.orderType === 2 ? 2 : 0;
  const rows: [string, string, string][] = [
    ['orderNo', t('tablet.detail.orderNo'), order.orderNo],
    ['type', t('tablet.detail.type'), t(`orderType.${type}`) + (type === 2 && order.deskNo ? ` · ${t('tablet.card.desk', { desk: order.deskNo })}` : '')],
    ['stage', t('tablet.detail.stage'), t(stageLabelKey(order.progress, order.orderType))],
    ['paidAt', t('tablet.detail.paidAt'), order.paidAt ? formatClock(order.paidAt) : '–'],
    ['promised', t('tablet.detail.promised'), promise ? formatClock(promise) : '–'],
    ['arrival', t('tablet.detail.arrival'), order.arrival ? arrivalText(order.arrival, order.orderType, lang, nowMs, t) : '–'],
    ['receiver', t('tablet.detail.receiver'), order.receiverName || '–'],
    ['mobile', t('tablet.detail.mobile'), order.receiverMobile || '–'],
  ];
  if (type === 0) rows.push(['address', t('tablet.detail.address'), order.address ?? '–']);
  rows.push(
    ['amount', t('tablet.detail.amount'), formatYuan(order.orderAmount)],
    ['payment', t('tablet.detail.payment'), order.paymentType === 'offline' ? t('tablet.pay.offline') : t('tablet.pay.online')],
  );
  return (
    <Modal
      title={t('tablet.detail.title')}
      onClose={onClose}
      variant="side"
      testId="tablet-detail"
      footer={
        <button type="button" className="tab-btn tab-btn--block" onClick={() => usePrint.getState().print(order)} data-testid="tablet-print">
          {t('tablet.print')}
        </button>
      }
    >
      <dl className="tab-detail">
        {rows.map(([key, label, value]) => (
          <div key={key} className="tab-detail__row">
            <dt>{label}</dt>
            <dd data-testid={`tablet-detail-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="tab-detail__h">{t('tablet.detail.flags')}</h3>
      <OrderFlags order={order} nowMs={nowMs} full />
      <h3 className="tab-detail__h">{t('tablet.detail.items')}</h3>
      <OrderLines order={order} />
      <h3 className="tab-detail__h">{t('breakdown.title')}</h3>
      <PriceBreakdown
        breakdown={order.breakdown}
        delivery={order.orderType === 0}
        payableLabel={order.paymentType === 'offline' ? 'order.payOnDelivery' : 'breakdown.payable'}
        variant="tablet"
        testId="tablet-breakdown"
        payableTestId="tablet-breakdown-payable"
      />
    </Modal>
  );
}
