import { BagIcon, DineIcon, PhoneIcon, ScooterIcon } from '@/components/Icons';
import { Price } from '@/components/Price';
import { PriceBreakdown } from '@/components/PriceBreakdown';
import { now } from '@/lib/clock';
import { pickLang, useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { OrderDetail } from '@/lib/api/types';
import { itemOptions } from '@/utils/cartItem';
import { formatDateTime, formatDayTime } from '@/utils/time';

const TYPE_ICON = { 0: ScooterIcon, 1: BagIcon, 2: DineIcon } as const;

export function orderTypeOf(order: Pick<OrderDetail, 'orderType'>): 0 | 1 | 2 {
  return order.orderType === 1 || order.orderType === 2 ? order.orderType : 0;
}

/** A phone number as a tel: address (digits, + and the - separators). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+-]/g, '')}`;
}

/** The store with its phone (a tel: link). */
export function StoreCard({ order, storeName }: { order: OrderDetail; storeName: string }) {
  const t = useT();
  return (
    <section className="ost-card ost-store">
      <div className="ost-store__main">
        <span className="ost-store__label">{t('order.store')}</span>
        <strong data-testid="order-store">{storeName}</strong>
      </div>
      {order.storeTel ? (
        <a className="ost-store__tel" href={telHref(order.storeTel)} data-testid="store-tel" aria-label={t('order.callStore', { tel: order.storeTel })}>
          <PhoneIcon />
          <span>{order.storeTel}</span>
        </a>
      ) : null}
    </section>
  );
}

/** Number, type, time, address, placed at. */
export function OrderInfoCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const lang = useLang();
  const type = orderTypeOf(order);
  const Icon = TYPE_ICON[type];
  const timeText = order.isBookOrder
    ? t('order.bookedFor', { time: formatDayTime(order.orderTime, lang, now()) })
    : t('order.expectedAt', { time: formatDayTime(order.orderTime, lang, now()) });
  return (
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
  );
}

/** The lines as priced at submit and the amounts. */
export function OrderLinesCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const lang = useLang();
  // The line's name in the reader's language (the frozen line speaks the submitter's).
  const nameOf = (line: OrderDetail['lines'][number]) => {
    const bill = order.breakdown.lines.find((l) => l.lineId === line.id);
    return bill ? pickLang(lang, bill.nameCn, bill.nameEn) : (line.prodName ?? line.productCode);
  };
  const type = orderTypeOf(order);
  const offline = order.paymentType === 'offline';
  const lines = order.lines ?? [];
  return (
    <section className="ost-card" aria-label={t('checkout.items')}>
      <ul className="ost-lines" data-testid="order-lines">
        {lines.map((line, i) => {
          // The options in the reader's language (the server names them from the codes); lines
          // kept before that show the words they were ordered with.
          const named = (order.lineOptions ?? []).find((o) => o.lineId === line.id);
          const opts = named ? named.options : itemOptions(line, t);
          const price = toFen(line.countPrice ?? 0);
          return (
            <li key={line.id ?? i} className="ost-line">
              <span className="ost-line__name">
                {nameOf(line)}
                {opts.length > 0 && <small>{opts.join(' · ')}</small>}
              </span>
              <span className="ost-line__qty">{t('breakdown.unitTimesQty', { price: formatFen(toFen(line.unitPrice ?? 0)), qty: line.quantity ?? 1 })}</span>
              <Price fen={price} size="sm" />
            </li>
          );
        })}
      </ul>
      <div className="ost-sum">
        <PriceBreakdown
          breakdown={order.breakdown}
          delivery={type === 0}
          lines={false}
          payableLabel={offline ? 'order.payOnDelivery' : 'breakdown.payable'}
          testId="order-breakdown"
          payableTestId="order-amount"
        />
        {!offline && order.paidAmount ? (
          <div className="ost-row" data-testid="order-paid">
            <span>{t('order.paidAmount')}</span>
            <span>{formatFen(toFen(order.paidAmount))}</span>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The remark: the contactless note in the reader's words (the order keeps the store's Chinese
 * note in front of the text, for the kitchen), then the customer's own words.
 */
export function RemarkCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const text = order.remarkText ?? order.remark;
  if (!text && !order.contactless) return null;
  return (
    <section className="ost-card">
      <div className="ost-row" data-testid="order-remark">
        <span>{t('checkout.remark')}</span>
        <span>
          {order.contactless ? <strong className="ost-row__tag">{t('order.contactless')}</strong> : null}
          {order.contactless && text ? ' ' : null}
          {text ? <span data-user-text="">{text}</span> : null}
        </span>
      </div>
    </section>
  );
}

/** The attempt that paid the order (or, unpaid, the latest). */
function settledPayment(order: OrderDetail) {
  return order.payment ?? null;
}

/** How the order was paid and when (online); cash on delivery says so. */
export function PaymentCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const payment = settledPayment(order);
  const offline = order.paymentType === 'offline';
  const method = offline ? 'offline' : payment?.method;
  if (!method) return null;
  return (
    <section className="ost-card" data-testid="order-payment">
      <h2 className="ost-card__title">{t('order.payment.title')}</h2>
      <div className="ost-row">
        <span>{t('order.payment.method')}</span>
        <span data-testid="order-payment-method">{t(`pay.method.${method}` as MessageKey)}</span>
      </div>
      {order.paidAt ? (
        <div className="ost-row">
          <span>{t('order.payment.at')}</span>
          <span data-testid="order-paid-at">{formatDateTime(order.paidAt)}</span>
        </div>
      ) : null}
    </section>
  );
}

/**
 * A refused or cancelled paid order: the store's reason, then where the money stands —
 * refunding (automatic: nothing to do), failed (still retried; the store's phone), refunded.
 * No button: the server makes the refund and retries it by itself.
 */
export function RefundCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const payment = settledPayment(order);
  const state = payment?.refundState ?? null;
  const reason = order.state === 2 ? order.refusalReason : null;
  if (!reason && !state) return null;
  return (
    <section className="ost-card" data-testid="order-refund-card" data-refund={state ?? ''}>
      {reason ? (
        <div className="ost-row" data-testid="order-refusal-reason">
          <span>{t('order.refusal.reason')}</span>
          <span data-user-text="">{reason}</span>
        </div>
      ) : null}
      {state && payment ? (
        <div className={`ost-refund-state ost-refund-state--${state}`}>
          <div className="ost-row">
            <span>{t('order.refundState.title')}</span>
            <strong data-testid="order-refund-state">
              {t(state === 'refunded' ? 'order.refundState.refunded' : state === 'failed' ? 'order.refundState.failed' : 'order.refundState.refunding')} {formatFen(toFen(payment.amount))}
            </strong>
          </div>
          <p className="ost-refund-state__hint">
            {t(state === 'refunded' ? 'order.refundState.refundedHint' : state === 'failed' ? 'order.refundState.failedHint' : 'order.refundState.refundingHint')}
            {state === 'failed' && order.storeTel ? (
              <a className="ost-store__tel" href={telHref(order.storeTel)} data-testid="order-refund-tel">
                <PhoneIcon />
                <span>{order.storeTel}</span>
              </a>
            ) : null}
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** The invoice the customer asked for, as the order keeps it (older orders: none of the fields). */
export function InvoiceCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const inv = order.invoice;
  if (!order.isNeedInvoice || !inv) return null;
  const rows: [MessageKey, string | null | undefined][] = [
    ['order.invoice.title', inv.title],
    ['order.invoice.taxNo', inv.taxNo],
    ['order.invoice.email', inv.email],
  ];
  const kind = inv.kind === 'company' || inv.kind === 'personal' ? t(`checkout.invoiceForm.${inv.kind}`) : '';
  return (
    <section className="ost-card" data-testid="order-invoice">
      <div className="ost-row">
        <span>{t('order.invoice')}</span>
        <span>{kind}</span>
      </div>
      {rows
        .filter(([, v]) => !!v)
        .map(([label, v]) => (
          <div className="ost-row" key={label}>
            <span>{t(label)}</span>
            <span>{v}</span>
          </div>
        ))}
    </section>
  );
}
