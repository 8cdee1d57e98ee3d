import type { CartCoupons, Coupon, CouponItem, CouponOffer, CouponOption } from '@/lib/api/types';

const DAY = 86_400_000;
/** 2026-11-24 10:30 Shanghai. */
export const NOW = Date.parse('2026-11-24T02:30:00Z');

export function makeCoupon(over: Partial<Coupon> = {}): Coupon {
  return {
    couponCode: 'C0001',
    templateCode: 'T_CASH_100_20',
    name: '满100减20',
    kind: 'cashOff',
    ruleText: '满100减20',
    scopeText: '全部商品',
    validFrom: Date.parse('2026-11-01T00:00:00+08:00'),
    validTo: Date.parse('2026-12-01T00:00:00+08:00'),
    status: 'issued',
    statusLabel: '可使用',
    orderNo: null,
    transferable: true,
    expiringSoon: false,
    productCode: null,
    imageUrl: null,
    ...over,
  };
}

export function makeOffer(over: Partial<CouponOffer> = {}): CouponOffer {
  return {
    ruleId: 'T_CASH_100_20',
    name: '满100减20',
    kind: 'cashOff',
    ruleText: '满100减20',
    scopeText: '全部商品',
    validText: '领取后30天内有效',
    remaining: null,
    perUserLimit: 1,
    collected: 0,
    canCollect: true,
    ...over,
  };
}

export function makeOption(over: Partial<CouponOption> = {}): CouponOption {
  return {
    couponCode: 'C0001',
    templateCode: 'T_CASH_100_20',
    name: '满100减20',
    kind: 'cashOff',
    ruleText: '满100减20',
    validTo: NOW + 7 * DAY,
    alone: 20,
    applied: false,
    saved: 0,
    reason: null,
    productCode: null,
    inCart: false,
    ...over,
  };
}

export function makeCartCoupons(over: Partial<CartCoupons> = {}): CartCoupons {
  return { usable: [], unusable: [], applied: [], auto: true, couponDiscountsAmount: 0, ...over };
}

export function makeCouponItem(over: Partial<CouponItem> = {}): CouponItem {
  return {
    couponCode: 'C0009',
    ruleId: 'T_SIDE_9_9',
    sort: 1,
    productCode: 'SD001',
    prodName: '芝士条',
    prodNameEn: 'Cheese sticks',
    imageUrl: '',
    originalPrice: 19,
    unitPrice: 9.9,
    quantity: 1,
    disableMsg: null,
    disableReason: null,
    ...over,
  };
}
