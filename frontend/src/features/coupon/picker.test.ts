import { describe, expect, it } from 'vitest';
import { makeCart } from '@/test/fixtures';
import { makeCartCoupons, makeOption } from '@/test/couponFixtures';
import { canTap, conflictsOf, couponSummary, isProductCoupon, mutexGroups, tapAction } from './picker';

const cash = makeOption({ couponCode: 'A', templateCode: 'T_CASH', name: '满100减20' });
const pct = makeOption({ couponCode: 'B', templateCode: 'T_PCT', name: '比萨8折', kind: 'percentOff' });
const fee = makeOption({ couponCode: 'C', templateCode: 'T_FEE', name: '免配送费', kind: 'freeDelivery' });
const side = makeOption({ couponCode: 'D', templateCode: 'T_SIDE', name: '¥9.9换购芝士条', kind: 'productAtPrice' });
const MUTEX = [{ couponMutexDetails: [{ ruleId: 'T_CASH' }, { ruleId: 'T_PCT' }] }];

describe('tapAction', () => {
  it.each([
    ['adds a coupon to the applied ones', ['C'], cash, { kind: 'choose', input: { couponCodes: ['C', 'A'] } }],
    ['takes an applied coupon out', ['A', 'C'], cash, { kind: 'choose', input: { couponCodes: ['C'] } }],
    ['asks for none when the last one goes (an empty list would mean the best)', ['A'], cash, { kind: 'choose', input: { couponCodes: [], none: true } }],
    ['drops what the new one cannot join (its mutex group)', ['A', 'C'], pct, { kind: 'choose', input: { couponCodes: ['C', 'B'] } }],
    ['adds a product coupon as its coupon item', ['A'], side, { kind: 'addItem', couponCode: 'D' }],
    ['removes a product coupon in the cart as its coupon item', ['D'], { ...side, applied: true, inCart: true }, { kind: 'removeItem', couponCode: 'D' }],
    ['never sends a product coupon in a choice', ['D', 'C'], cash, { kind: 'choose', input: { couponCodes: ['C', 'A'] } }],
  ] as const)('%s', (_name, applied, option, expected) => {
    const coupons = makeCartCoupons({ usable: [cash, pct, fee, { ...side, applied: (applied as readonly string[]).includes('D') }], applied: [...applied], auto: false });
    expect(tapAction(option, coupons, MUTEX)).toEqual(expected);
  });

  it('drops another coupon of the same template', () => {
    const twin = makeOption({ couponCode: 'A2', templateCode: 'T_CASH' });
    const coupons = makeCartCoupons({ usable: [cash, twin], applied: ['A'] });
    expect(tapAction(twin, coupons, [])).toEqual({ kind: 'choose', input: { couponCodes: ['A2'] } });
  });
});

describe('conflictsOf and mutexGroups', () => {
  it('names the templates a coupon cannot join, itself included', () => {
    expect([...conflictsOf('T_CASH', MUTEX)].sort()).toEqual(['T_CASH', 'T_PCT']);
    expect([...conflictsOf('T_FEE', MUTEX)]).toEqual(['T_FEE']);
  });
  it('explains groups of two or more coupons the customer holds, once each', () => {
    const beans = [...MUTEX, { couponMutexDetails: [{ ruleId: 'T_PCT' }, { ruleId: 'T_CASH' }] }, { couponMutexDetails: [{ ruleId: 'T_FEE' }, { ruleId: 'PROMO_1' }] }];
    expect(mutexGroups(beans, [cash, pct, fee])).toEqual([['满100减20', '比萨8折']]);
  });
});

describe('canTap', () => {
  it('lets a product coupon in the cart be taken out whatever its reason', () => {
    expect(canTap(makeOption({ kind: 'productAtPrice', inCart: true, reason: { code: 'belowThreshold', text: '再买¥12.00可用' } }))).toBe(true);
  });
  it.each([
    [null, true],
    [{ code: 'mutex', text: '与满100减20不可同时使用' }, true],
    [{ code: 'notBetter', text: '已有更优惠的组合' }, true],
    [{ code: 'notChosen', text: '未选用' }, true],
    [{ code: 'belowThreshold', text: '再买¥12.00可用' }, false],
    [{ code: 'notHere', text: '仅限外送订单使用' }, false],
  ])('%o → %s', (reason, expected) => {
    expect(canTap(makeOption({ reason }))).toBe(expected);
  });
});

describe('couponSummary and isProductCoupon', () => {
  it('adds the coupons and the fee they waive, and counts the usable ones once read', () => {
    const cart = makeCart({ osCoupons: ['A', 'C'], couponDiscountsAmount: 20, couponDeliveryFee: 6 });
    expect(couponSummary(cart, null)).toEqual({ applied: 2, savedFen: 2600, usable: null });
    expect(couponSummary(makeCart(), makeCartCoupons({ usable: [cash, pct] }))).toEqual({ applied: 0, savedFen: 0, usable: 2 });
  });
  it('knows the kinds that add a product', () => {
    expect(['cashOff', 'percentOff', 'freeDelivery', 'productAtPrice', 'exchangeProduct'].map((k) => isProductCoupon(k as never))).toEqual([false, false, false, true, true]);
  });
});
