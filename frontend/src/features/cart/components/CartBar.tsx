import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Dialog } from '@/components/Dialog';
import { CartIcon, TrashIcon } from '@/components/Icons';
import { Price } from '@/components/Price';
import { PriceBreakdown } from '@/components/PriceBreakdown';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import { cartAmounts, checkoutBlock, disabledCount, itemCount } from '../cartView';
import { startCartLive, useCart } from '../store/cart';
import { CartLines } from './CartLines';
import { CartPromotions } from './CartPromotions';
import { CART_ERROR_TOAST_MS, cartToast } from './cartToast';
import './Cart.css';

export interface CartBarProps {
  /** The store of the screen: the cart follows it (GET /cart?storeCode re-checks every item). Null: leave it. */
  storeCode: string | null;
  pageName?: 'menu' | 'search';
  /** The cart passed the checkout checks (POST /cart/verify orderSubmit): go to /order/submit. */
  onCheckout: () => void;
  /** Open the sheet at once (the home page's cart card). */
  initialOpen?: boolean;
}

/**
 * The cart at the bottom of the menu: count, amount and the checkout button; a tap opens the cart
 * sheet (lines, promotions, disabled items). Reads the cart on mount and when the store changes, and
 * keeps it live (socket) while shown.
 */
export function CartBar({ storeCode, pageName = 'menu', onCheckout, initialOpen = false }: CartBarProps) {
  const t = useT();
  const cart = useCart((s) => s.cart);
  const status = useCart((s) => s.status);
  const busy = useCart((s) => s.busy);
  const verify = useCart((s) => s.verify);
  const [open, setOpen] = useState(initialOpen);

  useEffect(() => startCartLive(), []);
  // Read on mount and when the store changes; again whenever nothing is known (after a logout).
  const idle = status === 'idle';
  const readFor = useRef<string | null>(null);
  useEffect(() => {
    const key = `${pageName}|${storeCode ?? ''}`;
    if (readFor.current === key && useCart.getState().status !== 'idle') return;
    readFor.current = key;
    void useCart.getState().load({ pageName, storeCode });
  }, [pageName, storeCode, idle]);

  const count = itemCount(cart);
  const off = cart ? disabledCount(cart) : 0;
  const amounts = cart ? cartAmounts(cart) : null;
  const hasLines = count > 0 || off > 0;
  const isOpen = open && hasLines;

  const checkout = async () => {
    if (!cart && status === 'error') void useCart.getState().load({ pageName, storeCode });
    const block = checkoutBlock(cart);
    if (block) {
      showToast(t(block), CART_ERROR_TOAST_MS);
      return;
    }
    const result = await verify('orderSubmit');
    if (result.ok) {
      setOpen(false);
      onCheckout();
    } else {
      cartToast(result);
    }
  };

  const toggle = () => {
    if (hasLines) setOpen((v) => !v);
    else if (!cart) void useCart.getState().load({ pageName, storeCode });
  };

  const summary = () => {
    if (!cart) {
      if (status === 'error') return <span className="cart-bar__empty">{t('cart.loadFailed')}</span>;
      return <span className="cart-bar__empty">{t('common.loading')}</span>;
    }
    if (count === 0) return <span className="cart-bar__empty">{off > 0 ? t('cart.onlyUnavailable') : t('cart.emptyBar')}</span>;
    return (
      <span className="cart-bar__sum">
        <span className="cart-bar__amount" data-testid="cart-bar-amount" data-amount={formatFen(amounts?.afterPromotions ?? 0)}>
          <Price fen={amounts?.afterPromotions ?? 0} size="md" />
          {amounts && amounts.discount > 0 && <Price fen={amounts.product} size="sm" strike className="cart-bar__was" />}
        </span>
        <span className="cart-bar__fee">
          {cart.orderType === 0
            ? amounts && amounts.deliveryFeeAfterPE > 0
              ? t('cart.deliveryFeeExtra', { amount: formatFen(amounts.deliveryFeeAfterPE) })
              : t('cart.freeDelivery')
            : amounts && amounts.discount > 0
              ? t('cart.saved', { amount: formatFen(amounts.discount) })
              : t(cart.orderType === 2 ? 'orderType.2' : 'orderType.1')}
        </span>
      </span>
    );
  };

  // Below the store's delivery minimum (起送) that is what to say; else how far free delivery is.
  const minGap = cart && count > 0 && cart.orderType === 0 && cart.minDeliveryGap > 0 ? t('cart.minGap', { amount: formatFen(toFen(cart.minDeliveryGap)) }) : null;
  const gap = minGap ? null : cart && count > 0 && cart.orderType === 0 ? cart.differenceDeliveryFeeMsg : null;

  return (
    <>
      {/* Keeps the end of the page above the fixed bar. */}
      <div className="cart-bar__spacer" aria-hidden="true" />
      {createPortal(
        <>
          {isOpen && <div className="cart-mask" onClick={() => setOpen(false)} role="presentation" />}
          <div className="cart-dock">
            {isOpen && cart && <CartSheet onClose={() => setOpen(false)} />}
            {minGap && (
              <p className="cart-gap cart-gap--min" data-testid="cart-min-gap">
                {minGap}
              </p>
            )}
            {gap && (
              <p className="cart-gap" data-testid="cart-delivery-gap">
                {gap}
              </p>
            )}
            <footer className="cart-bar" data-testid="cart-bar">
              <button
                type="button"
                className="cart-bar__main"
                onClick={toggle}
                aria-expanded={isOpen}
                aria-label={t('cart.open', { n: count })}
                data-testid="cart-bar-open"
              >
                <span className={`cart-bar__icon${count > 0 ? ' cart-bar__icon--on' : ''}`}>
                  <CartIcon />
                  {count > 0 && (
                    <span className="cart-bar__count" data-testid="cart-count">
                      {count}
                    </span>
                  )}
                </span>
                {summary()}
              </button>
              <button
                type="button"
                className="btn btn--primary cart-bar__go"
                onClick={() => void checkout()}
                aria-disabled={count === 0 || busy}
                data-testid="cart-checkout"
              >
                {t('cart.checkout')}
              </button>
            </footer>
          </div>
        </>,
        document.body,
      )}
    </>
  );
}

/** The cart sheet: lines with steppers and delete, promotions and the mutex choice, disabled items. */
function CartSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  const cart = useCart((s) => s.cart);
  const clean = useCart((s) => s.clean);
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  if (!cart) return null;
  return (
    <>
      <section className="cart-sheet" role="dialog" aria-modal="true" aria-label={t('cart.title')} data-testid="cart-sheet">
        <header className="cart-sheet__head">
          <h2 className="cart-sheet__title">
            {t('cart.title')}
            <small>{t('cart.countN', { n: itemCount(cart) })}</small>
          </h2>
          <button type="button" className="cart-sheet__clean" onClick={() => setConfirm(true)} data-testid="cart-clean">
            <TrashIcon /> {t('cart.clean')}
          </button>
        </header>
        <div className="cart-sheet__body">
          <CartPromotions cart={cart} />
          <CartLines cart={cart} />
          {cart.items.length > 0 && (
            <section className="cart-bill" aria-label={t('breakdown.title')}>
              <h3 className="cart-bill__title">{t('breakdown.title')}</h3>
              <PriceBreakdown breakdown={cart.breakdown} delivery={cart.orderType === 0} lines={false} testId="cart-breakdown" />
            </section>
          )}
        </div>
      </section>
      <Dialog
        open={confirm}
        title={t('cart.clean')}
        onCancel={() => setConfirm(false)}
        onConfirm={() => {
          setConfirm(false);
          void clean().then((r) => {
            cartToast(r, t('cart.cleaned'));
            if (r.ok) onClose();
          });
        }}
      >
        <p className="dlg__text">{t('cart.cleanConfirm')}</p>
      </Dialog>
    </>
  );
}
