import { useEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { CheckIcon, ChevronRightIcon, TicketIcon } from '@/components/Icons';
import { showToast } from '@/components/Toast';
import { useLang, useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { Cart, CartCoupons, ChooseCouponsInput, CouponOption } from '@/lib/api/types';
import { formatDay, lastDay } from '../dates';
import { allOptions, canTap, couponSummary, isProductCoupon, mutexGroups, tapAction, type PickerAction } from '../picker';
import { useCartCoupons } from '../store/cartCoupons';
import './Coupon.css';

/** A cart action's answer, as the cart store gives it. */
export interface CouponActionResult {
  ok: boolean;
  /** The cart answered. */
  data?: { shoppingCarVersion: number };
  error?: Error;
}

export interface CheckoutCouponsProps {
  cart: Cart;
  /** A cart action is in flight. */
  busy?: boolean;
  /** POST /cart/coupons through the cart (the answer is the cart). */
  onChoose: (input: ChooseCouponsInput) => Promise<CouponActionResult>;
  /** POST /cart/coupon-items: a product coupon's item into the cart. */
  onAddItem: (couponCode: string) => Promise<CouponActionResult>;
  /** DELETE /cart/coupon-items/{code}. */
  onRemoveItem: (couponCode: string) => Promise<CouponActionResult>;
}

const TOAST_MS = 3000;

/**
 * Checkout's coupon row (the applied ones and what they save, else how many could apply) and the
 * picker it opens. The server chooses the best combination unless told otherwise and re-prices
 * the cart at every choice: what the picker shows is always the server's last answer.
 */
export function CheckoutCoupons({ cart, busy = false, onChoose, onAddItem, onRemoveItem }: CheckoutCouponsProps) {
  const t = useT();
  const version = cart.shoppingCarVersion;
  const coupons = useCartCoupons((s) => s.data);
  const load = useCartCoupons((s) => s.load);
  const [open, setOpen] = useState(false);
  const [acting, setActing] = useState(false);
  const shown = useRef<number | null>(null);

  // The cart's coupons for the version shown; read afresh when the page opens (another user, a
  // cart changed elsewhere may have kept the same version number).
  useEffect(() => {
    void load(version, shown.current === null);
    shown.current = version;
  }, [load, version]);

  const summary = couponSummary(cart, coupons);
  const appliedNames = coupons ? allOptions(coupons).filter((o) => o.applied).map((o) => o.name) : [];

  const act = async (input: PickerAction) => {
    if (acting || busy) return;
    setActing(true);
    let next = shown.current ?? version;
    try {
      const r = input.kind === 'choose' ? await onChoose(input.input) : input.kind === 'addItem' ? await onAddItem(input.couponCode) : await onRemoveItem(input.couponCode);
      if (r.data) next = r.data.shoppingCarVersion;
      if (!r.ok && r.error) showToast(r.error.message, TOAST_MS);
    } finally {
      // The options are read for the cart as it is now (a choice may leave the version as it was).
      await load(next, true);
      setActing(false);
    }
  };

  return (
    <>
      <button type="button" className="co-row cpn-row" onClick={() => setOpen(true)} data-testid="checkout-coupons" data-applied={summary.applied} data-usable={summary.usable ?? ''}>
        <TicketIcon className="cpn-row__icon" />
        <span className="co-row__label">{t('coupon.row.label')}</span>
        <span className="cpn-row__value" data-testid="checkout-coupons-value">
          {summary.applied > 0 ? (
            <>
              {appliedNames.length > 0 && <small className="cpn-row__names">{appliedNames.join(t('common.listSep'))}</small>}
              <strong className="cpn-row__saved">-{formatFen(summary.savedFen)}</strong>
            </>
          ) : summary.usable ? (
            <span className="cpn-row__count">{t('coupon.row.available', { n: summary.usable })}</span>
          ) : (
            <span className="cpn-row__none">{summary.usable === 0 ? t('coupon.row.none') : ''}</span>
          )}
        </span>
        <ChevronRightIcon className="co-row__chev" />
      </button>
      <Dialog open={open} position="bottom" title={t('coupon.picker.title')} onClose={() => setOpen(false)} noFooter>
        <CouponPicker cart={cart} coupons={coupons} disabled={acting || busy} onAct={(a) => void act(a)} onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

interface PickerProps {
  cart: Cart;
  coupons: CartCoupons | null;
  disabled: boolean;
  onAct: (a: PickerAction) => void;
  onDone: () => void;
}

function CouponPicker({ cart, coupons, disabled, onAct, onDone }: PickerProps) {
  const t = useT();
  if (!coupons) return <p className="cpn-pick__empty">{t('common.loading')}</p>;
  const mutex = cart.couponMutexBeans ?? [];
  const summary = couponSummary(cart, coupons);
  const groups = mutexGroups(mutex, allOptions(coupons));
  const noneOn = coupons.applied.length === 0 && !coupons.auto;
  return (
    <div className="cpn-pick" data-testid="coupon-picker" data-auto={coupons.auto}>
      <div className="cpn-pick__modes">
        <button
          type="button"
          className={`cpn-pick__mode${coupons.auto ? ' cpn-pick__mode--on' : ''}`}
          disabled={disabled}
          aria-pressed={coupons.auto}
          onClick={() => onAct({ kind: 'choose', input: { couponCodes: [] } })}
          data-testid="coupon-auto"
        >
          {t('coupon.picker.auto')}
        </button>
        <button
          type="button"
          className={`cpn-pick__mode${noneOn ? ' cpn-pick__mode--on' : ''}`}
          disabled={disabled}
          aria-pressed={noneOn}
          onClick={() => onAct({ kind: 'choose', input: { couponCodes: [], none: true } })}
          data-testid="coupon-none"
        >
          {t('coupon.picker.none')}
        </button>
      </div>
      <p className="cpn-pick__sum" data-testid="coupon-picker-sum">
        {summary.applied > 0 ? t('coupon.picker.total', { n: summary.applied, amount: formatFen(summary.savedFen) }) : t('coupon.picker.nothing')}
        {coupons.auto && summary.applied > 0 && <small> · {t('coupon.picker.autoOn')}</small>}
      </p>
      {groups.length > 0 && (
        <ul className="cpn-pick__mutex" data-testid="coupon-mutex">
          {groups.map((names) => (
            <li key={names.join('|')}>{t('coupon.picker.mutex', { names: names.join(t('coupon.picker.mutexJoin')) })}</li>
          ))}
        </ul>
      )}
      {coupons.usable.length + coupons.unusable.length === 0 ? (
        <p className="cpn-pick__empty">{t('coupon.picker.empty')}</p>
      ) : (
        <>
          {coupons.usable.length > 0 && (
            <section aria-label={t('coupon.picker.usable', { n: coupons.usable.length })}>
              <h3 className="cpn-pick__head">{t('coupon.picker.usable', { n: coupons.usable.length })}</h3>
              <ul className="cpn-pick__list" data-testid="coupon-usable">
                {coupons.usable.map((o) => (
                  <OptionRow key={o.couponCode} option={o} disabled={disabled} onTap={() => onAct(tapAction(o, coupons, mutex))} />
                ))}
              </ul>
            </section>
          )}
          {coupons.unusable.length > 0 && (
            <section aria-label={t('coupon.picker.unusable', { n: coupons.unusable.length })}>
              <h3 className="cpn-pick__head">{t('coupon.picker.unusable', { n: coupons.unusable.length })}</h3>
              <ul className="cpn-pick__list" data-testid="coupon-unusable">
                {coupons.unusable.map((o) => (
                  <OptionRow key={o.couponCode} option={o} disabled={disabled || !canTap(o)} onTap={() => onAct(tapAction(o, coupons, mutex))} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      <button type="button" className="btn btn--primary btn--block cpn-pick__done" onClick={onDone} data-testid="coupon-picker-done">
        {t('coupon.picker.done')}
      </button>
    </div>
  );
}

function OptionRow({ option: o, disabled, onTap }: { option: CouponOption; disabled: boolean; onTap: () => void }) {
  const t = useT();
  const lang = useLang();
  const saves = o.applied ? toFen(o.saved) : toFen(o.alone);
  return (
    <li>
      <button
        type="button"
        role="checkbox"
        aria-checked={o.applied || o.inCart}
        className={`cpn-opt${o.applied ? ' cpn-opt--on' : ''}${o.reason ? (canTap(o) ? ' cpn-opt--aside' : ' cpn-opt--off') : ''}`}
        disabled={disabled}
        onClick={onTap}
        data-testid={`coupon-option-${o.couponCode}`}
        data-template={o.templateCode}
        data-applied={o.applied}
        data-reason={o.reason?.code ?? ''}
      >
        <strong className="cpn-opt__rule">{o.ruleText}</strong>
        <span className="cpn-opt__body">
          <span className="cpn-opt__name">{o.name}</span>
          <small className="cpn-opt__valid">{t('coupon.validUntil', { date: formatDay(lastDay(o.validTo), lang) })}</small>
          {o.reason ? (
            <small className="cpn-opt__why" data-testid={`coupon-option-${o.couponCode}-why`}>
              {o.reason.text}
            </small>
          ) : (
            isProductCoupon(o.kind) && <small className="cpn-opt__hint">{t('coupon.picker.addsItem')}</small>
          )}
        </span>
        {saves > 0 && !o.reason && (
          <span className="cpn-opt__save" data-testid={`coupon-option-${o.couponCode}-save`}>
            {t(o.applied ? 'coupon.picker.saved' : 'coupon.picker.saves', { amount: formatFen(saves) })}
          </span>
        )}
        <span className={`cpn-opt__tick${o.applied ? ' cpn-opt__tick--on' : ''}`} aria-hidden="true">
          {o.applied && <CheckIcon />}
        </span>
      </button>
    </li>
  );
}
