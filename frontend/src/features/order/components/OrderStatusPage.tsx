import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { OrderDetail } from '@/lib/api/types';
import { cancelOrder } from '../api/order';
import { useOrderTracker } from '../hooks/useOrderTracker';
import { isCancelledState, isClosedState, isUnpaidState, orderStateLabel, orderStateTone } from '../labels';
import { stepIndex } from '../tracking';
import { InvoiceCard, OrderInfoCard, OrderLinesCard, RefundCard, RemarkCard, StoreCard, orderTypeOf } from './OrderCards';
import { RefundFailedDialog, refundFailure } from './RefundFailedDialog';
import { ArrivalLine, LiveChip, StepTracker } from './StepTracker';
import './Order.css';

/** The payment side of the page (the app composes it from the payment feature). */
export interface OrderPaymentView {
  /** none, paying (支付处理中...), paid, failed (支付失败: also cancelled), closed. */
  phase: 'none' | 'paying' | 'paid' | 'failed' | 'closed';
  reason?: string | null;
}

export interface OrderStatusPageProps {
  orderNo: string;
  /** Someone else's order, followed with its view token: no owner actions. */
  viewToken?: string | null;
  /** The store's name when the order does not carry one (the app knows the current store). */
  storeNameFallback?: (storeCode: string) => string | null;
  onContinue: () => void;
  payment?: OrderPaymentView;
  /** Pay (again) for the unpaid order. */
  onPay?: (order: OrderDetail) => void;
  /** Changes when the app learns the order moved (a payment result): a fresh snapshot. */
  refreshKey?: string | number;
  /** Every version of the order shown. */
  onOrder?: (order: OrderDetail) => void;
}

const TOAST_MS = 3000;

/**
 * /order/status?orderNo=: the order followed live — the steps with their times, the ETA counting
 * down, the connection state, the store phone; the payment while it is pending or failed; cancel
 * before the store accepted; the refund failure alert.
 */
export function OrderStatusPage({ orderNo, viewToken, storeNameFallback, onContinue, payment, onPay, refreshKey, onOrder }: OrderStatusPageProps) {
  const t = useT();
  const navigate = useNavigate();
  const tracker = useOrderTracker(orderNo, viewToken);
  const { order, refresh } = tracker;

  const firstKey = useRef(refreshKey);
  useEffect(() => {
    if (firstKey.current === refreshKey) return;
    firstKey.current = refreshKey;
    refresh();
  }, [refreshKey, refresh]);

  const onOrderRef = useRef(onOrder);
  useEffect(() => {
    onOrderRef.current = onOrder;
  });
  useEffect(() => {
    if (order) onOrderRef.current?.(order);
  }, [order]);

  return (
    <div className="ost">
      <Header
        title={t('order.status.title')}
        fallback="/"
        right={
          viewToken ? null : (
            <button type="button" className="hdr__btn hdr__btn--text" onClick={() => void navigate('/order')} data-testid="order-list-link">
              {t('order.list.short')}
            </button>
          )
        }
      />
      {!orderNo ? (
        <Loading page error={t('order.notFound')} />
      ) : !order ? (
        <Loading page error={tracker.error?.message} reloadText={t('common.retry')} onReload={refresh} />
      ) : (
        <StatusView
          order={order}
          owner={!viewToken}
          storeName={order.storeName || storeNameFallback?.(order.storeCode) || order.storeCode}
          payment={payment ?? { phase: 'none' }}
          onPay={onPay}
          onContinue={onContinue}
          onAdopt={tracker.adopt}
        />
      )}
    </div>
  );
}

interface StatusViewProps {
  order: OrderDetail;
  owner: boolean;
  storeName: string;
  payment: OrderPaymentView;
  onPay?: (order: OrderDetail) => void;
  onContinue: () => void;
  onAdopt: (order: OrderDetail) => void;
}

function StatusView({ order, owner, storeName, payment, onPay, onContinue, onAdopt }: StatusViewProps) {
  const t = useT();
  const navigate = useNavigate();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refundTel, setRefundTel] = useState<string | null>(null);

  const type = orderTypeOf(order);
  const unpaid = isUnpaidState(order.state);
  const cancelled = isCancelledState(order.state);
  const closed = isClosedState(order.state);
  const offline = order.paymentType === 'offline';
  const stateKey = orderStateLabel(order.state);
  const stateLabel = stateKey === 'order.state.unknown' && order.stateLabel ? order.stateLabel : t(stateKey);
  const paying = unpaid && payment.phase === 'paying';
  const payFailed = unpaid && (payment.phase === 'failed' || order.state === 4);
  const headline = paying ? t('pay.processing') : unpaid || cancelled ? stateLabel : order.progressLabel || stateLabel;
  const steps = order.steps ?? [];
  const reached = steps.some((s) => s.done);
  const showSteps = !unpaid && (!cancelled || reached);
  // The server's arrival: the promise while it runs, the booked time, or when it was delivered.
  const arrival = !unpaid && !cancelled ? (order.arrival ?? null) : null;

  let hint = '';
  if (paying) hint = t('pay.processingHint');
  else if (unpaid) hint = t('order.hint.unpaid');
  else if (cancelled) hint = t(order.progress === 2 ? 'order.hint.refused' : 'order.hint.cancelled');
  else if (order.state === 7 || (offline && !closed)) hint = t('order.hint.cod', { amount: formatFen(toFen(order.orderAmount)) });
  else if (order.progress === 0) hint = t('order.hint.awaiting');

  const cancel = async () => {
    setConfirmCancel(false);
    if (busy) return;
    setBusy(true);
    try {
      onAdopt(await cancelOrder(order.orderNo));
      showToast(t('order.cancelled'), TOAST_MS);
    } catch (e) {
      const failure = refundFailure(e, order.storeTel);
      if (failure) setRefundTel(failure.tel);
      else showToast(e instanceof Error ? e.message : String(e), TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="ost__body">
      <section
        className={`ost-head ost-head--${payFailed ? 'warn' : orderStateTone(order.state)}`}
        data-testid="order-state"
        data-state={order.state}
        data-progress={order.progress}
        data-seq={order.seq ?? ''}
      >
        <div className="ost-head__top">
          <span className="ost-head__badge">{stateLabel}</span>
          <LiveChip />
        </div>
        <strong className="ost-head__state" data-testid="order-progress">
          {headline}
        </strong>
        {hint && <span className="ost-head__hint">{hint}</span>}
        {arrival && <ArrivalLine arrival={arrival} orderType={type} />}
      </section>

      {owner && unpaid && onPay && (
        <section className={`ost-pay${payFailed ? ' ost-pay--failed' : ''}`} data-testid={paying ? 'pay-pending' : payFailed ? 'pay-failed' : 'pay-unpaid'}>
          {paying ? (
            <span className="ost-pay__text">
              <span className="ost-pay__spinner" aria-hidden="true" />
              {t('pay.processing')}
            </span>
          ) : (
            <>
              <span className="ost-pay__text">
                {payFailed ? <strong>{t('pay.failed')}</strong> : <strong>{t('order.toPay', { amount: formatFen(toFen(order.orderAmount - (order.paidAmount ?? 0))) })}</strong>}
                {payFailed && payment.reason ? <small>{payment.reason}</small> : null}
              </span>
              <button type="button" className="btn btn--primary btn--sm" onClick={() => onPay(order)} data-testid="pay-again">
                {payFailed ? t('pay.again') : t('pay.now')}
              </button>
            </>
          )}
        </section>
      )}

      {showSteps && steps.length > 0 && (
        <section className="ost-card ost-card--steps">
          <StepTracker steps={steps} />
        </section>
      )}

      <RefundCard order={order} />
      <StoreCard order={order} storeName={storeName} />
      <OrderInfoCard order={order} />
      <OrderLinesCard order={order} />
      <RemarkCard order={order} />
      <InvoiceCard order={order} />

      <div className="ost-actions">
        {owner && order.canCancel && stepIndex(order.progress) < 0 && !closed && (
          <button type="button" className="btn btn--ghost" onClick={() => setConfirmCancel(true)} disabled={busy} data-testid="order-cancel">
            {t('order.cancel')}
          </button>
        )}
        {owner && (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => void navigate(`/order/info?orderNo=${encodeURIComponent(order.orderNo)}`)}
            data-testid="order-info-link"
          >
            {t('order.info.open')}
          </button>
        )}
        {owner && order.state === 8 && !order.comment && (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => void navigate(`/order/comment?orderNo=${encodeURIComponent(order.orderNo)}`)}
            data-testid="order-comment-link"
          >
            {t('order.comment.open')}
          </button>
        )}
      </div>
      <button type="button" className="btn btn--ghost btn--block" onClick={onContinue} data-testid="order-continue">
        {t('order.continue')}
      </button>

      <Dialog
        open={confirmCancel}
        title={t('order.cancelConfirm')}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirmCancel(false)}
        confirmText={t('order.cancelYes')}
        cancelText={t('order.cancelNo')}
      >
        <p className="ost-dialog-text">{order.state === 6 ? t('order.cancelPaidHint') : t('order.cancelHint')}</p>
      </Dialog>
      <RefundFailedDialog tel={refundTel} onClose={() => setRefundTel(null)} />
    </div>
  );
}
