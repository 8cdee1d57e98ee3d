import { describe, expect, it } from 'vitest';
import { makeBreakdown, PIZZA_20_OFF } from '@/test/fixtures';
import { breakdownGap, breakdownRows } from './breakdown';

describe('breakdownRows', () => {
  it('lists each line at list price × quantity, each discount, the fee and the payable, in fen', () => {
    expect(breakdownRows(makeBreakdown(), 'zh', true)).toEqual([
      { kind: 'line', id: 'l_1', name: '超级至尊比萨', spec: '12英寸 经典手拍', unit: 9900, quantity: 1, amount: 9900 },
      { kind: 'line', id: 'l_2', name: '雪碧', spec: '', unit: 800, quantity: 1, amount: 800 },
      { kind: 'discount', id: 'R002', name: '比萨8折', amount: 1980, level: 'line' },
      { kind: 'fee', amount: 600 },
      { kind: 'payable', amount: 9320 },
    ]);
  });

  it('speaks English with English names, waives the fee as its own row, folds the lines when asked', () => {
    const b = makeBreakdown({ deliveryFeeWaived: 6, payable: 87.2 });
    const rows = breakdownRows(b, 'en', true, false);
    expect(rows).toEqual([
      { kind: 'products', amount: 10700 },
      { kind: 'discount', id: 'R002', name: '20% off pizzas', amount: 1980, level: 'line' },
      { kind: 'fee', amount: 600 },
      { kind: 'waived', amount: 600 },
      { kind: 'payable', amount: 8720 },
    ]);
    expect(breakdownGap(b)).toBe(0);
  });

  it("shows an order's points as their own row, its payable already net of them (issue 23)", () => {
    const b = makeBreakdown({ pointsUsed: 1280, pointsDeduction: 12.8, payable: 80.4 });
    const rows = breakdownRows(b, 'zh', true, false);
    expect(rows.slice(-2)).toEqual([
      { kind: 'points', amount: 1280, points: 1280 },
      { kind: 'payable', amount: 8040 },
    ]);
    expect(breakdownGap(b)).toBe(0);
  });

  it("takes checkout's chosen points off a cart's payable", () => {
    const rows = breakdownRows(makeBreakdown(), 'zh', true, false, { fen: 1280, points: 1280, inPayable: false });
    expect(rows.slice(-2)).toEqual([
      { kind: 'points', amount: 1280, points: 1280 },
      { kind: 'payable', amount: 8040 },
    ]);
  });

  it('leaves the fee out of pickup orders', () => {
    const rows = breakdownRows(makeBreakdown({ deliveryFee: 0, payable: 87.2 }), 'zh', false);
    expect(rows.map((r) => r.kind)).toEqual(['line', 'line', 'discount', 'payable']);
  });
});

describe('breakdownGap', () => {
  it('is 0 when the rows add up to the payable, to the fen, and says by how much otherwise', () => {
    expect(breakdownGap(makeBreakdown())).toBe(0);
    // 0.1 + 0.2 in yuan is not 0.3 in floating point; in fen it is.
    const cents = makeBreakdown({
      lines: [
        { lineId: 'a', productCode: 'A', nameCn: 'A', nameEn: 'A', specCn: '', specEn: '', unitPrice: 0.1, quantity: 1, amount: 0.1 },
        { lineId: 'b', productCode: 'B', nameCn: 'B', nameEn: 'B', specCn: '', specEn: '', unitPrice: 0.2, quantity: 1, amount: 0.2 },
      ],
      discounts: [],
      deliveryFee: 0,
      payable: 0.3,
    });
    expect(breakdownGap(cents)).toBe(0);
    expect(breakdownGap(makeBreakdown({ payable: 93.21 }))).toBe(-1);
  });
});

describe('coupons in the breakdown (issue 24)', () => {
  // ¥107.00 − ¥19.80 (promotion) − ¥20.00 (coupon C1) + ¥6.00 − ¥6.00 (free-delivery coupon) = ¥67.20
  const b = makeBreakdown({
    discounts: [PIZZA_20_OFF, { ruleId: 'T_CASH', nameCn: '满100减20', nameEn: '¥20 off ¥100', ruleType: 'cashOff', level: 'order', amount: 20, lineIds: [], couponCode: 'C1' }],
    discountAmount: 39.8,
    couponAmount: 20,
    couponDeliveryWaived: 6,
    payable: 67.2,
  });
  it('gives a coupon its own row, keyed by the coupon, and the fee a coupon waived its own row', () => {
    const rows = breakdownRows(b, 'zh', true, false);
    expect(rows).toContainEqual({ kind: 'discount', id: 'C1', name: '满100减20', amount: 2000, level: 'coupon' });
    expect(rows).toContainEqual({ kind: 'discount', id: 'R002', name: '比萨8折', amount: 1980, level: 'line' });
    expect(rows).toContainEqual({ kind: 'couponFee', amount: 600 });
    expect(rows.at(-1)).toEqual({ kind: 'payable', amount: 6720 });
  });
  it('adds up with them', () => {
    expect(breakdownGap(b)).toBe(0);
    expect(breakdownGap({ ...b, couponDeliveryWaived: 0 })).toBe(600);
  });
});
