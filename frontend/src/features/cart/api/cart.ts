import { apiDelete, apiGet, apiPatch, apiPost } from '@/lib/api';
import type { Cart, ChooseCouponsInput, CartEdit, CartItemInput, CartPageType, CartVerifyReply, ReservationInput, ScanInput, ScanReply } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';

/** `storeCode` moves the cart to that store (the server re-checks every item). */
export function getCart(pageName: string, storeCode?: string | null, signal?: AbortSignal): Promise<Cart> {
  return apiGet<Cart>('/cart', { query: { pageName, storeCode }, signal });
}

export function addCartItems(items: CartItemInput[], ctx: { storeCode?: string | null; serviceMethod?: OrderType | null } = {}): Promise<Cart> {
  return apiPost<Cart>('/cart/items', {
    ...(ctx.storeCode ? { storeCode: ctx.storeCode } : {}),
    ...(ctx.serviceMethod !== undefined && ctx.serviceMethod !== null ? { serviceMethod: ctx.serviceMethod } : {}),
    items,
  });
}

/** Decrease below minSale removes the line. */
export function editCartItems(items: CartEdit[]): Promise<Cart> {
  return apiPatch<Cart>('/cart/items', { items });
}

export function deleteCartItems(ids: string[]): Promise<Cart> {
  return apiDelete<Cart>('/cart/items', { body: { items: ids.map((id) => ({ id })) } });
}

/** Empties the cart (store, type and time stay). */
export function cleanCart(): Promise<Cart> {
  return apiDelete<Cart>('/cart');
}

/** Chooses that promotion within its mutex group. */
export function chooseRule(ruleId: string): Promise<Cart> {
  return apiPost<Cart>('/cart/rules', { ruleId });
}

/**
 * Chooses the order's coupons (issue 24): the codes given, the best combination for an empty
 * list, none with `none: true`. The answer is the re-priced cart; a coupon that cannot apply is a
 * refusal naming why, the cart unchanged.
 */
export function chooseCoupons(input: ChooseCouponsInput): Promise<Cart> {
  return apiPost<Cart>('/cart/coupons', input);
}

/** A product coupon (换购, 兑换) puts its product in the cart as a coupon item (addShoppingCarByCoupon). */
export function addCouponItem(couponCode: string): Promise<Cart> {
  return apiPost<Cart>('/cart/coupon-items', { couponCode });
}

/** Takes a coupon item out (its coupon is no longer used). */
export function removeCouponItem(couponCode: string): Promise<Cart> {
  return apiDelete<Cart>(`/cart/coupon-items/${encodeURIComponent(couponCode)}`);
}

/** Drops every disabled (sold out, off time, expired) item. */
export function clearUnavailable(): Promise<Cart> {
  return apiPost<Cart>('/cart/clear-unavailable');
}

/** menu, search and orderSubmit check the cart; on orderSubmit an empty or all-disabled cart is errCode -20. */
export function verifyCart(pageType: CartPageType | string): Promise<CartVerifyReply> {
  return apiPost<CartVerifyReply>('/cart/verify', { pageType });
}

/** Sets the cart's store, order type and time; 429 when repeated within 380 ms. */
export function reserve(input: ReservationInput): Promise<Cart> {
  return apiPost<Cart>('/orders/reservation', input);
}

/** Verifies a table QR link; the cart becomes dine-in at that store and desk for 3600 s. */
export function scanTable(input: ScanInput): Promise<ScanReply> {
  return apiPost<ScanReply>('/orders/scan', input);
}
