import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAccount } from '@/features/account';
import { listAddresses, useSelectedAddress } from '@/features/address';
import { CartLines, CartPromotions, cartToast, startCartLive, useCart } from '@/features/cart';
import { CheckoutPage } from '@/features/checkout';
import { CheckoutCoupons } from '@/features/coupon';
import { PointsToggle, pointsToUse } from '@/features/member';
import { PayHost, onlineMethodsFor, statusPath, usePay } from '@/features/payment';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { isApiError } from '@/lib/api';
import { currentChannel, showsCoupons } from '@/lib/channel';
import type { Address, ReservationInput } from '@/lib/api/types';
import { toFen } from '@/lib/money';
import type { OrderType } from '@/lib/orders';

/** Orders may only start from a cart that passes the server's check (errCode -20: empty, no valid items; -4 is the chat app's bind confirm, spec account §4). */
const CART_INVALID = '-20';

/** The address to start a delivery order with: the default one, else the first usable one. */
function firstUsable(list: Address[]): Address | null {
  const usable = list.filter((a) => !a.illegal);
  return usable.find((a) => a.isDefault && a.hasScope) ?? usable.find((a) => a.hasScope) ?? usable.find((a) => a.isDefault) ?? null;
}

/**
 * /order/submit (login required): the checkout page with the cart feature's lines and actions,
 * the address book's selected address and the current store composed in.
 */
export function CheckoutRoute() {
  const navigate = useNavigate();
  const cart = useCart((s) => s.cart);
  const status = useCart((s) => s.status);
  const cartError = useCart((s) => s.error);
  const busy = useCart((s) => s.busy);
  const { store } = useCurrentStore();
  const address = useSelectedAddress((s) => s.address);
  const [blocked, setBlocked] = useState<string | null>(null);
  const payMethods = useMemo(() => onlineMethodsFor(currentChannel()), []);
  const go = useCallback((to: string, opts?: { replace?: boolean }) => void navigate(to, opts), [navigate]);
  const pay = usePay({ navigate: go });

  useEffect(() => startCartLive(), []);

  // The server checks the cart for this page (and answers it fresh). A check already in flight
  // (StrictMode runs this twice) answers for both.
  useEffect(() => {
    void useCart
      .getState()
      .verify('orderSubmit')
      .then((r) => {
        if (r.ok || r.blocked) return;
        if (isApiError(r.error) && r.error.errCode === CART_INVALID) setBlocked(r.error.message);
        else void useCart.getState().load({ pageName: 'orderSubmit' });
      });
  }, []);

  // No address chosen yet: start with the default one.
  useEffect(() => {
    if (useSelectedAddress.getState().address) return undefined;
    const controller = new AbortController();
    listAddresses(controller.signal).then(
      (list) => {
        const pick = firstUsable(list);
        if (pick && !useSelectedAddress.getState().address) useSelectedAddress.getState().select(pick);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  const reserve = async (input: ReservationInput): Promise<boolean> => {
    const result = cartToast(await useCart.getState().reserve(input));
    if (result.ok) useStoreSelection.getState().setOrderType(input.orderType as OrderType);
    return result.ok;
  };

  const userId = useAccount((s) => s.user?.id ?? null);
  // Pay with points: the cart says how many may be used and what they save.
  const [usePoints, setUsePoints] = useState(false);
  // The cart's points figures (null for a non-member).
  const points = cart?.pointsDeduction ?? null;
  const pointsDeductions = pointsToUse(points, usePoints);

  return (
    <>
      <CheckoutPage
        userId={userId}
        cart={blocked ? null : cart}
        cartError={status === 'error' ? (cartError?.message ?? null) : null}
        cartBusy={busy}
        blocked={blocked}
        store={store}
        address={address}
        lines={
          cart ? (
            <>
              <CartPromotions cart={cart} />
              <CartLines cart={cart} readOnly />
            </>
          ) : null
        }
        onReserve={reserve}
        onPickAddress={() => void navigate('/selectAddress')}
        onCartReplaced={(fresh) => useCart.getState().adopt(fresh)}
        onCartStale={() => void useCart.getState().load({ pageName: 'orderSubmit' })}
        payMethods={payMethods}
        onSubmitted={(reply, method) => {
          // The cart is empty now.
          void useCart.getState().load({ pageName: 'menu', force: true });
          // Pay on delivery goes straight to the status page (spec ordering §4 payment flow 7);
          // online, the payment step hands the customer to the provider.
          if (reply.paymentType === 'offline' || !method) void navigate(statusPath(reply.orderNo), { replace: true });
          else void pay.start(reply.orderNo, method);
        }}
        onReload={() => void useCart.getState().load({ pageName: 'orderSubmit' })}
        onBackToMenu={() => void navigate('/menu', { replace: true })}
        couponSlot={
          cart && showsCoupons() ? (
            <CheckoutCoupons
              cart={cart}
              busy={busy}
              onChoose={(input) => useCart.getState().chooseCoupons(input)}
              onAddItem={(code) => useCart.getState().addCouponItem(code)}
              onRemoveItem={(code) => useCart.getState().removeCouponItem(code)}
            />
          ) : null
        }
        pointsSlot={cart ? <PointsToggle deduction={points} on={usePoints} onChange={setUsePoints} disabled={busy} /> : null}
        pointsDeductions={pointsDeductions}
        pointsSaveFen={pointsDeductions > 0 ? toFen(points?.amount) : 0}
      />
      <PayHost flow={pay} />
    </>
  );
}
