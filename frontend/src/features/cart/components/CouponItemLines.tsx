import { CloseIcon } from '@/components/Icons';
import { Price } from '@/components/Price';
import { useT, type MessageKey } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { Cart, CouponItem } from '@/lib/api/types';
import { useCart } from '../store/cart';
import { cartToast } from './cartToast';

const DISABLED: { key: 'saleOutCouponItems' | 'timeOutCouponItems' | 'effectOutCouponItems'; label: MessageKey; reason: string }[] = [
  { key: 'saleOutCouponItems', label: 'cart.reason.soldOut', reason: 'soldOut' },
  { key: 'timeOutCouponItems', label: 'cart.reason.offTime', reason: 'offTime' },
  { key: 'effectOutCouponItems', label: 'cart.reason.expired', reason: 'expired' },
];

/** The coupon items of the cart (issue 24: a product a coupon adds, at the coupon's price), valid and not. */
export function CouponItemLines({ cart, readOnly }: { cart: Cart; readOnly?: boolean }) {
  const t = useT();
  const valid = cart.couponItems ?? [];
  const off = DISABLED.flatMap((d) => (cart[d.key] ?? []).map((item) => ({ item, label: d.label, reason: d.reason })));
  if (valid.length === 0 && off.length === 0) return null;
  return (
    <>
      {valid.length > 0 && (
        <ul className="cart-lines__list" data-testid="cart-coupon-items">
          {valid.map((item) => (
            <CouponLine key={item.couponCode} item={item} removable={!readOnly} />
          ))}
        </ul>
      )}
      {off.length > 0 && (
        <section className="cart-off" data-testid="cart-coupon-items-disabled">
          <h3 className="cart-off__title">{t('coupon.items.unavailable')}</h3>
          <ul className="cart-lines__list">
            {off.map(({ item, label, reason }) => (
              <CouponLine key={item.couponCode} item={item} removable disabledLabel={item.disableMsg || t(label)} reason={reason} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function CouponLine({ item, removable, disabledLabel, reason }: { item: CouponItem; removable: boolean; disabledLabel?: string; reason?: string }) {
  const t = useT();
  const remove = useCart((s) => s.removeCouponItem);
  const price = toFen(item.unitPrice);
  const original = toFen(item.originalPrice);
  return (
    <li className={`cart-line cart-line--coupon${disabledLabel ? ' cart-line--off' : ''}`} data-testid={`cart-coupon-item-${item.couponCode}`} data-reason={reason ?? ''}>
      <span className="cart-line__img">{item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" /> : null}</span>
      <div className="cart-line__body">
        <div className="cart-line__top">
          <span className="cart-line__name">
            <span className="cart-line__coupon" data-testid={`cart-coupon-item-${item.couponCode}-tag`}>
              {t('coupon.item.tag')}
            </span>{' '}
            {item.prodName}
          </span>
          {removable && (
            <button
              type="button"
              className="cart-line__del"
              onClick={() => void remove(item.couponCode).then((r) => cartToast(r))}
              aria-label={t('coupon.item.remove', { name: item.prodName })}
              data-testid={`cart-coupon-item-${item.couponCode}-remove`}
            >
              <CloseIcon />
            </button>
          )}
        </div>
        {disabledLabel && <span className="badge badge--muted cart-line__reason">{disabledLabel}</span>}
        <div className="cart-line__foot">
          <span className="cart-line__price">
            <Price fen={price * item.quantity} size="sm" />
            {original > price && <s className="cart-line__was">{formatFen(original)}</s>}
          </span>
          <span className="cart-line__qty">×{item.quantity}</span>
        </div>
      </div>
    </li>
  );
}
