import type { Store } from '@/lib/api/types';

export const VIRTUAL_STORE_CODE = '88888';

export type StoreSource = 'scanned' | 'selected' | 'gps' | 'default' | 'virtual' | 'none';

export interface StoreCandidates {
  /** Entered by scanning a table code (dine-in). */
  scanned: Store | null;
  /** Chosen by the customer. */
  selected: Store | null;
  /** Nearest to the customer's GPS position. */
  gps: Store | null;
  /** The chain's default store, or the virtual store 88888. */
  fallback: Store | null;
  /** When the scan-to-order info runs out (3600 s after the scan): the scanned store no longer counts. */
  scanExpiresAt?: number | null;
  /** Now (epoch ms) for the expiry check; the scanned store counts when either is missing. */
  now?: number;
}

function scanValid(c: StoreCandidates): boolean {
  if (!isSavable(c.scanned)) return false;
  if (c.scanExpiresAt === undefined || c.scanExpiresAt === null || c.now === undefined) return true;
  return c.now < c.scanExpiresAt;
}

export function isVirtualStore(store: Pick<Store, 'storeCode' | 'isVirtual'> | null | undefined): boolean {
  return !!store && (store.isVirtual || store.storeCode === VIRTUAL_STORE_CODE);
}

/** A store that may be remembered as the customer's selection: real, and with a code. */
export function isSavable(store: Store | null | undefined): store is Store {
  return !!store && !!store.storeCode && !isVirtualStore(store);
}

/**
 * Spec ordering §4: scanned-in store (while its scan is valid, 3600 s) > selected store > current
 * GPS store > fallback (the default store, or the virtual 88888). A virtual store is only ever the
 * fallback.
 */
export function resolveCurrentStore(c: StoreCandidates): { store: Store | null; source: StoreSource } {
  if (scanValid(c) && c.scanned) return { store: c.scanned, source: 'scanned' };
  if (isSavable(c.selected)) return { store: c.selected, source: 'selected' };
  if (isSavable(c.gps)) return { store: c.gps, source: 'gps' };
  if (c.fallback && c.fallback.storeCode) {
    return { store: c.fallback, source: isVirtualStore(c.fallback) ? 'virtual' : 'default' };
  }
  return { store: null, source: 'none' };
}
