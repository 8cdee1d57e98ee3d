import { AddressTagBadge, useRecipient } from '@/components/AddressWho';
import { useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { AlertIcon, BagIcon, CheckIcon, ChevronRightIcon, ClockIcon, DineIcon, PinIcon, ScooterIcon, StoreIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { Price } from '@/components/Price';
import { PriceBreakdown } from '@/components/PriceBreakdown';
import { Stepper } from '@/components/Stepper';
import { showToast } from '@/components/Toast';
import { isApiError } from '@/lib/api';
import { serverNow } from '@/lib/clock';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { Address, Cart, OrderSubmitReply, PayMethod, ReservationInput, Store } from '@/lib/api/types';
import type { OrderType, PaymentType } from '@/lib/orders';
import { arrivalText } from '@/utils/arrival';
import { storeAddress, storeName } from '@/utils/storeDisplay';
import { submitOrder } from '../api/checkout';
import { buildOrder, IdempotencyKeys, paymentTypesFor, REMARK_MAX, TABLEWARE_MAX } from '../submit';
import { invoiceBody, invoiceProblems, loadInvoice, saveInvoice, type InvoiceDraft, type InvoiceField } from '../invoice';
import { payFamilies } from '../payFamilies';
import { InvoiceForm } from './InvoiceForm';
import { TimePicker } from './TimePicker';
import './Checkout.css';

/** The amounts changed since the cart was shown: 409 with the fresh cart. */
export const AMOUNTS_CHANGED = '-6';
/** Items sold out since the cart was read (the store's "86"): the message names them, data is the fresh cart. */
export const ITEMS_SOLD_OUT = '-7';
const ERROR_TOAST_MS = 3000;

export interface CheckoutPageProps {
  /** The logged-in user: the invoice details are remembered per user. */
  userId?: number | null;
  cart: Cart | null;
  /** The cart could not be read (first read failed). */
  cartError?: string | null;
  /** A cart action (reservation) is in flight. */
  cartBusy?: boolean;
  /** The checkout cannot go on (empty cart, no valid items): the reason. */
  blocked?: string | null;
  store: Store | null;
  /** The delivery address chosen for this order (the address book's selection). */
  address: Address | null;
  /** The cart's lines and promotions, composed in by the app. */
  lines: ReactNode;
  /** Sets order type and time (POST /orders/reservation); answers whether it went through. */
  onReserve: (input: ReservationInput) => Promise<boolean>;
  onPickAddress: () => void;
  /** The server's fresh cart (409 errCode -6: amounts changed; -7: items sold out). */
  onCartReplaced: (cart: Cart) => void;
  /** After -7 the cart is read again (the board may have moved on since that answer). */
  onCartStale?: () => void;
  /** The online methods of the user's channel (the first is the default). */
  payMethods?: PayMethod[];
  /** The order is placed: `method` is the online method chosen (null for pay on delivery). */
  onSubmitted: (reply: OrderSubmitReply, method: PayMethod | null) => void;
  onReload?: () => void;
  onBackToMenu: () => void;
  /** The coupon row and its picker, composed in by the app (issue 24; none in the meal-voucher channel). */
  couponSlot?: ReactNode;
  /** The points switch (or the invitation to join), composed in by the app (issue 23). */
  pointsSlot?: ReactNode;
  /** The points the customer chose to spend (pointsDeductions at submit); 0: none. */
  pointsDeductions?: number;
  /** What those points save, in fen (from the cart's pointsDeduction). */
  pointsSaveFen?: number;
}

const TYPE_ICON = { 0: ScooterIcon, 1: BagIcon, 2: DineIcon } as const;

function asOrderType(n: number): OrderType {
  return n === 1 || n === 2 ? n : 0;
}

/** Lines the server will not order (sold out, off time, expired): the cart feature shows them. */
function disabledCount(cart: Cart): number {
  return (cart.saleOutItemsFromShoppingCar?.length ?? 0) + (cart.timeOutItems?.length ?? 0) + (cart.effectOutItems?.length ?? 0);
}

function isCart(value: unknown): value is Cart {
  return typeof value === 'object' && value !== null && 'shoppingCarVersion' in value && 'items' in value;
}

/** /order/submit: order type, address, time, notes, payment, amounts, submit. */
export function CheckoutPage(props: CheckoutPageProps) {
  const t = useT();
  const { cart, cartError, blocked, onReload, onBackToMenu } = props;
  return (
    <div className="co">
      <Header title={t('checkout.title')} fallback="/menu" />
      {blocked ? (
        <Empty
          text={blocked}
          action={
            <button type="button" className="btn btn--primary" onClick={onBackToMenu} data-testid="checkout-back-menu">
              {t('checkout.backToMenu')}
            </button>
          }
        />
      ) : !cart ? (
        <Loading page error={cartError ?? undefined} reloadText={t('common.retry')} onReload={onReload} />
      ) : (
        <CheckoutForm {...props} cart={cart} />
      )}
    </div>
  );
}

function CheckoutForm({
  cart,
  userId = null,
  cartBusy,
  store,
  address,
  lines,
  onReserve,
  onPickAddress,
  onCartReplaced,
  onCartStale,
  payMethods = [],
  onSubmitted,
  onBackToMenu,
  couponSlot,
  pointsSlot,
  pointsDeductions = 0,
  pointsSaveFen = 0,
}: CheckoutPageProps & { cart: Cart }) {
  const t = useT();
  const lang = useLang();
  const recipient = useRecipient();
  const [remark, setRemark] = useState('');
  const [contactless, setContactless] = useState(false);
  const [tableware, setTableware] = useState(1);
  const [invoice, setInvoice] = useState(false);
  const [invoiceDraft, setInvoiceDraft] = useState<InvoiceDraft>(() => loadInvoice(userId));
  const [invoiceTouched, setInvoiceTouched] = useState<Partial<Record<InvoiceField, boolean>>>({});
  const [payment, setPayment] = useState<PaymentType>('online');
  const [method, setMethod] = useState<PayMethod | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const keys = useRef(new IdempotencyKeys());

  const orderType = asOrderType(cart.orderType);
  const scan = !!cart.deskNo;
  const methods: OrderType[] = scan
    ? [2]
    : (store?.serviceMethods ?? [orderType]).filter((m): m is OrderType => m === 0 || m === 1 || m === 2);
  const payments = paymentTypesFor(orderType);
  const payType: PaymentType = payments.includes(payment) ? payment : 'online';
  const payMethod: PayMethod | null = method && payMethods.includes(method) ? method : (payMethods[0] ?? null);
  // What online payment takes here: only the kinds the channel's methods are.
  const families = payFamilies(payMethods);
  const onlineHint = families.length > 0 ? families.map((f) => t(`checkout.pay.family.${f}`)).join(t('common.listSep')) : t('checkout.pay.onlineHint');
  const storeCode = cart.storeCode || store?.storeCode || '';
  const delivery = orderType === 0;

  const fen = {
    // Promotions, then coupons (the delivery fee a coupon waives included).
    discount: toFen(cart.discountAmount) + toFen(cart.couponDiscountsAmount) + toFen(cart.couponDeliveryFee),
    order: toFen(cart.orderAmount),
    points: pointsDeductions > 0 ? pointsSaveFen : 0,
  };

  const switchType = (type: OrderType) => {
    if (type === orderType || cartBusy) return;
    void onReserve({ orderType: type, serviceMethod: type, storeCode, isBookOrder: false });
  };

  const chooseTime = (slot: number | null) =>
    onReserve(
      slot === null
        ? { orderType, serviceMethod: orderType, storeCode, isBookOrder: false }
        : { orderType, serviceMethod: orderType, storeCode, isBookOrder: true, orderTime: slot },
    );

  const problem = (): MessageKey | null => {
    if (cart.items.length === 0) return 'cart.noValidItems';
    if (delivery && !address) return 'checkout.address.required';
    if (delivery && address?.illegal) return 'checkout.address.illegal';
    if (delivery && cart.minDeliveryGap > 0) return 'checkout.belowMinimum';
    if (invoice && Object.keys(invoiceProblems(invoiceDraft)).length > 0) return 'checkout.invoiceForm.fix';
    return null;
  };

  const submit = async () => {
    if (submitting || cartBusy) return;
    const p = problem();
    if (p) {
      if (p === 'checkout.invoiceForm.fix') setInvoiceTouched({ title: true, taxNo: true, email: true });
      showToast(p === 'checkout.belowMinimum' ? t(p, { amount: formatFen(toFen(cart.minDeliveryGap)) }) : t(p), ERROR_TOAST_MS);
      return;
    }
    const order = buildOrder(cart, { address, remark, contactless, tableware, invoice, paymentType: payType, pointsDeductions });
    if (invoice) order.invoice = invoiceBody(invoiceDraft);
    const key = keys.current.keyFor(order);
    setSubmitting(true);
    try {
      const reply = await submitOrder(order, key);
      keys.current.forget();
      if (invoice) saveInvoice(userId, invoiceDraft);
      onSubmitted(reply, reply.paymentType === 'offline' ? null : payMethod);
    } catch (e) {
      if (isApiError(e) && (e.errCode === AMOUNTS_CHANGED || e.errCode === ITEMS_SOLD_OUT) && isCart(e.data)) {
        // Nothing was created: show the fresh amounts; the next submit is a new attempt.
        keys.current.forget();
        onCartReplaced(e.data);
        if (e.errCode === ITEMS_SOLD_OUT) onCartStale?.();
        showToast(e.message || t('checkout.amountsChanged'), ERROR_TOAST_MS);
      } else {
        // A refusal or a lost answer: the same body retried keeps its key (the server answers once).
        showToast(e instanceof Error ? e.message : String(e), ERROR_TOAST_MS);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <div className="co__body">
        {methods.length > 1 && (
          <div className="seg co__types" role="tablist" aria-label={t('checkout.orderType')}>
            {methods.map((m) => {
              const Icon = TYPE_ICON[m];
              return (
                <button
                  key={m}
                  type="button"
                  role="tab"
                  aria-selected={m === orderType}
                  className={`seg__btn${m === orderType ? ' seg__btn--on' : ''}`}
                  onClick={() => switchType(m)}
                  disabled={cartBusy}
                  data-testid={`checkout-type-${m}`}
                >
                  <Icon /> {t(`orderType.${m}` as MessageKey)}
                </button>
              );
            })}
          </div>
        )}

        <section className="co-card">
          {delivery ? (
            <button type="button" className="co-addr" onClick={onPickAddress} data-testid="checkout-address">
              <PinIcon className="co-addr__icon" />
              {address ? (
                <span className="co-addr__main">
                  <strong className="co-addr__line">
                    <AddressTagBadge tag={address.tag} testId="checkout-address-tag" /> {address.baseAddress} {address.houseNumber}
                  </strong>
                  <span className="co-addr__who" data-testid="checkout-address-who">
                    {recipient(address)} {address.phone}
                  </span>
                  {address.illegal ? (
                    <span className="co-addr__warn">
                      <AlertIcon /> {t('checkout.address.illegal')}
                    </span>
                  ) : (
                    !address.hasScope && (
                      <span className="co-addr__warn">
                        <AlertIcon /> {t('checkout.address.outOfRange')}
                      </span>
                    )
                  )}
                </span>
              ) : (
                <span className="co-addr__main co-addr__main--empty">{t('checkout.address.choose')}</span>
              )}
              <ChevronRightIcon className="co-row__chev" />
            </button>
          ) : (
            <div className="co-addr co-addr--store" data-testid="checkout-store">
              <StoreIcon className="co-addr__icon" />
              <span className="co-addr__main">
                <strong className="co-addr__line">{store && store.storeCode === storeCode ? storeName(store, lang) : storeCode}</strong>
                {store && store.storeCode === storeCode && <span className="co-addr__who">{storeAddress(store, lang)}</span>}
                {cart.deskNo && (
                  <span className="co-addr__desk" data-testid="checkout-desk">
                    {t('checkout.desk', { desk: cart.deskNo })}
                  </span>
                )}
              </span>
            </div>
          )}
          <TimePicker
            storeCode={storeCode}
            orderType={orderType}
            orderTime={cart.orderTime}
            isBookOrder={cart.isBookOrder}
            fixed={scan}
            disabled={cartBusy}
            onChoose={chooseTime}
          />
          {cart.arrival && (
            <p className="co-arrival" data-testid="checkout-arrival" data-kind={cart.arrival.kind} data-at={cart.arrival.at}>
              <ClockIcon /> {arrivalText(cart.arrival, orderType, lang, serverNow(), t)}
            </p>
          )}
        </section>

        <section className="co-card co-card--lines" aria-label={t('checkout.items')}>
          <h2 className="co-card__title">
            {t('checkout.items')}
            <small>{t('cart.countN', { n: cart.totalQuantity })}</small>
          </h2>
          {lines}
          {disabledCount(cart) > 0 && (
            <p className="co-card__note" data-testid="checkout-unavailable-note">
              <AlertIcon /> {t(cart.items.length > 0 ? 'checkout.unavailableNote' : 'checkout.nothingOrderable')}
            </p>
          )}
          {cart.items.length === 0 && (
            <button type="button" className="btn btn--ghost co-card__back" onClick={onBackToMenu} data-testid="checkout-back-menu">
              {t('checkout.backToMenu')}
            </button>
          )}
        </section>

        <section className="co-card">
          <label className="co-field">
            <span className="co-field__label">{t('checkout.remark')}</span>
            <textarea
              className="co-field__input"
              value={remark}
              maxLength={REMARK_MAX}
              rows={2}
              placeholder={t('checkout.remarkPlaceholder')}
              onChange={(e) => setRemark(e.target.value)}
              data-testid="checkout-remark"
            />
            <small className="co-field__count">
              {Array.from(remark).length}/{REMARK_MAX}
            </small>
          </label>
          {delivery && (
            <Check checked={contactless} onChange={setContactless} testId="checkout-contactless">
              {t('checkout.contactless')}
            </Check>
          )}
          <div className="co-row" data-testid="checkout-tableware">
            <span className="co-row__label">{t('checkout.tableware')}</span>
            <span className="co-row__value co-row__value--muted">{tableware === 0 ? t('checkout.noTableware') : ''}</span>
            <Stepper size="sm" value={tableware} min={0} max={TABLEWARE_MAX} onChange={setTableware} label={t('checkout.tableware')} />
          </div>
          <Check checked={invoice} onChange={setInvoice} testId="checkout-invoice">
            {t('checkout.invoice')}
          </Check>
          {invoice && (
            <InvoiceForm
              value={invoiceDraft}
              onChange={setInvoiceDraft}
              touched={invoiceTouched}
              onTouch={(f) => setInvoiceTouched((prev) => ({ ...prev, [f]: true }))}
            />
          )}
        </section>

        <section className="co-card" aria-label={t('checkout.payment')}>
          <h2 className="co-card__title">{t('checkout.payment')}</h2>
          <div className="co-pay" role="radiogroup" aria-label={t('checkout.payment')}>
            {payments.map((p) => (
              <button
                key={p}
                type="button"
                role="radio"
                aria-checked={p === payType}
                className={`co-pay__opt${p === payType ? ' co-pay__opt--on' : ''}`}
                onClick={() => setPayment(p)}
                data-testid={`checkout-pay-${p}`}
              >
                <span className="co-pay__name">{t(p === 'online' ? 'checkout.pay.online' : 'checkout.pay.offline')}</span>
                <small>{p === 'online' ? onlineHint : t('checkout.pay.offlineHint')}</small>
                {p === payType && <CheckIcon className="co-pay__check" />}
              </button>
            ))}
          </div>
          {payType === 'online' && payMethods.length > 0 && (
            <div className="co-methods" role="radiogroup" aria-label={t('checkout.payMethod')} data-testid="checkout-methods">
              {payMethods.map((m) => (
                <button
                  key={m}
                  type="button"
                  role="radio"
                  aria-checked={m === payMethod}
                  className={`co-methods__opt co-methods__opt--${m}${m === payMethod ? ' co-methods__opt--on' : ''}`}
                  onClick={() => setMethod(m)}
                  data-testid={`checkout-method-${m}`}
                >
                  <span className="co-methods__logo" aria-hidden="true">
                    {t(`pay.method.${m}.short` as MessageKey)}
                  </span>
                  {t(`pay.method.${m}` as MessageKey)}
                </button>
              ))}
            </div>
          )}
        </section>

        {couponSlot && (
          <section className="co-card co-card--coupons" aria-label={t('coupon.row.label')} data-testid="checkout-coupon-card">
            {couponSlot}
          </section>
        )}

        {pointsSlot && (
          <section className="co-card co-card--points" aria-label={t('points.toggle.label')} data-testid="checkout-points">
            {pointsSlot}
          </section>
        )}

        <section className="co-card co-sum" aria-label={t('checkout.amounts')} data-testid="checkout-amounts">
          <PriceBreakdown
            breakdown={cart.breakdown}
            delivery={delivery}
            lines={false}
            payableTestId="checkout-total"
            points={fen.points > 0 ? { fen: fen.points, points: pointsDeductions, inPayable: false } : null}
          />
          {delivery && cart.minDeliveryGap > 0 ? (
            <p className="co-sum__gap co-sum__gap--min" data-testid="checkout-min-gap">
              {t('cart.minGap', { amount: formatFen(toFen(cart.minDeliveryGap)) })}
            </p>
          ) : (
            delivery && cart.differenceDeliveryFeeMsg && <p className="co-sum__gap">{cart.differenceDeliveryFeeMsg}</p>
          )}
        </section>
      </div>

      {createPortal(
        <footer className="co-bar">
          <span className="co-bar__sum">
            {t('checkout.toPay')}
            <Price fen={fen.order - fen.points} size="lg" />
            {fen.discount + fen.points > 0 && (
              <small className="co-bar__saved">{t('cart.saved', { amount: formatFen(fen.discount + fen.points) })}</small>
            )}
          </span>
          <button
            type="button"
            className="btn btn--primary co-bar__go"
            onClick={() => void submit()}
            disabled={submitting}
            aria-disabled={submitting || cartBusy}
            data-testid="checkout-submit"
          >
            {submitting ? t('checkout.submitting') : t('checkout.submit')}
          </button>
        </footer>,
        document.body,
      )}
    </>
  );
}

function Check({ checked, onChange, testId, children }: { checked: boolean; onChange: (v: boolean) => void; testId: string; children: ReactNode }) {
  return (
    <label className="co-check">
      <input type="checkbox" className="co-check__input" checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      <span className={`co-check__box${checked ? ' co-check__box--on' : ''}`} aria-hidden="true">
        {checked && <CheckIcon />}
      </span>
      <span className="co-check__text">{children}</span>
    </label>
  );
}

