import { useCallback, useEffect, useRef } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { SearchIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { CartBar, cartToast, useCart } from '@/features/cart';
import { useAccount } from '@/features/account';
import { MenuPage, noticeViewer } from '@/features/menu';
import { useCurrentStore, useStoreLive, useStoreSelection } from '@/features/store';
import { getReservationSlots } from '@/features/checkout/api/checkout';
import { showToast } from '@/components/Toast';
import { now } from '@/lib/clock';
import { useLang, useT } from '@/lib/i18n';
import { formatDayTime } from '@/utils/time';
import type { ProductCard } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';
import { usePageSwitch } from '../pageSwitch';
import { useScanEntry } from './scanEntry';

export function MenuRoute() {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const scanning = useScanEntry();
  const viewerId = useAccount((s) => (s.token ? (s.user?.id ?? null) : null));
  const { store, source, loading, error, reload } = useCurrentStore();
  const orderType = useStoreSelection((s) => s.orderType);
  const setOrderType = useStoreSelection((s) => s.setOrderType);
  const scan = useStoreSelection((s) => s.scan);
  const switches = usePageSwitch();
  const isVirtual = source === 'virtual';
  const deskNo = source === 'scanned' && scan && store && scan.storeCode === store.storeCode ? scan.deskNo : null;
  const cartStore = store && !isVirtual ? store.storeCode : null;
  // From the home page's cart card (?cart=open): the sheet opens at once.
  const openCart = params.get('cart') === 'open';
  const effectiveType: OrderType = !store
    ? orderType
    : deskNo && store.serviceMethods.includes(2)
      ? 2
      : store.serviceMethods.includes(orderType)
        ? orderType
        : ((store.serviceMethods[0] ?? 0) as OrderType);

  const onOrderTypeChange = useCallback((type: OrderType) => setOrderType(type), [setOrderType]);

  // The staff's changes arrive live: the menu marks sold-out products at once, and the cart is
  // read again so an item it holds shows disabled with its reason.
  const live = useStoreLive(cartStore);
  useEffect(() => {
    if (live) void useCart.getState().load({ pageName: 'menu' });
  }, [live]);

  // The cart's order type follows the menu's (a reservation: the server re-prices): when the
  // customer switches, and once per store and type shown for a cart read with another type.
  const cartType = useCart((s) => s.cart?.orderType);
  const cartStoreCode = useCart((s) => s.cart?.storeCode);
  const cartDesk = useCart((s) => s.cart?.deskNo ?? null);
  const aligned = useRef<string | null>(null);
  useEffect(() => {
    // Not while a table link is being verified, nor away from dine-in while the server holds a desk.
    if (scanning || cartType === undefined || !cartStore || cartStoreCode !== cartStore) return;
    if (cartDesk && effectiveType !== 2) return;
    const key = `${cartStore}:${effectiveType}`;
    if (aligned.current === key) return;
    aligned.current = key;
    if (cartType !== effectiveType) {
      void useCart
        .getState()
        .reserve({ orderType: effectiveType, serviceMethod: effectiveType, storeCode: cartStore, isBookOrder: false })
        .then((r) => cartToast(r));
    }
  }, [scanning, cartType, cartStoreCode, cartDesk, cartStore, effectiveType]);

  const quickAdd = useCallback(
    (p: ProductCard) => {
      if (!cartStore) return;
      void useCart
        .getState()
        .add(
          [{ productCode: p.productCode, selection: singleSelection(p.minSale) }],
          { storeCode: cartStore, serviceMethod: effectiveType },
        )
        .then((r) => cartToast(r, t('cart.added')));
    },
    [cartStore, effectiveType, t],
  );

  // A closed store, or one outside its hours, takes items for a booking (issue 22): the first
  // slot it takes, changeable at checkout.
  const bookedAt = useCart((s) => (s.cart?.isBookOrder && s.cart.storeCode === cartStore ? (s.cart.orderTime ?? null) : null));
  const book = useCallback(() => {
    if (!cartStore) return;
    void (async () => {
      try {
        const slots = await getReservationSlots(cartStore, effectiveType);
        const first = slots.days.flatMap((d) => d.slots)[0];
        if (first === undefined) {
          showToast(t('menu.noSlots'), 3000);
          return;
        }
        const r = await useCart.getState().reserve({ orderType: effectiveType, serviceMethod: effectiveType, storeCode: cartStore, isBookOrder: true, orderTime: first });
        if (r.ok) useStoreSelection.getState().setOrderType(effectiveType);
        cartToast(r, t('menu.booked', { time: formatDayTime(first, lang, now()) }));
      } catch (e) {
        showToast(e instanceof Error ? e.message : String(e), 3000);
      }
    })();
  }, [cartStore, effectiveType, lang, t]);

  // /menu?productCode=… or ?code=… opens that product (links from content, shares).
  const productCode = params.get('productCode') ?? params.get('code');
  if (productCode) return <Navigate to={`/product/${encodeURIComponent(productCode)}`} replace />;

  const right = switches.productSearch ? (
    <button type="button" className="hdr__btn" onClick={() => void navigate('/product/search')} aria-label={t('menu.search')}>
      <SearchIcon />
    </button>
  ) : null;

  return (
    <>
      <Header title={t('menu.title')} right={right} onBack={() => void navigate('/')} />
      {scanning ? (
        <Loading page text={t('menu.scanning')} />
      ) : store ? (
        <>
          <MenuPage
            store={store}
            isVirtual={isVirtual}
            orderType={orderType}
            onOrderTypeChange={onOrderTypeChange}
            onOpenProduct={(code) => void navigate(`/product/${encodeURIComponent(code)}`)}
            onChangeStore={() => void navigate('/findStore')}
            onQuickAdd={quickAdd}
            deskNo={deskNo}
            live={live}
            viewer={noticeViewer(viewerId)}
            onBook={cartStore ? book : undefined}
            bookedAt={bookedAt}
          />
          <CartBar storeCode={cartStore} onCheckout={() => void navigate('/order/submit')} initialOpen={openCart} />
        </>
      ) : loading ? (
        <Loading page />
      ) : error ? (
        <Loading page error={error.message} reloadText={t('common.retry')} onReload={reload} />
      ) : (
        <Empty
          text={t('home.noStore')}
          action={
            <button type="button" className="btn btn--primary" onClick={() => void navigate('/findStore')}>
              {t('menu.chooseStore')}
            </button>
          }
        />
      )}
    </>
  );
}

/** The selection of a product without choices (menu quick add): only the quantity, at least minSale. */
function singleSelection(minSale: number) {
  return {
    sizeCode: null,
    pastryCode: null,
    flavorCodes: [],
    sauceCode: null,
    removedBase: [],
    extras: {},
    combo: {},
    quantity: Math.max(1, Math.floor(minSale || 1)),
  };
}
