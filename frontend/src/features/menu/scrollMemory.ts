/**
 * The menu's place while a product is open (issue 22: the menu keeps its scroll position when
 * coming back from a product): the list's scroll, the category and the rail's scroll. Kept in this
 * tab's session storage when a product is opened, and given back once when the same store's menu,
 * in the same order type, shows again.
 */
import { sessionStore } from '@/lib/storage';

export interface MenuPlace {
  y: number;
  category: string;
  railTop: number;
}

interface Kept extends MenuPlace {
  menu: string;
}

const KEY = 'menu:place';

/** Which menu a place belongs to. */
export function menuPlaceKey(storeCode: string, orderType: number): string {
  return `${storeCode}:${orderType}`;
}

export function keepMenuPlace(menu: string, place: MenuPlace): void {
  sessionStore.set<Kept>(KEY, { ...place, menu });
}

/** The place kept for `menu`; a place kept for another menu is dropped. */
export function peekMenuPlace(menu: string): MenuPlace | null {
  const place = readPlace(sessionStore.get<Kept>(KEY), menu);
  if (!place) sessionStore.remove(KEY);
  return place;
}

/** Once given back, the place is forgotten: a later visit starts at the top. */
export function forgetMenuPlace(): void {
  sessionStore.remove(KEY);
}

/** `kept` when it is a well-formed place of `menu` (session storage can hold anything). */
export function readPlace(kept: unknown, menu: string): MenuPlace | null {
  if (!kept || typeof kept !== 'object') return null;
  const k = kept as Partial<Kept>;
  if (k.menu !== menu || typeof k.category !== 'string') return null;
  const finite = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);
  const y = finite(k.y);
  const railTop = finite(k.railTop);
  if (y === null || railTop === null) return null;
  return { y, category: k.category, railTop };
}
