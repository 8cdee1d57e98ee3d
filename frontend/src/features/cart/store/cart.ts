/**
 * The cart (spec ordering §4 "Cart", docs cart-and-checkout). The server computes everything; the
 * store keeps its latest answer and:
 *
 * - one cart action at a time: while one is in flight (`busy`), another is refused at once
 *   (`{ok: false, blocked: true}`) — a double tap adds nothing twice;
 * - the visitor's cart token: the `cartToken` field of an answer is kept (lib/api sends it as
 *   X-Cart-Token); after a login the token is forgotten and the (merged) user cart re-read;
 * - live: a `cart:updated` event whose version is above ours, and a socket resync, re-read the cart
 *   (`startCartLive`, ref-counted, used by the screens that show the cart);
 * - a read never replaces a newer cart: an answer with a lower version than the one shown is
 *   dropped (actions are answered in order, their answers always count).
 *
 * Toasts and navigation are the caller's: actions answer a result.
 */
import { create } from 'zustand';
import { forgetCartToken, isApiError, setCartToken } from '@/lib/api';
import { onResync, subscribe } from '@/lib/socket';
import type { Cart, ChooseCouponsInput, CartItemInput, CartPageType, CartVerifyReply, ReservationInput, ScanInput, ScanReply } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';
import * as api from '../api/cart';

export type CartStatus = 'idle' | 'loading' | 'ready' | 'error';

export type CartResult<T = Cart> =
  | { ok: true; data: T }
  | { ok: false; blocked: true; error?: undefined }
  | { ok: false; blocked?: false; error: Error };

export interface LoadOptions {
  pageName?: string;
  /** Moves the cart to that store (the server re-checks every item). */
  storeCode?: string | null;
  /** Take the answer whatever its version (after a login the user's cart has its own versions). */
  force?: boolean;
}

export interface CartState {
  cart: Cart | null;
  status: CartStatus;
  error: Error | null;
  /** A cart action is in flight: others are refused until it answers. */
  busy: boolean;
  load: (opts?: LoadOptions) => Promise<Cart | null>;
  add: (items: CartItemInput[], ctx?: { storeCode?: string | null; serviceMethod?: OrderType | null }) => Promise<CartResult>;
  increase: (id: string) => Promise<CartResult>;
  decrease: (id: string) => Promise<CartResult>;
  setQuantity: (id: string, quantity: number) => Promise<CartResult>;
  remove: (ids: string[]) => Promise<CartResult>;
  clean: () => Promise<CartResult>;
  chooseRule: (ruleId: string) => Promise<CartResult>;
  clearUnavailable: () => Promise<CartResult>;
  /** The order's coupons (issue 24): the codes, the best combination (empty list) or none. */
  chooseCoupons: (input: ChooseCouponsInput) => Promise<CartResult>;
  addCouponItem: (couponCode: string) => Promise<CartResult>;
  removeCouponItem: (couponCode: string) => Promise<CartResult>;
  verify: (pageType: CartPageType) => Promise<CartResult<CartVerifyReply>>;
  reserve: (input: ReservationInput) => Promise<CartResult>;
  scan: (input: ScanInput) => Promise<CartResult<ScanReply>>;
  /** A cart answered elsewhere (a 409 of the order submit, a submitted order). */
  adopt: (cart: Cart) => void;
  /** After a login: forget the visitor token; re-read the (merged) cart if one was shown. */
  afterLogin: () => Promise<void>;
  /** After a logout: nothing is known until the next read (which issues a new visitor token). */
  reset: () => void;
}

/** The page of the last read, for re-reads triggered by the socket. */
let lastPageName = 'menu';
/** The highest version a cart:updated announced that we have not read yet. */
let announced = -1;
/** The read in flight: a newer read replaces it (its own request, never a shared older one). */
let reading: AbortController | null = null;
/** A forced read (after a login) was asked and has not answered yet: the read that replaces it is forced too. */
let forceNext = false;

function isCart(value: unknown): value is Cart {
  return typeof value === 'object' && value !== null && 'shoppingCarVersion' in value && 'items' in value;
}

function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

export const useCart = create<CartState>((set, get) => {
  /** Shows a cart and keeps a visitor's token. */
  const apply = (cart: Cart, force: boolean): boolean => {
    const current = get().cart;
    if (!force && current && cart.shoppingCarVersion < current.shoppingCarVersion) return false;
    if (cart.cartToken) setCartToken(cart.cartToken);
    set({ cart, status: 'ready', error: null });
    return true;
  };

  const afterAction = () => {
    const version = get().cart?.shoppingCarVersion ?? -1;
    if (announced > version) void get().load();
  };

  /** The in-flight guard around every cart action. */
  async function mutate<T>(work: () => Promise<T>, cartOf: (data: T) => Cart | null): Promise<CartResult<T>> {
    if (get().busy) return { ok: false, blocked: true };
    set({ busy: true });
    try {
      const data = await work();
      const cart = cartOf(data);
      if (cart) apply(cart, true);
      return { ok: true, data };
    } catch (e) {
      // Some refusals still carry the fresh cart: -6 re-priced, -7 sold out, -8 a promotion refused
      // (an empty cart at checkout, -20, carries none).
      if (isApiError(e) && isCart(e.data)) apply(e.data, true);
      return { ok: false, error: toError(e) };
    } finally {
      set({ busy: false });
      afterAction();
    }
  }

  const same = (cart: Cart) => cart;

  return {
    cart: null,
    status: 'idle',
    error: null,
    busy: false,

    load: async ({ pageName, storeCode, force = false } = {}) => {
      if (pageName) lastPageName = pageName;
      if (force) forceNext = true;
      if (!get().cart) set({ status: 'loading', error: null });
      reading?.abort();
      const controller = new AbortController();
      reading = controller;
      try {
        const cart = await api.getCart(pageName ?? lastPageName, storeCode, controller.signal);
        apply(cart, forceNext);
        forceNext = false;
        return get().cart;
      } catch (e) {
        if (controller.signal.aborted) return get().cart;
        // A failed re-read keeps the cart shown; only a first read fails the screen.
        if (!get().cart) set({ status: 'error', error: toError(e) });
        return null;
      } finally {
        if (reading === controller) reading = null;
      }
    },

    add: (items, ctx) => mutate(() => api.addCartItems(items, ctx), same),
    increase: (id) => mutate(() => api.editCartItems([{ id, action: 'increase' }]), same),
    decrease: (id) => mutate(() => api.editCartItems([{ id, action: 'decrease' }]), same),
    setQuantity: (id, quantity) => mutate(() => api.editCartItems([{ id, action: 'quantity', quantity }]), same),
    remove: (ids) => mutate(() => api.deleteCartItems(ids), same),
    clean: () => mutate(() => api.cleanCart(), same),
    chooseRule: (ruleId) => mutate(() => api.chooseRule(ruleId), same),
    clearUnavailable: () => mutate(() => api.clearUnavailable(), same),
    chooseCoupons: (input) => mutate(() => api.chooseCoupons(input), same),
    addCouponItem: (code) => mutate(() => api.addCouponItem(code), same),
    removeCouponItem: (code) => mutate(() => api.removeCouponItem(code), same),
    verify: (pageType) => mutate(() => api.verifyCart(pageType), (r) => r.cart),
    reserve: (input) => mutate(() => api.reserve(input), same),
    scan: (input) => mutate(() => api.scanTable(input), (r) => r.cart),

    adopt: (cart) => {
      apply(cart, true);
    },

    afterLogin: async () => {
      forgetCartToken();
      if (get().cart || get().status !== 'idle') await get().load({ force: true });
    },

    reset: () => {
      announced = -1;
      forceNext = false;
      reading?.abort();
      reading = null;
      set({ cart: null, status: 'idle', error: null, busy: false });
    },
  };
});

let liveUsers = 0;
let stopLive: (() => void) | null = null;

/**
 * Keeps the cart live while a screen shows it: `cart:updated {version}` above ours and a socket
 * resync (first connect, a reconnect the server could not recover) re-read it. Ref-counted; the
 * answer stops this user's share.
 */
export function startCartLive(): () => void {
  liveUsers += 1;
  if (liveUsers === 1) {
    const offEvent = subscribe('/', 'cart:updated', (payload) => {
      const version = typeof payload?.version === 'number' ? payload.version : null;
      const state = useCart.getState();
      const ours = state.cart?.shoppingCarVersion;
      if (version === null || ours === undefined || version <= ours) return;
      announced = Math.max(announced, version);
      if (!state.busy) void state.load();
    });
    const offResync = onResync('/', () => {
      const state = useCart.getState();
      if (state.cart) void state.load();
    });
    stopLive = () => {
      offEvent();
      offResync();
    };
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    liveUsers -= 1;
    if (liveUsers === 0) {
      stopLive?.();
      stopLive = null;
    }
  };
}

/** Back to nothing known (tests). */
export function resetCart(): void {
  lastPageName = 'menu';
  announced = -1;
  forceNext = false;
  reading?.abort();
  reading = null;
  useCart.setState({ cart: null, status: 'idle', error: null, busy: false });
}
