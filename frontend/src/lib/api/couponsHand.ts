/**
 * TEMPORARY — the coupon shapes of issue 24's contract (/work/prompts/contract24.md), typed by
 * hand while the server's DTOs are not generated yet. Delete this file once `npm run gen:api`
 * knows them: types.ts then names the generated schemas instead.
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

export interface CouponReasonDto {
  code: string;
  text: string;
}

export interface CouponOptionDto {
  couponCode: string;
  templateCode: string;
  name: string;
  kind: CouponKind;
  ruleText: string;
  validTo: number;
  alone: number;
  applied: boolean;
  saved: number;
  reason: CouponReasonDto | null;
}

export interface CartCouponsDto {
  usable: CouponOptionDto[];
  unusable: CouponOptionDto[];
  applied: string[];
  auto: boolean;
  couponDiscountsAmount: number;
}

export interface ChooseCouponsBody {
  couponCodes: string[];
  none?: boolean;
}

export interface CouponItemDto {
  couponCode: string;
  ruleId: string;
  sort: number;
  productCode: string;
  prodName: string;
  prodNameEn: string;
  imageUrl: string;
  originalPrice: number;
  unitPrice: number;
  quantity: number;
}

export interface CouponMutexBeanDto {
  couponMutexDetails: { ruleId: string }[];
}

/** What CartDto gains (spec ordering §3): optional while today's server sends none of it. */
export interface CartCouponFields {
  couponItems?: CouponItemDto[];
  saleOutCouponItems?: CouponItemDto[];
  timeOutCouponItems?: CouponItemDto[];
  effectOutCouponItems?: CouponItemDto[];
  couponMutexBeans?: CouponMutexBeanDto[];
  osCoupons?: string[];
  exchangeCouponBeans?: CouponItemDto[];
  couponDiscountsAmount?: number;
  cashCouponAmount?: number;
  couponDeliveryFee?: number;
}
