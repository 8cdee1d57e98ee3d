import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { showToast } from '@/components/Toast';
import { useAccount } from '@/features/account';
import { useCart } from '@/features/cart';
import { CommentPage, OrderInfoPage, OrderListPage, OrderStatusPage, ReorderPage, isUnpaidState, type ReorderResult } from '@/features/order';
import {
  PayHost,
  clearPayRecord,
  onlineMethodsFor,
  readPayRecord,
  usePay,
  usePaymentWatch,
  usePendingPayment,
} from '@/features/payment';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { currentChannel } from '@/lib/channel';
import { useLang, useT } from '@/lib/i18n';
import type { OrderDetail, PayMethod } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';
import { storeName } from '@/utils/storeDisplay';

const PENDING = ['created', 'pending'];

/** The method to pay again with: the last attempt's when this channel offers it, else the channel's first. */
function methodFor(order: OrderDetail): PayMethod | null {
  const methods = onlineMethodsFor(currentChannel());
  const last = order.payment?.method as PayMethod | undefined;
  return last && methods.includes(last) ? last : (methods[0] ?? null);
}

/**
 * /order/status?orderNo=…[&paymentId=…][&customestatus=1][&viewToken=…]: the order feature's live
 * page with the payment feature's side composed in (the payment's state, pay again).
 */
export function OrderStatusRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const lang = useLang();
  const { store } = useCurrentStore();
  const loggedIn = useAccount((s) => s.token !== null);
  const orderNo = params.get('orderNo') ?? '';
  const viewToken = params.get('viewToken');
  const failed = params.get('customestatus') === '1';
  const [seen, setSeen] = useState<{ orderNo: string; state: number; paymentId: string | null; paymentPending: boolean } | null>(null);
  const current = seen && seen.orderNo === orderNo ? seen : null;

  // Which payment to follow: the return URL's, the order's pending attempt, the pay-in-progress
  // record, or the server's copy of it (GET /payments/in-progress).
  const record = readPayRecord();
  const known =
    params.get('paymentId') ??
    (current?.paymentPending ? current.paymentId : null) ??
    (record && record.orderNo === orderNo ? record.paymentId : null);
  const serverCopy = usePendingPayment(orderNo, loggedIn && !viewToken && !known && !!current && isUnpaidState(current.state));
  const paymentId = known ?? serverCopy;
  const watch = usePaymentWatch({ orderNo, paymentId, failed });

  const go = useCallback((to: string, opts?: { replace?: boolean }) => void navigate(to, opts), [navigate]);
  const pay = usePay({ navigate: go });

  const onOrder = useCallback((o: OrderDetail) => {
    const pending = !!o.payment && PENDING.includes(String(o.payment.state));
    setSeen((s) =>
      s && s.orderNo === o.orderNo && s.state === o.state && s.paymentId === (o.payment?.paymentId ?? null) && s.paymentPending === pending
        ? s
        : { orderNo: o.orderNo, state: o.state, paymentId: o.payment?.paymentId ?? null, paymentPending: pending },
    );
    // Paid, cash on delivery or closed: nothing is being paid any more.
    if (!isUnpaidState(o.state)) clearPayRecord(o.orderNo);
  }, []);

  return (
    <>
      <OrderStatusPage
        orderNo={orderNo}
        viewToken={viewToken}
        storeNameFallback={(code) => (store && store.storeCode === code ? storeName(store, lang) : null)}
        onContinue={() => void navigate('/menu')}
        payment={watch}
        refreshKey={watch.phase}
        onOrder={onOrder}
        onPay={(o) => {
          const method = methodFor(o);
          if (method) void pay.start(o.orderNo, method);
        }}
      />
      <PayHost flow={pay} />
    </>
  );
}

/** /order: the order list. */
export function OrderListRoute() {
  const navigate = useNavigate();
  return <OrderListPage onOrderMore={() => void navigate('/menu')} />;
}

/** /order/info?orderNo=… */
export function OrderInfoRoute() {
  const [params] = useSearchParams();
  return <OrderInfoPage orderNo={params.get('orderNo') ?? ''} />;
}

/** /order/comment?orderNo=… */
export function OrderCommentRoute() {
  const [params] = useSearchParams();
  return <CommentPage orderNo={params.get('orderNo') ?? ''} />;
}

/** Spec ordering §9: cart toasts 2 s, errors 3 s (a product left out is worth the longer one). */
const SKIPPED_TOAST_MS = 3000;

/** /order/oneMoreOrder?orderNo=…: the cart filled again from the order, then checkout. */
export function ReorderRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useT();
  const done = (result: ReorderResult) => {
    useCart.getState().adopt(result.cart);
    const type = result.cart.orderType;
    if (type === 0 || type === 1 || type === 2) useStoreSelection.getState().setOrderType(type as OrderType);
    if (result.skippedNames.length > 0) showToast(t('order.againSkipped', { names: result.skippedNames.join(t('common.listSep')) }), SKIPPED_TOAST_MS);
    void navigate('/order/submit', { replace: true });
  };
  return <ReorderPage orderNo={params.get('orderNo') ?? ''} onDone={done} />;
}
