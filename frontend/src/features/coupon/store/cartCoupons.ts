/**
 * The cart's coupons (GET /cart/coupons) for checkout's row and picker. They depend on the cart,
 * so they are read for a cart version: a new version (an item, the order type, a coupon chosen)
 * reads them again, and an answer for an older version than the one asked is dropped.
 */
import { create } from 'zustand';
import type { CartCoupons } from '@/lib/api/types';
import { getCartCoupons } from '../api/coupons';

export interface CartCouponsState {
  /** The cart version `data` is for. */
  version: number | null;
  data: CartCoupons | null;
  loading: boolean;
  error: Error | null;
  /** Reads the coupons of cart `version` unless they are here already (`force`: read anyway). */
  load: (version: number, force?: boolean) => Promise<void>;
  reset: () => void;
}

let reading: { version: number; controller: AbortController } | null = null;

export const useCartCoupons = create<CartCouponsState>((set, get) => ({
  version: null,
  data: null,
  loading: false,
  error: null,

  load: async (version, force = false) => {
    if (!force && get().version === version && get().data) return;
    if (!force && reading?.version === version) return;
    reading?.controller.abort();
    const controller = new AbortController();
    reading = { version, controller };
    set({ loading: true, error: null });
    try {
      const data = await getCartCoupons(controller.signal);
      if (reading?.controller === controller) set({ version, data, loading: false, error: null });
    } catch (e) {
      if (reading?.controller === controller) set({ loading: false, error: e instanceof Error ? e : new Error(String(e)) });
    } finally {
      if (reading?.controller === controller) reading = null;
    }
  },

  reset: () => {
    reading?.controller.abort();
    reading = null;
    set({ version: null, data: null, loading: false, error: null });
  },
}));
