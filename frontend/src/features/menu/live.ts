/**
 * The menu under the store's live state (`store:update` from its staff): products sold out
 * since the menu loaded show as sold out (and back on sale as available), and the store's
 * status and notice are the staff's. Pure; the page passes the latest update, or null.
 */
import type { StoreUpdateEvent } from '@/lib/socket';
import type { MenuCategory, Store, StoreStatus } from '@/lib/api/types';

export function withLiveSoldOut(categories: MenuCategory[], live: StoreUpdateEvent | null): MenuCategory[] {
  if (!live) return categories;
  const out = new Set(live.soldOut);
  return categories.map((c) => ({
    ...c,
    products: c.products.map((p) => (p.soldOut === out.has(p.productCode) ? p : { ...p, soldOut: out.has(p.productCode) })),
  }));
}

const STATUSES: readonly StoreStatus[] = ['open', 'busy', 'closed'];

/**
 * The server's words for a store closed with no notice of its staff (actors store_board.rs
 * `default_closed_notice`): the menu says the same in its own words, with booking where there
 * is one, so these are not repeated under them.
 */
const DEFAULT_CLOSED_NOTICES = ['门店暂停营业，请重新选择门店', 'This store is temporarily closed; please choose another store'];

/** The staff's own closing notice, or null for none or the server's default words. */
export function ownClosedNotice(notice: string | null | undefined): string | null {
  return notice && !DEFAULT_CLOSED_NOTICES.includes(notice.trim()) ? notice : null;
}

/**
 * The store under its staff's latest status. The event carries the staff's own notice only; with
 * none, busy says `busyDefault` (the app's words, in its language) and reopening clears it.
 */
export function withLiveStatus(store: Store, live: StoreUpdateEvent | null, busyDefault: string | null = null): Store {
  if (!live || !(STATUSES as readonly string[]).includes(live.status)) return store;
  const status = live.status as StoreStatus;
  return {
    ...store,
    status,
    // Open again once its staff reopen it, if it is inside its hours (older servers: as loaded).
    isOpen: status === 'closed' ? false : (store.withinHours ?? store.isOpen),
    stopStoreNotice: status === 'closed' ? (live.notice ?? store.stopStoreNotice) : null,
    businessNotice: status === 'closed' ? store.businessNotice : status === 'busy' ? (live.notice ?? busyDefault) : live.notice,
  };
}
