/**
 * The customer's store context: the candidates of the precedence rule and the order type.
 * The selected store is remembered in localStorage with an expiry; a virtual store never is.
 */
import { create } from 'zustand';
import { now } from '@/lib/clock';
import { storage } from '@/lib/storage';
import type { Store } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';

/** A verified table QR link (spec ordering §3 scan-order info), valid until `expiresAt`. */
export interface ScanInfo {
  storeName: string;
  storeCode: string;
  deskNo: string;
  sign: string;
  expiresAt: number;
}
import { isSavable } from '../precedence';

/** Selected and current store share one expiry (spec: value not shown): a week. */
export const SELECTED_STORE_TTL_S = 7 * 24 * 3600;
/** Scan-order info lives 3600 s (spec ordering §4). */
export const SCANNED_STORE_TTL_S = 3600;
/** Location cache 7200 s (spec ordering §9): the GPS store is as good as the position it came from. */
export const GPS_STORE_TTL_S = 7200;

const KEYS = {
  selected: 'store:selected',
  scanned: 'store:scanned',
  scan: 'store:scan',
  gps: 'store:gps',
  orderType: 'order:type',
} as const;

function readOrderType(): OrderType {
  const v = storage.get<number>(KEYS.orderType);
  return v === 1 || v === 2 ? v : 0;
}

export interface StoreSelectionState {
  scanned: Store | null;
  /** The table of scan-to-order (desk number, sign), kept as long as the scanned store. */
  scan: ScanInfo | null;
  selected: Store | null;
  gps: Store | null;
  fallback: Store | null;
  orderType: OrderType;
  /** Remembers a real store as the selection; answers false for a virtual one (not saved). */
  selectStore: (store: Store) => boolean;
  /** Fresh data for the stored selection (same code), keeping its expiry. */
  refreshSelected: (store: Store) => void;
  clearSelected: () => void;
  /** The scanned-in store; with `scan`, a new scan (kept 3600 s, or until its expiry); null forgets both. */
  setScanned: (store: Store | null, scan?: ScanInfo) => void;
  setGpsStore: (store: Store | null) => void;
  setFallback: (store: Store | null) => void;
  setOrderType: (orderType: OrderType) => void;
}

function loadState() {
  return {
    scanned: storage.get<Store>(KEYS.scanned),
    scan: storage.get<ScanInfo>(KEYS.scan),
    selected: storage.get<Store>(KEYS.selected),
    gps: storage.get<Store>(KEYS.gps),
    fallback: null,
    orderType: readOrderType(),
  };
}

export const useStoreSelection = create<StoreSelectionState>((set, get) => ({
  ...loadState(),
  selectStore: (store) => {
    if (!isSavable(store)) return false;
    storage.set(KEYS.selected, store, SELECTED_STORE_TTL_S);
    set({ selected: store });
    return true;
  },
  refreshSelected: (store) => {
    const current = get().selected;
    if (!current || current.storeCode !== store.storeCode || !isSavable(store)) return;
    storage.set(KEYS.selected, store, SELECTED_STORE_TTL_S);
    set({ selected: store });
  },
  clearSelected: () => {
    storage.remove(KEYS.selected);
    set({ selected: null });
  },
  setScanned: (store, scan) => {
    if (!store || !isSavable(store)) {
      storage.remove(KEYS.scanned);
      storage.remove(KEYS.scan);
      set({ scanned: null, scan: null });
      return;
    }
    if (scan) {
      const ttl = scanTtlSeconds(scan.expiresAt);
      storage.set(KEYS.scan, scan, ttl);
      storage.set(KEYS.scanned, store, ttl);
      set({ scanned: store, scan });
      return;
    }
    // Fresh data of the scanned store: same expiry as its scan.
    const current = get().scan;
    storage.set(KEYS.scanned, store, current ? scanTtlSeconds(current.expiresAt) : SCANNED_STORE_TTL_S);
    set({ scanned: store });
  },
  setGpsStore: (store) => {
    if (store && isSavable(store)) storage.set(KEYS.gps, store, GPS_STORE_TTL_S);
    else storage.remove(KEYS.gps);
    set({ gps: store && isSavable(store) ? store : null });
  },
  setFallback: (store) => set({ fallback: store }),
  setOrderType: (orderType) => {
    storage.set(KEYS.orderType, orderType);
    set({ orderType });
  },
}));

/** Seconds left of a scan: until its expiry, at most 3600 s. */
function scanTtlSeconds(expiresAt: number): number {
  const left = Math.floor((expiresAt - now()) / 1000);
  return Number.isFinite(left) && left > 0 ? Math.min(SCANNED_STORE_TTL_S, left) : SCANNED_STORE_TTL_S;
}

/** Back to what storage holds (tests, and after a logout clears storage). */
export function resetStoreSelection(): void {
  useStoreSelection.setState(loadState());
}
