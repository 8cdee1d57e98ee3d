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
