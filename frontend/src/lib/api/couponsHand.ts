/**
 * TEMPORARY — the /coupons shapes of issue 24's contract, typed by hand while the server's
 * coupon routes (GET /coupons, offers, collect, exchange, transfer) are not generated yet. Delete
 * this file once `npm run gen:api` knows them: types.ts then names the generated schemas instead.
 * (The cart's coupon shapes are generated already.)
 */
export type CouponKind = 'cashOff' | 'percentOff' | 'freeDelivery' | 'productAtPrice' | 'exchangeProduct';
export type CouponStatus = 'issued' | 'locked' | 'used' | 'returned' | 'expired' | 'transferred';

export interface CouponDto {
  couponCode: string;
  templateCode: string;
  name: string;
  kind: CouponKind;
  ruleText: string;
  scopeText: string;
  validFrom: number;
  validTo: number;
  status: CouponStatus;
  statusLabel: string;
  orderNo?: string | null;
  transferable: boolean;
  expiringSoon: boolean;
  productCode?: string | null;
  imageUrl?: string | null;
}

export interface CouponPageDto {
  list: CouponDto[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

export interface OfferDto {
  ruleId: string;
  name: string;
  kind: CouponKind;
  ruleText: string;
  scopeText: string;
  validText: string;
  remaining: number | null;
  perUserLimit: number | null;
  collected: number;
  canCollect: boolean;
}

export interface TransferDto {
  couponCode: string;
  to: string;
}
