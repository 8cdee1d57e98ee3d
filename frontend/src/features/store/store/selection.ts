/**
 * The customer's store context: the candidates of the precedence rule and the order type.
 * The selected store is remembered in localStorage with an expiry; a virtual store never is.
 */
import { create } from 'zustand';
import { storage } from '@/lib/storage';
import type { OrderType, Store } from '@/types/api';
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
  gps: 'store:gps',
  orderType: 'order:type',
} as const;

function readOrderType(): OrderType {
  const v = storage.get<number>(KEYS.orderType);
  return v === 1 || v === 2 ? v : 0;
}

export interface StoreSelectionState {
  scanned: Store | null;
  selected: Store | null;
  gps: Store | null;
  fallback: Store | null;
  orderType: OrderType;
  /** Remembers a real store as the selection; answers false for a virtual one (not saved). */
  selectStore: (store: Store) => boolean;
  /** Fresh data for the stored selection (same code), keeping its expiry. */
  refreshSelected: (store: Store) => void;
  clearSelected: () => void;
  setScanned: (store: Store | null) => void;
  setGpsStore: (store: Store | null) => void;
  setFallback: (store: Store | null) => void;
  setOrderType: (orderType: OrderType) => void;
}

function loadState() {
  return {
    scanned: storage.get<Store>(KEYS.scanned),
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
  setScanned: (store) => {
    if (store && isSavable(store)) storage.set(KEYS.scanned, store, SCANNED_STORE_TTL_S);
    else storage.remove(KEYS.scanned);
    set({ scanned: store && isSavable(store) ? store : null });
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

/** Back to what storage holds (tests, and after a logout clears storage). */
export function resetStoreSelection(): void {
  useStoreSelection.setState(loadState());
}
