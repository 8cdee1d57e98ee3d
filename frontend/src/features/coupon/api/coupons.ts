import { apiGet, apiPost } from '@/lib/api';
import type { CartCoupons, Coupon, CouponOffer, CouponPage, CouponTransferReply } from '@/lib/api/types';

/** The tabs of /my/coupon/list (GET /coupons?status=): available holds the locked ones too ("下单中"). */
export const COUPON_TABS = ['available', 'used', 'expired'] as const;
export type CouponTab = (typeof COUPON_TABS)[number];

export function isCouponTab(v: string | null): v is CouponTab {
  return (COUPON_TABS as readonly string[]).includes(v ?? '');
}

/** One page of the user's coupons of a tab. */
export function listCoupons(status: CouponTab, page: number, signal?: AbortSignal): Promise<CouponPage> {
  return apiGet<CouponPage>('/coupons', { signal, query: { status, page } });
}

/** The offers to collect (a visitor sees them too, without the right to collect). */
export function getOffers(signal?: AbortSignal): Promise<CouponOffer[]> {
  return apiGet<CouponOffer[]>('/coupons/offers', { signal });
}

/** Collects an offer (collectCoupon/{ruleId}): the new coupon; sold out and the per-user limit are refusals. */
export function collectOffer(ruleId: string): Promise<Coupon> {
  return apiPost<Coupon>(`/coupons/collect/${encodeURIComponent(ruleId)}`);
}

/** Exchanges a code: every failure is the same refusal ("兑换码无效或已使用"); 429 carries retryAfterSeconds. */
export function exchangeCode(code: string): Promise<Coupon> {
  return apiPost<Coupon>('/coupons/exchange', { code });
}

/** Gives a coupon to the account of that phone: the answer masks the phone and keeps the recipient's code to itself. */
export function transferCoupon(couponCode: string, cellPhone: string): Promise<CouponTransferReply> {
  return apiPost<CouponTransferReply>(`/coupons/${encodeURIComponent(couponCode)}/transfer`, { cellPhone });
}

/** The cart's coupons: those that apply (with what each saves), those that do not (with why), the applied set. */
export function getCartCoupons(signal?: AbortSignal): Promise<CartCoupons> {
  return apiGet<CartCoupons>('/cart/coupons', { signal });
}
