import { useNavigate } from 'react-router';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import type { OrderDetail, OrderHistoryEntry } from '@/lib/api/types';
import { formatYuan } from '@/lib/money';
import { formatDateTime } from '@/utils/time';
import { getOrder } from '../api/order';
import { refundedAttempts, refundStateKey } from '../refunds';
import { isCancelledState, orderStateLabel, orderStateTone, stepLabelKey } from '../labels';
import { InvoiceCard, OrderInfoCard, OrderLinesCard, PaymentCard, RefundCard, RemarkCard, StoreCard } from './OrderCards';
import { Stars } from './Stars';
import { ArrivalLine } from './StepTracker';
import './Order.css';

const ACTORS: Record<string, MessageKey> = { customer: 'order.actor.customer', store: 'order.actor.store', system: 'order.actor.system' };

/** /order/info?orderNo=: the order's lines, amounts and history with times. */
export function OrderInfoPage({ orderNo }: { orderNo: string }) {
  const t = useT();
  const lang = useLang();
  const q = useQuery(orderNo ? `order-info:${orderNo}:${lang}` : null, (signal) => getOrder(orderNo, signal));
  return (
    <div className="ost">
      <Header title={t('order.info.title')} fallback="/order" />
      {!orderNo ? (
        <Loading page error={t('order.notFound')} />
      ) : !q.data ? (
        <Loading page error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />
      ) : (
        <InfoView order={q.data} />
      )}
    </div>
  );
}

function historyLabel(h: OrderHistoryEntry, orderType: number, t: (k: MessageKey) => string): string {
  if (h.note === 'created') return t('order.history.created');
  // Before payment the progress is "unknown" (99): the state says what happened.
  if (h.progress === 99) return t(orderStateLabel(h.state));
  return t(stepLabelKey(h.progress, orderType));
}

function InfoView({ order }: { order: OrderDetail }) {
  const t = useT();
  const navigate = useNavigate();
  const no = encodeURIComponent(order.orderNo);
  const stateKey = orderStateLabel(order.state);
  const label = stateKey === 'order.state.unknown' && order.stateLabel ? order.stateLabel : t(stateKey);
  const history = [...(order.history ?? [])].sort((a, b) => a.seq - b.seq);
  const refunds = refundedAttempts(order);
  return (
    <div className="ost__body">
      <section className={`ost-head ost-head--${orderStateTone(order.state)}`} data-testid="order-state" data-state={order.state}>
        <strong className="ost-head__state">{label}</strong>
        {!isCancelledState(order.state) && order.state !== 5 && order.state !== 4 && order.progress !== 99 ? (
          <span className="ost-head__hint">{t(stepLabelKey(order.progress, order.orderType))}</span>
        ) : null}
        {order.arrival && !isCancelledState(order.state) && order.state !== 5 && order.state !== 4 ? (
          <ArrivalLine arrival={order.arrival} orderType={order.orderType} />
        ) : null}
      </section>
      <RefundCard order={order} />
      <StoreCard order={order} storeName={order.storeName || order.storeCode} />
      <OrderInfoCard order={order} />
      <OrderLinesCard order={order} />
      <PaymentCard order={order} />
      <RemarkCard order={order} />
      <InvoiceCard order={order} />
      {refunds.length > 0 && (
        <section className="ost-card" aria-label={t('order.refunds.title')} data-testid="order-refunds">
          <h2 className="ost-card__title">{t('order.refunds.title')}</h2>
          <ol className="ohist">
            {refunds.map((p) => (
              <li key={p.paymentId} className="ohist__row" data-testid={`refund-${p.paymentId}`} data-state={p.state}>
                <span className="ohist__label">
                  {t(refundStateKey(p))}
                  {p.refundReason ? <small>{p.refundReason}</small> : null}
                </span>
                {p.amount !== undefined ? <span className="ohist__at">{formatYuan(p.amount)}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      )}
      {history.length > 0 && (
        <section className="ost-card" aria-label={t('order.history.title')}>
          <h2 className="ost-card__title">{t('order.history.title')}</h2>
          <ol className="ohist" data-testid="order-history">
            {history.map((h) => (
              <li key={h.seq} className="ohist__row" data-testid={`history-${h.seq}`}>
                <span className="ohist__label">
                  {historyLabel(h, order.orderType, t)}
                  {ACTORS[h.actor] ? <small>{t(ACTORS[h.actor] as MessageKey)}</small> : null}
                  {h.state === 2 && h.note ? <small data-testid={`history-${h.seq}-note`} data-user-text="">
                      {h.note}
                    </small> : null}
                </span>
                <time className="ohist__at" dateTime={new Date(h.at).toISOString()}>
                  {formatDateTime(h.at)}
                </time>
              </li>
            ))}
          </ol>
        </section>
      )}
      {order.comment && (
        <section className="ost-card" data-testid="order-comment">
          <h2 className="ost-card__title">{t('order.comment.mine')}</h2>
          <Stars value={order.comment.rating} />
          {order.comment.text && <p className="ocomment__text">{order.comment.text}</p>}
        </section>
      )}
      <div className="ost-actions">
        <button type="button" className="btn btn--secondary" onClick={() => void navigate(`/order/status?orderNo=${no}`)} data-testid="info-track">
          {t('order.track')}
        </button>
        {order.state === 8 && !order.comment && (
          <button type="button" className="btn btn--ghost" onClick={() => void navigate(`/order/comment?orderNo=${no}`)} data-testid="info-comment">
            {t('order.comment.open')}
          </button>
        )}
        <button type="button" className="btn btn--ghost" onClick={() => void navigate(`/order/oneMoreOrder?orderNo=${no}`)} data-testid="info-again">
          {t('order.again')}
        </button>
      </div>
    </div>
  );
}
