import { Suspense, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { maskPhone, useAccount } from '@/features/account';
import { HomePage, type HomePick } from '@/features/home';
import { getMenu, visibleCategories } from '@/features/menu';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { useQuery } from '@/hooks/useQuery';
import { showsCoupons } from '@/lib/channel';
import { now } from '@/lib/clock';
import { useLang } from '@/lib/i18n';
import { toFen } from '@/lib/money';
import type { OrderType } from '@/lib/orders';
import { lazyRoute } from '../lazyRoute';
import { usePageSwitch } from '../pageSwitch';
import { useScanEntry } from './scanEntry';

const PICKS = 8;

/** The order in progress and the cart: a chunk fetched after the first paint (lazyRoute brings the pages' words). */
const HomeNow = lazyRoute(() => import('./HomeNow'), 'HomeNow');

export function HomeRoute() {
  const navigate = useNavigate();
  // A table QR link may open the home page too: verified, then the menu.
  useScanEntry();
  const lang = useLang();
  const { store, source } = useCurrentStore();
  const orderType = useStoreSelection((s) => s.orderType);
  const setOrderType = useStoreSelection((s) => s.setOrderType);
  const switches = usePageSwitch();
  const loggedIn = useAccount((s) => s.token !== null);
  const user = useAccount((s) => s.user);
  const chosen = source === 'scanned' || source === 'selected' || source === 'gps';

  // Popular products of the current (or default) store: recommended ones first.
  const type: OrderType = store && !store.serviceMethods.includes(orderType) ? ((store.serviceMethods[0] ?? 0) as OrderType) : orderType;
  const menu = useQuery(store ? `menu:${store.storeCode}:${type}:${lang}` : null, (signal) =>
    getMenu(store?.storeCode ?? '', type, now(), signal),
  );
  const picks = useMemo<HomePick[]>(() => {
    const products = visibleCategories(menu.data?.categories ?? []).flatMap((c) => c.products).filter((p) => !p.soldOut);
    const ranked = [...products.filter((p) => p.recommendType === 1 || p.recommendType === 2), ...products.filter((p) => p.productType === 1)];
    const seen = new Set<string>();
    return ranked
      .filter((p) => !seen.has(p.productCode) && seen.add(p.productCode))
      .slice(0, PICKS)
      .map((p) => ({
        code: p.productCode,
        name: p.productName,
        image: p.imageURL1,
        priceFen: toFen(p.sellingPrice),
        from: p.productType === 1 || p.productType === 9,
      }));
  }, [menu.data]);

  const start = (next: 0 | 1) => {
    setOrderType(next);
    if (chosen) void navigate('/menu');
    else void navigate(`/findStore?tab=${next === 0 ? 'near' : 'city'}`);
  };

  return (
    <HomePage
      store={store}
      isVirtual={!chosen}
      loggedIn={loggedIn}
      userName={user?.name || maskPhone(user?.cellPhone)}
      onStart={start}
      onChooseStore={() => void navigate('/findStore')}
      onNavigate={(path) => void navigate(path)}
      hiddenNav={[...(switches.productSearch ? [] : ['search']), ...(showsCoupons() ? [] : ['coupons'])]}
      languageSwitch={switches.use1i8n ? <LanguageSwitch tone="dark" /> : undefined}
      picks={picks}
      onOpenProduct={(code) => void navigate(`/product/${encodeURIComponent(code)}`)}
      now={
        <Suspense fallback={null}>
          <HomeNow />
        </Suspense>
      }
    />
  );
}
