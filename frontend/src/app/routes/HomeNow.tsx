import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CartIcon } from '@/components/Icons';
import { useAccount } from '@/features/account';
import { cartAmounts, itemCount, useCart } from '@/features/cart';
import { isClosedState, isUnpaidState, listOrders } from '@/features/order';
import { useQuery } from '@/hooks/useQuery';
import { getCartToken } from '@/lib/api';
import { useLang, useT } from '@/lib/i18n';
import { formatFen } from '@/lib/money';
import { stageLabelKey } from '@/lib/stages';
import './HomeNow.css';

/**
 * The home page's "now" (issue 22): the order in progress, whose tap opens its tracker, and the
 * cart (count and amount), whose tap opens it on the menu. A chunk of its own, fetched after the
 * home page's first paint, with the pages' words: nothing of it weighs on the first load.
 */
export function HomeNow() {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const loggedIn = useAccount((s) => s.token !== null);
  const cart = useCart((s) => s.cart);
  const status = useCart((s) => s.status);
  // A visitor without a cart has none to show: no cart is made for them here.
  const hasCart = loggedIn || !!getCartToken();
  useEffect(() => {
    if (hasCart && useCart.getState().status === 'idle') void useCart.getState().load({ pageName: 'menu', storeCode: null });
  }, [status, hasCart]);
  const active = useQuery(loggedIn ? `home-active:${lang}` : null, (signal) => listOrders('active', 1, signal));
  const order = (active.data?.list ?? []).find((o) => !isClosedState(o.state) && !isUnpaidState(o.state));
  const count = itemCount(cart);
  if (!order && count === 0) return null;
  return (
    <section className="hnow" aria-label={t('home.now')} data-testid="home-now">
      {order ? (
        <button
          type="button"
          className="hnow__card hnow__card--order"
          onClick={() => void navigate(`/order/status?orderNo=${encodeURIComponent(order.orderNo)}`)}
          data-testid="home-order"
          data-order={order.orderNo}
        >
          <span className="hnow__label">{t('home.now.order')}</span>
          <strong className="hnow__main">{t(stageLabelKey(order.progress, order.orderType))}</strong>
          <small className="hnow__sub">
            {order.storeName} · {order.orderNo.slice(-4)}
          </small>
        </button>
      ) : null}
      {count > 0 && cart ? (
        <button type="button" className="hnow__card hnow__card--cart" onClick={() => void navigate('/menu?cart=open')} data-testid="home-cart" data-count={count}>
          <CartIcon className="hnow__icon" />
          <span className="hnow__label">{t('cart.countN', { n: count })}</span>
          <strong className="hnow__main">{formatFen(cartAmounts(cart).order)}</strong>
        </button>
      ) : null}
    </section>
  );
}
