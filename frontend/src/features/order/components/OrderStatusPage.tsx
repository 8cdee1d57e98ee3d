import { Header } from '@/components/Header';
import { BagIcon, DineIcon, ScooterIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { Price } from '@/components/Price';
import { useQuery } from '@/hooks/useQuery';
import { now } from '@/lib/clock';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { OrderDetail } from '@/types/api';
import { itemOptions } from '@/utils/cartItem';
import { formatDateTime, formatDayTime } from '@/utils/time';
import { getOrder } from '../api/order';
import { orderStateLabel, orderStateTone } from '../labels';
import './Order.css';

export interface OrderStatusPageProps {
  orderNo: string;
  /** The store's name when the order does not carry one (the app knows the current store). */
  storeNameFallback?: (storeCode: string) => string | null;
  onContinue: () => void;
}

const TYPE_ICON = { 0: ScooterIcon, 1: BagIcon, 2: DineIcon } as const;

/** /order/status?orderNo=: the order just placed — number, state, store, time, lines and amount. */
export function OrderStatusPage({ orderNo, storeNameFallback, onContinue }: OrderStatusPageProps) {
  const t = useT();
  const lang = useLang();
  const q = useQuery(orderNo ? `order:${orderNo}:${lang}` : null, (signal) => getOrder(orderNo, signal));
  return (
    <div className="ost">
      <Header title={t('order.status.title')} fallback="/" />
      {!orderNo ? (
        <Loading page error={t('order.notFound')} />
      ) : !q.data ? (
        <Loading page error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />
      ) : (
        <OrderView order={q.data} storeName={q.data.storeName || storeNameFallback?.(q.data.storeCode) || q.data.storeCode} onContinue={onContinue} />
      )}
    </div>
  );
}

function OrderView({ order, storeName, onContinue }: { order: OrderDetail; storeName: string; onContinue: () => void }) {
  const t = useT();
  const lang = useLang();
  const type = order.orderType === 1 || order.orderType === 2 ? order.orderType : 0;
  const Icon = TYPE_ICON[type];
  const lines = order.lines ?? [];
  const tone = orderStateTone(order.state);
  const key = orderStateLabel(order.state);
  // A state the spec's list does not name: the server's own label.
  const label = key === 'order.state.unknown' && order.stateLabel ? order.stateLabel : t(key);
  const offline = order.paymentType === 'offline';
  const amount = toFen(order.orderAmount);
  const timeText = order.isBookOrder
    ? t('order.bookedFor', { time: formatDayTime(order.orderTime, lang, now()) })
    : t('order.expectedAt', { time: formatDayTime(order.orderTime, lang, now()) });
  return (
    <div className="ost__body">
      <section className={`ost-head ost-head--${tone}`} data-testid="order-state" data-state={order.state}>
        <strong className="ost-head__state">{label}</strong>
        <span className="ost-head__hint">
          {order.state === 5 ? t('order.hint.unpaid') : order.state === 7 || offline ? t('order.hint.cod', { amount: formatFen(amount) }) : ''}
        </span>
      </section>

      <section className="ost-card">
        <div className="ost-row">
          <span>{t('order.no')}</span>
          <strong data-testid="order-no">{order.orderNo}</strong>
        </div>
        <div className="ost-row">
          <span>{t('order.type')}</span>
          <span className="ost-row__type">
            <Icon /> {t(`orderType.${type}` as MessageKey)}
            {order.deskNo ? ` · ${t('checkout.desk', { desk: order.deskNo })}` : ''}
          </span>
        </div>
        <div className="ost-row">
          <span>{t('order.store')}</span>
          <span data-testid="order-store">{storeName}</span>
        </div>
        <div className="ost-row">
          <span>{type === 0 ? t('order.deliveryTime') : t('order.pickupTime')}</span>
          <span data-testid="order-time">{timeText}</span>
        </div>
        {type === 0 && order.address && (
          <div className="ost-row" data-testid="order-address">
            <span>{t('order.address')}</span>
            <span>
              {order.address.baseAddress} {order.address.houseNumber}
              {order.receiverName || order.receiverMobile ? (
                <small className="ost-row__sub">
                  {order.receiverName} {order.receiverMobile}
                </small>
              ) : null}
            </span>
          </div>
        )}
        {order.createdAt ? (
          <div className="ost-row">
            <span>{t('order.createdAt')}</span>
            <span>{formatDateTime(order.createdAt)}</span>
          </div>
        ) : null}
      </section>

      <section className="ost-card" aria-label={t('checkout.items')}>
        <ul className="ost-lines" data-testid="order-lines">
          {lines.map((line, i) => {
            const opts = itemOptions(line, t);
            const price = toFen(line.countPriceAfterPE ?? line.countPrice ?? 0);
            return (
              <li key={line.id ?? i} className="ost-line">
                <span className="ost-line__name">
                  {line.prodName ?? line.productCode}
                  {opts.length > 0 && <small>{opts.join(' · ')}</small>}
                </span>
                <span className="ost-line__qty">×{line.quantity ?? 1}</span>
                <Price fen={price} size="sm" />
              </li>
            );
          })}
        </ul>
        <div className="ost-sum">
          <div className="ost-row">
            <span>{t('checkout.productAmount')}</span>
            <span>{formatFen(toFen(order.orderProductAmount))}</span>
          </div>
          {order.activityAmount ? (
            <div className="ost-row ost-row--off">
              <span>{t('checkout.discount')}</span>
              <span>-{formatFen(toFen(order.activityAmount))}</span>
            </div>
          ) : null}
          {type === 0 && (
            <div className="ost-row">
              <span>{t('checkout.deliveryFee')}</span>
              <span>{formatFen(toFen(order.freightAmount))}</span>
            </div>
          )}
          <div className="ost-row ost-row--total">
            <span>{t(offline ? 'order.payOnDelivery' : 'checkout.orderAmount')}</span>
            <span data-testid="order-amount">
              <Price fen={amount} size="md" />
            </span>
          </div>
        </div>
      </section>
      {order.remark && (
        <section className="ost-card">
          <div className="ost-row">
            <span>{t('checkout.remark')}</span>
            <span>{order.remark}</span>
          </div>
        </section>
      )}
      <button type="button" className="btn btn--ghost btn--block" onClick={onContinue} data-testid="order-continue">
        {t('order.continue')}
      </button>
    </div>
  );
}
