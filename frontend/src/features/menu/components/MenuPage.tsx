import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { Empty } from '@/components/Empty';
import { AlertIcon, BagIcon, ChevronRightIcon, ClockIcon, DineIcon, ScooterIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { ProductTile } from '@/components/ProductTile';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { now } from '@/lib/clock';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import type { StoreUpdateEvent } from '@/lib/socket';
import { toFen } from '@/lib/money';
import { sessionStore } from '@/lib/storage';
import type { ProductCard, Store } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';
import { storeName, storeState } from '@/utils/storeDisplay';
import { formatDayTime } from '@/utils/time';
import { getMenu, visibleCategories } from '../api/menu';
import { ownClosedNotice, withLiveSoldOut, withLiveStatus } from '../live';
import { noticeMark, noticeViewer } from '../noticeMark';
import { forgetMenuPlace, keepMenuPlace, menuPlaceKey, peekMenuPlace } from '../scrollMemory';
import './MenuPage.css';

export interface MenuPageProps {
  store: Store;
  /** The virtual store 88888: a sample menu, the customer should choose a store. */
  isVirtual: boolean;
  orderType: OrderType;
  onOrderTypeChange: (orderType: OrderType) => void;
  onOpenProduct: (productCode: string) => void;
  onChangeStore: () => void;
  /**
   * Adds a product without choices straight from its tile (the cart is composed in by the app);
   * omitted: every tile opens the product.
   */
  onQuickAdd?: (product: ProductCard) => void;
  /** Scan-to-order: the table's number; the menu is dine-in only while it is set. */
  deskNo?: string | null;
  /** The store's latest `store:update` (its staff's status and sold-out list), over the loaded menu. */
  live?: StoreUpdateEvent | null;
  /** Whose menu this is, for the notice marks: `noticeViewer(userId)`; a visitor by default. */
  viewer?: string;
  /**
   * The store is closed or outside its hours: books the first slot it takes, so the cart can be
   * filled for then (the app composes the cart in). Omitted: no booking offered.
   */
  onBook?: () => void;
  /** The cart is booked at this store for this time (epoch ms): said instead of the offer. */
  bookedAt?: number | null;
}

/** Products the tile may add at once: singles (no sizes, flavours or rounds), not sold out. */
export function quickAddable(p: ProductCard): boolean {
  return p.productType === 0 && !p.soldOut;
}

const METHOD_ICON = { 0: ScooterIcon, 1: BagIcon, 2: DineIcon } as const;

/** Pizzas and multi-flavour products are priced by size: the card shows a "from" price. */
function fromPriced(p: ProductCard): boolean {
  return p.productType === 1 || p.productType === 9;
}

export function MenuPage({ store: loaded, isVirtual, orderType, onOrderTypeChange, onOpenProduct, onChangeStore, onQuickAdd, deskNo, live = null, viewer = noticeViewer(null), onBook, bookedAt = null }: MenuPageProps) {
  const t = useT();
  const busyDefault = t('menu.busyDefault');
  const store = useMemo(() => withLiveStatus(loaded, live, busyDefault), [loaded, live, busyDefault]);
  const lang = useLang();
  const dineInOnly = !!deskNo && store.serviceMethods.includes(2);
  const methods = useMemo(
    () => (dineInOnly ? [2 as const] : store.serviceMethods.filter((m): m is OrderType => m === 0 || m === 1 || m === 2)),
    [store.serviceMethods, dineInOnly],
  );
  const effectiveType: OrderType = methods.includes(orderType) ? orderType : (methods[0] ?? orderType);

  // An order type the store does not offer switches to the first one it does.
  useEffect(() => {
    if (effectiveType !== orderType) onOrderTypeChange(effectiveType);
  }, [effectiveType, orderType, onOrderTypeChange]);

  const menu = useQuery(`menu:${store.storeCode}:${effectiveType}:${lang}`, (signal) =>
    getMenu(store.storeCode, effectiveType, now(), signal),
  );
  const categories = useMemo(() => withLiveSoldOut(visibleCategories(menu.data?.categories ?? []), live), [menu.data, live]);
  // Once the staff said something live, theirs is the word on closing.
  const stopNotice = live ? store.stopStoreNotice : store.stopStoreNotice || menu.data?.stopStoreNotice || null;
  const state = storeState(store);
  // Closed by its staff (休息中) or outside its hours: the menu says why and what to do instead.
  const closedWhy: 'closed' | 'hours' | null = isVirtual ? null : store.status === 'closed' ? 'closed' : !store.isOpen ? 'hours' : null;
  const canBook = !!closedWhy && store.bookEnable && !!onBook;

  return (
    <div className="menu">
      <section className="menu__store" aria-label={t('home.currentStore')}>
        <button type="button" className="menu__storemain" onClick={onChangeStore} data-testid="menu-store">
          <span className="menu__storename">{storeName(store, lang)}</span>
          <span className={`badge badge--${state}`}>{t(`store.status.${state}`)}</span>
          <span className="menu__change">
            {t('menu.change')}
            <ChevronRightIcon />
          </span>
        </button>
        <p className="menu__storeinfo">
          <ClockIcon /> {t('menu.hours', { hours: store.businessHourListText })}
          {effectiveType === 0 && store.deliveryTime > 0 && <span> · {t('menu.deliveryTime', { n: store.deliveryTime })}</span>}
          {effectiveType !== 0 && store.estimateTime > 0 && <span> · {t('menu.pickupTime', { n: store.estimateTime })}</span>}
        </p>
        {methods.length > 0 && (
          <div className="seg" role="tablist" aria-label="order type">
            {methods.map((m) => {
              const Icon = METHOD_ICON[m];
              return (
                <button
                  key={m}
                  type="button"
                  role="tab"
                  aria-selected={m === effectiveType}
                  className={`seg__btn${m === effectiveType ? ' seg__btn--on' : ''}`}
                  onClick={() => onOrderTypeChange(m)}
                  data-testid={`order-type-${m}`}
                >
                  <Icon /> {t(`orderType.${m}` as MessageKey)}
                </button>
              );
            })}
          </div>
        )}
      </section>

      {deskNo && (
        <div className="notice notice--info menu__desk" role="note" data-testid="desk-no">
          <DineIcon className="notice__icon" />
          <span>{t('menu.desk', { desk: deskNo })}</span>
        </div>
      )}
      {isVirtual && (
        <div className="notice notice--info" role="note">
          <span>{t('menu.virtual')}</span>
          <button type="button" className="btn btn--primary btn--sm" onClick={onChangeStore}>
            {t('menu.chooseStore')}
          </button>
        </div>
      )}
      {closedWhy && (
        <div className="notice notice--danger menu__closed" role="alert" data-testid="stop-store-notice" data-reason={closedWhy}>
          <AlertIcon className="notice__icon" />
          <div className="notice__body">
            <strong>{t(closedWhy === 'closed' ? 'menu.closed.title' : 'menu.hoursOut.title')}</strong>
            {closedWhy === 'closed' && ownClosedNotice(stopNotice) && <span data-testid="stop-store-own-notice">{ownClosedNotice(stopNotice)}</span>}
            {closedWhy === 'hours' && <span>{t('menu.hours', { hours: store.businessHourListText })}</span>}
            {bookedAt !== null ? (
              <span className="menu__booked" data-testid="menu-booked">
                {t('menu.bookedFor', { time: formatDayTime(bookedAt, lang, now()) })}
              </span>
            ) : (
              <span>{t(canBook ? 'menu.closed.bookHint' : 'menu.closed.otherHint')}</span>
            )}
            <span className="menu__closed-actions">
              {canBook && bookedAt === null && (
                <button type="button" className="btn btn--primary btn--sm" onClick={onBook} data-testid="menu-book">
                  {t('menu.book')}
                </button>
              )}
              <button type="button" className={`btn btn--sm ${canBook ? 'btn--secondary' : 'btn--primary'}`} onClick={onChangeStore} data-testid="menu-other-store">
                {t('menu.reselect')}
              </button>
            </span>
          </div>
        </div>
      )}
      {store.businessNotice && (
        <div className="notice notice--warn" role="note">
          <span className="notice__marquee">{store.businessNotice}</span>
        </div>
      )}
      <ServiceNotice store={store} viewer={viewer} />

      {menu.loading ? (
        <Loading page />
      ) : menu.error ? (
        <Loading page error={menu.error.message || t('menu.loadFailed')} reloadText={t('common.retry')} onReload={menu.reload} />
      ) : categories.length === 0 ? (
        <Empty text={t('menu.empty')} />
      ) : (
        <CategoryBrowser
          placeKey={menuPlaceKey(store.storeCode, effectiveType)}
          categories={categories}
          onOpenProduct={onOpenProduct}
          onQuickAdd={isVirtual ? undefined : onQuickAdd}
          addLabel={(name) => t('menu.quickAdd', { name })}
          lang={lang}
          recommendLabel={t('menu.recommend')}
        />
      )}
    </div>
  );
}

function CategoryBrowser({
  placeKey,
  categories,
  onOpenProduct,
  onQuickAdd,
  addLabel,
  lang,
  recommendLabel,
}: {
  /** Which menu this is, for its place while a product is open. */
  placeKey: string;
  categories: ReturnType<typeof visibleCategories>;
  onOpenProduct: (code: string) => void;
  onQuickAdd?: (product: ProductCard) => void;
  addLabel: (name: string) => string;
  lang: string;
  recommendLabel: string;
}) {
  // Back from a product: the place the menu had when it was opened.
  const [place] = useState(() => peekMenuPlace(placeKey));
  const [active, setActive] = useState(place?.category ?? categories[0]?.categoryCode ?? '');
  const sections = useRef(new Map<string, HTMLElement>());
  const rail = useRef<HTMLElement | null>(null);
  const clickLock = useRef(0);

  useEffect(() => {
    if (!place) return undefined;
    // After the layout's scroll to the top on a page change, which runs after this effect.
    const id = window.setTimeout(() => {
      window.scrollTo(0, place.y);
      if (rail.current) rail.current.scrollTop = place.railTop;
      forgetMenuPlace();
    }, 0);
    return () => window.clearTimeout(id);
  }, [place]);

  const open = (code: string) => {
    keepMenuPlace(placeKey, { y: window.scrollY, category: active, railTop: rail.current?.scrollTop ?? 0 });
    onOpenProduct(code);
  };

  const onScroll = useCallback(() => {
    if (Date.now() < clickLock.current) return;
    const offset = 170;
    let current = categories[0]?.categoryCode ?? '';
    for (const c of categories) {
      const el = sections.current.get(c.categoryCode);
      if (el && el.getBoundingClientRect().top - offset <= 0) current = c.categoryCode;
    }
    setActive(current);
  }, [categories]);

  useEffect(() => {
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [onScroll]);

  useEffect(() => {
    const btn = Array.from(rail.current?.children ?? []).find((el): el is HTMLElement => (el as HTMLElement).dataset.code === active);
    if (btn && rail.current && typeof rail.current.scrollTo === 'function') {
      rail.current.scrollTo({ top: btn.offsetTop - rail.current.clientHeight / 2 + btn.clientHeight / 2, behavior: 'smooth' });
    }
  }, [active]);

  const jump = (code: string) => {
    setActive(code);
    clickLock.current = Date.now() + 700;
    sections.current.get(code)?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };

  return (
    <div className="menu__browser">
      <nav className="menu__rail" ref={rail} aria-label="categories">
        {categories.map((c) => (
          <button
            key={c.categoryCode}
            type="button"
            data-code={c.categoryCode}
            className={`menu__cat${c.categoryCode === active ? ' menu__cat--on' : ''}`}
            aria-current={c.categoryCode === active ? 'true' : undefined}
            onClick={() => jump(c.categoryCode)}
            data-testid={`category-${c.categoryCode}`}
          >
            {lang === 'en' ? c.categoryNameEN || c.categoryName : c.categoryName}
          </button>
        ))}
      </nav>
      <div className="menu__list">
        {categories.map((c) => (
          <section
            key={c.categoryCode}
            className="menu__section"
            ref={(el) => {
              if (el) sections.current.set(c.categoryCode, el);
              else sections.current.delete(c.categoryCode);
            }}
            aria-labelledby={`cat-${c.categoryCode}`}
          >
            <h2 className="menu__sectitle" id={`cat-${c.categoryCode}`}>
              {lang === 'en' ? c.categoryNameEN || c.categoryName : c.categoryName}
            </h2>
            {c.products.map((p) => (
              <ProductTile
                key={p.productCode}
                testId={`product-${p.productCode}`}
                name={p.productName}
                description={p.description}
                image={p.imageURL1}
                priceFen={toFen(p.sellingPrice)}
                fromPrice={fromPriced(p)}
                soldOut={p.soldOut}
                badge={p.recommendType === 1 || p.recommendType === 2 ? recommendLabel : null}
                onOpen={() => open(p.productCode)}
                onAdd={onQuickAdd && quickAddable(p) ? () => onQuickAdd(p) : undefined}
                addLabel={addLabel(p.productName)}
              />
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}

/** The store's service notice: pop-up model 1 a dialog, 2 a toast; once per user, store and session. */
function ServiceNotice({ store, viewer }: { store: Store; viewer: string }) {
  const t = useT();
  const notice = store.serviceNotice;
  const key = noticeMark(viewer, store.storeCode);
  const [open, setOpen] = useState(() => !!notice && notice.popUpModel === 1 && !sessionStore.get<boolean>(key));
  useEffect(() => {
    if (!notice || sessionStore.get<boolean>(key)) return;
    if (notice.popUpModel === 2) {
      showToast(notice.content);
      sessionStore.set(key, true);
    } else if (notice.popUpModel === 1) {
      setOpen(true);
    }
  }, [notice, key]);
  if (!notice || notice.popUpModel !== 1) return null;
  const close = () => {
    sessionStore.set(key, true);
    setOpen(false);
  };
  return (
    <Dialog
      open={open}
      title={t('app.name')}
      confirmText={notice.rightBtn || t('common.ok')}
      cancelText={notice.leftBtn || undefined}
      onConfirm={close}
      onCancel={notice.leftBtn ? close : undefined}
      onClose={close}
    >
      {notice.content}
    </Dialog>
  );
}
