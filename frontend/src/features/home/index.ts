/** The home feature: banners, the start-order card, the current store and the side navigation. */
export { HomePage, bannerUrls, type HomePageProps, type HomePick } from './components/HomePage';
export { NAV_ITEMS, visibleNavItems, type NavItem } from './nav';
