import type { MessageKey } from '@/lib/i18n';

export type NavIcon = 'home' | 'menu' | 'store' | 'search' | 'orders' | 'coupons' | 'user';

/** An entry of the side navigation (spec: menu node with a needLogin flag). */
export interface NavItem {
  key: string;
  path: string;
  label: MessageKey;
  icon: NavIcon;
  /** Hidden for guests (spec ordering §2, §6). */
  needLogin: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { key: 'home', path: '/', label: 'nav.home', icon: 'home', needLogin: false },
  { key: 'menu', path: '/menu', label: 'nav.menu', icon: 'menu', needLogin: false },
  { key: 'findStore', path: '/findStore', label: 'nav.findStore', icon: 'store', needLogin: false },
  { key: 'search', path: '/product/search', label: 'nav.search', icon: 'search', needLogin: false },
  { key: 'orders', path: '/order', label: 'nav.orders', icon: 'orders', needLogin: true },
  { key: 'coupons', path: '/my/coupon/list', label: 'nav.coupons', icon: 'coupons', needLogin: true },
  { key: 'my', path: '/my', label: 'nav.my', icon: 'user', needLogin: true },
];

export function visibleNavItems(items: NavItem[], loggedIn: boolean, hidden: string[] = []): NavItem[] {
  return items.filter((i) => (loggedIn || !i.needLogin) && !hidden.includes(i.key));
}
