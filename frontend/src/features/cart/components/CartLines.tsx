import { CloseIcon } from '@/components/Icons';
import { Price } from '@/components/Price';
import { Stepper } from '@/components/Stepper';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { Cart, CartItem } from '@/lib/api/types';
import { itemOptions } from '@/utils/cartItem';
import { disabledGroups } from '../cartView';
import { useCart } from '../store/cart';
import { cartToast } from './cartToast';
import { CouponItemLines } from './CouponItemLines';

export interface CartLinesProps {
  cart: Cart;
  /**
   * Checkout: the valid lines without steppers or delete. The disabled lines (sold out, off
   * time, expired) still show, with their reason and a one-tap remove, so what will not be
   * ordered is never hidden.
   */
  readOnly?: boolean;
}

/** The valid lines of the cart and the disabled ones grouped by reason, each removable. */
export function CartLines({ cart, readOnly }: CartLinesProps) {
  const t = useT();
  const groups = disabledGroups(cart);
  const clearUnavailable = useCart((s) => s.clearUnavailable);
  return (
    <div className="cart-lines">
      {cart.items.length > 0 && (
        <ul className="cart-lines__list" data-testid="cart-items">
          {cart.items.map((item) => (
            <Line key={item.id} item={item} readOnly={readOnly} />
          ))}
        </ul>
      )}
      <CouponItemLines cart={cart} readOnly={readOnly} />
      {groups.length > 0 && (
        <section className="cart-off" data-testid="cart-disabled">
          <div className="cart-off__head">
            <h3 className="cart-off__title">{t('cart.unavailable')}</h3>
            <button
              type="button"
              className="link-btn cart-link--danger"
              onClick={() => void clearUnavailable().then((r) => cartToast(r, t('cart.cleared')))}
              data-testid="cart-clear-unavailable"
            >
              {t('cart.clearUnavailable')}
            </button>
          </div>
          {groups.map((g) => (
            <div key={g.reason} className="cart-off__group" data-testid={`cart-disabled-${g.reason}`}>
              <p className="cart-off__reason">
                {t(g.label)} · {g.items.length}
              </p>
              <ul className="cart-lines__list">
                {g.items.map((item) => (
                  <Line key={item.id} item={item} disabledLabel={item.disableMsg || t(g.label)} />
                ))}
              </ul>
            </div>
          ))}
        </section>
      )}
    </div>
  );
}

function Line({ item, readOnly, disabledLabel }: { item: CartItem; readOnly?: boolean; disabledLabel?: string }) {
  const t = useT();
  const increase = useCart((s) => s.increase);
  const decrease = useCart((s) => s.decrease);
  const remove = useCart((s) => s.remove);
  const options = itemOptions(item, t);
  // The list amount (unit × quantity): discounts are their own rows of the breakdown, never
  // folded into a line's price.
  const total = toFen(item.countPrice);
  const off = disabledLabel !== undefined;
  return (
    <li className={`cart-line${off ? ' cart-line--off' : ''}`} data-testid={`cart-line-${item.id}`}>
      <span className="cart-line__img">{item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" /> : null}</span>
      <div className="cart-line__body">
        <div className="cart-line__top">
          <span className="cart-line__name">{item.prodName}</span>
          {(!readOnly || off) && (
            <button
              type="button"
              className="cart-line__del"
              onClick={() => void remove([item.id]).then((r) => cartToast(r))}
              aria-label={t('cart.delete', { name: item.prodName })}
              data-testid={`cart-delete-${item.id}`}
            >
              <CloseIcon />
            </button>
          )}
        </div>
        {options.length > 0 && (
          <p className="cart-line__opts" data-testid={`cart-options-${item.id}`}>
            {options.join(' · ')}
          </p>
        )}
        {off ? (
          <span className="badge badge--muted cart-line__reason">{disabledLabel}</span>
        ) : (
          item.promotionDesc && <span className="cart-line__promo">{item.promotionDesc}</span>
        )}
        <div className="cart-line__foot">
          <span className="cart-line__price">
            <Price fen={total} size="sm" />
            {(readOnly || item.quantity > 1) && <small className="cart-line__unit">{t('breakdown.unitTimesQty', { price: formatFen(toFen(item.unitPrice)), qty: item.quantity })}</small>}
          </span>
          {readOnly ? null : off ? (
            <span className="cart-line__qty">×{item.quantity}</span>
          ) : (
            <Stepper
              size="sm"
              value={item.quantity}
              min={0}
              max={99}
              label={t('cart.quantityOf', { name: item.prodName })}
              onChange={(v) => void (v > item.quantity ? increase(item.id) : decrease(item.id)).then((r) => cartToast(r))}
            />
          )}
        </div>
      </div>
    </li>
  );
}
