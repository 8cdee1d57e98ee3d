import { useState, type ReactNode } from 'react';
import { Price } from '@/components/Price';
import { BagIcon, ChevronRightIcon, MenuIcon, ScooterIcon, SearchIcon, StoreIcon, UserIcon } from '@/components/Icons';
import { useLang, useT, type Lang } from '@/lib/i18n';
import type { Store } from '@/lib/api/types';
import { storeName, storeState } from '@/utils/storeDisplay';
import { NAV_ITEMS, type NavItem } from '../nav';
import { Carousel, type Slide } from './Carousel';
import { SideNav } from './SideNav';
import './HomePage.css';

/** The home banners carry text, so each exists per language (`-en` for English). */
export function bannerUrls(lang: Lang): string[] {
  const suffix = lang === 'en' ? '-en' : '';
  return [1, 2, 3].map((n) => `/images/banner-${n}${suffix}.svg`);
}

/** A product shown in the "popular" strip. */
export interface HomePick {
  code: string;
  name: string;
  image: string;
  priceFen: number;
  from: boolean;
}

export interface HomePageProps {
  /** The current store; null or virtual: none chosen yet. */
  store: Store | null;
  isVirtual: boolean;
  loggedIn: boolean;
  /** The logged-in user's display name. */
  userName?: string | null;
  /** Delivery (0) or pickup (1) chosen on the start card. */
  onStart: (orderType: 0 | 1) => void;
  onChooseStore: () => void;
  onNavigate: (path: string) => void;
  /** Side navigation keys to hide (e.g. search switched off). */
  hiddenNav?: string[];
  languageSwitch?: ReactNode;
  navItems?: NavItem[];
  /** Popular products of the current store (composed in by the app). */
  picks?: HomePick[];
  onOpenProduct?: (code: string) => void;
  /** What is under way (the order in progress, the cart), composed in by the app after first paint. */
  now?: ReactNode;
}

export function HomePage({
  store,
  isVirtual,
  loggedIn,
  userName,
  onStart,
  onChooseStore,
  onNavigate,
  hiddenNav,
  languageSwitch,
  navItems = NAV_ITEMS,
  picks,
  onOpenProduct,
  now,
}: HomePageProps) {
  const t = useT();
  const lang = useLang();
  const [navOpen, setNavOpen] = useState(false);
  const slides: Slide[] = bannerUrls(lang).map((src, i) => ({ src, alt: t('home.banner', { n: i + 1 }), onClick: () => onNavigate('/menu') }));
  const realStore = store && !isVirtual ? store : null;
  const state = realStore ? storeState(realStore) : null;
  const canDeliver = !realStore || realStore.serviceMethods.includes(0);
  const canPickup = !realStore || realStore.serviceMethods.includes(1);
  return (
    <div className="home">
      <header className="home__top">
        <button type="button" className="home__iconbtn" onClick={() => setNavOpen(true)} aria-label={t('home.openNav')} data-testid="open-nav">
          <MenuIcon />
        </button>
        <div className="home__logo" aria-label={t('app.name')}>
          <svg viewBox="0 0 40 40" className="home__mark" aria-hidden="true">
            <circle cx="20" cy="20" r="19" fill="#fff" />
            <path d="M20 20 L20 4 A16 16 0 0 1 35.2 15 Z" fill="#E31837" />
            <circle cx="20" cy="20" r="14" fill="none" stroke="#E31837" strokeWidth="3" />
            <circle cx="14" cy="17" r="2.6" fill="#E31837" />
            <circle cx="23" cy="27" r="2.6" fill="#E31837" />
            <circle cx="13" cy="26" r="1.8" fill="#006491" />
            <circle cx="27" cy="21" r="1.8" fill="#006491" />
          </svg>
          <span>{t('app.name')}</span>
        </div>
        <div className="home__right">
          {languageSwitch}
          <button
            type="button"
            className="home__user"
            onClick={() => onNavigate(loggedIn ? '/my' : '/login')}
            data-testid="home-user"
            aria-label={loggedIn ? t('nav.my') : t('home.login')}
          >
            <UserIcon />
            <span>{loggedIn ? t('home.account') : t('home.login')}</span>
          </button>
        </div>
      </header>

      <Carousel slides={slides} />

      <section className="home__hello">
        <h2>{t('home.greeting')}</h2>
        <p>{t('app.slogan')}</p>
      </section>

      {now}
      <section className="start" aria-label={t('home.startTitle')}>
        <button type="button" className="start__btn start__btn--delivery" onClick={() => onStart(0)} disabled={!canDeliver} data-testid="start-delivery">
          <span className="start__icon">
            <ScooterIcon />
          </span>
          <strong>{t('home.delivery')}</strong>
          <small>{t('home.deliveryDesc')}</small>
        </button>
        <button type="button" className="start__btn start__btn--pickup" onClick={() => onStart(1)} disabled={!canPickup} data-testid="start-pickup">
          <span className="start__icon">
            <BagIcon />
          </span>
          <strong>{t('home.pickup')}</strong>
          <small>{t('home.pickupDesc')}</small>
        </button>
      </section>

      <button type="button" className="storechip" onClick={onChooseStore} data-testid="store-chip">
        <span className="storechip__icon">
          <StoreIcon />
        </span>
        <span className="storechip__text">
          <small>{t('home.currentStore')}</small>
          <strong>{realStore ? storeName(realStore, lang) : t('home.noStore')}</strong>
        </span>
        {state && <span className={`badge badge--${state}`}>{t(`store.status.${state}`)}</span>}
        <span className="storechip__go">
          {realStore ? '' : t('home.chooseStore')}
          <ChevronRightIcon />
        </span>
      </button>

      {picks && picks.length > 0 && (
        <section className="picks" aria-labelledby="home-picks">
          <div className="picks__head">
            <h3 className="section-title" id="home-picks">
              {t('home.picks')}
            </h3>
            <button type="button" className="link-btn" onClick={() => onNavigate('/menu')}>
              {t('home.fullMenu')}
            </button>
          </div>
          <div className="picks__row">
            {picks.map((p) => (
              <button key={p.code} type="button" className="pick" onClick={() => onOpenProduct?.(p.code)} data-testid={`pick-${p.code}`}>
                <img src={p.image} alt="" loading="lazy" />
                <span className="pick__name">{p.name}</span>
                <Price fen={p.priceFen} from={p.from} size="sm" />
              </button>
            ))}
          </div>
        </section>
      )}

      <div className="home__links">
        <button type="button" className="home__link" onClick={() => onNavigate('/menu')} data-testid="browse-menu">
          {t('home.browseMenu')}
          <ChevronRightIcon />
        </button>
        {!hiddenNav?.includes('search') && (
          <button type="button" className="home__link" onClick={() => onNavigate('/product/search')}>
            <SearchIcon /> {t('nav.search')}
          </button>
        )}
      </div>

      <SideNav
        open={navOpen}
        onClose={() => setNavOpen(false)}
        items={navItems}
        loggedIn={loggedIn}
        userName={userName}
        hidden={hiddenNav}
        onNavigate={onNavigate}
        footer={languageSwitch}
      />
    </div>
  );
}
