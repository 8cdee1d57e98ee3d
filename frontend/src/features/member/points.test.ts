import { describe, expect, it } from 'vitest';
import { translate, type MessageKey } from '@/lib/i18n';
import { zhPages } from '@/lib/i18n/zhPages';
import { enPages } from '@/lib/i18n/enPages';
import type { DeductionRule, LedgerEntry } from '@/lib/api/types';
import { entryKey, entryText, entryTone, guideExamples, levelProgress, maxDeduction, pointsToFen, signedPoints } from './points';

const RULE: DeductionRule = { pointsPerYuan: 100, maxShareOfOrder: 0.5, minPoints: 100 };

describe('maxDeduction: the rule of GET /points/deduction-rule on a table of amounts', () => {
  // [order fen, available points, usable points, fen saved]
  const table: [number, number, number, number][] = [
    [8900, 2000, 2000, 2000], // the balance is below the cap: all of it
    [8900, 8000, 4450, 4450], // capped at half the order
    [8990, 100_000, 4495, 4495], // half of ¥89.90 to the fen
    [8991, 100_000, 4495, 4495], // half of an odd fen amount rounds down
    [4550, 150, 150, 150], // just over the minimum
    [12000, 99, 0, 0], // under the minimum: nothing
    [12000, 100, 100, 100], // exactly the minimum
    [150, 1000, 0, 0], // the cap (75 fen) would need 75 points: under the minimum
    [0, 5000, 0, 0], // nothing to pay
    [8900, 0, 0, 0],
  ];
  it.each(table)('order %i fen with %i points: %i points save %i fen', (orderFen, available, points, fen) => {
    expect(maxDeduction(RULE, available, orderFen)).toEqual({ usablePoints: points, amountFen: fen });
  });

  it("agrees with the server's own table (actors domain/loyalty/mod.rs deduction_cap_table)", () => {
    // (available, order fen, usable)
    const server: [number, number, number][] = [
      [10_000, 8_990, 4_495],
      [1_000, 8_990, 1_000],
      [99, 8_990, 0],
      [150, 250, 125],
      [150, 180, 0],
      [0, 10_000, 0],
      [5_000, 0, 0],
      [5_000, 800, 400],
    ];
    for (const [available, orderFen, usable] of server) {
      expect(maxDeduction(RULE, available, orderFen).usablePoints, `${available} on ${orderFen}`).toBe(usable);
    }
  });

  it('never asks more fen than the cap at a rate under 100 points a yuan', () => {
    const rule = { pointsPerYuan: 50, maxShareOfOrder: 0.5, minPoints: 0 };
    // Cap 75 fen = 37.5 points: 37 points, 74 fen.
    expect(maxDeduction(rule, 1000, 150)).toEqual({ usablePoints: 37, amountFen: 74 });
  });

  it('keeps whole fen at other rates: 1,000 points = ¥1 uses points by tens', () => {
    const rule = { pointsPerYuan: 1000, maxShareOfOrder: 0.3, minPoints: 0 };
    expect(pointsToFen(rule, 1005)).toBe(100);
    expect(maxDeduction(rule, 1005, 10_000)).toEqual({ usablePoints: 1000, amountFen: 100 });
    expect(maxDeduction(rule, 50_000, 10_000)).toEqual({ usablePoints: 30_000, amountFen: 3000 });
  });

  it('never takes more than the cap nor more points than the balance', () => {
    for (let orderFen = 0; orderFen < 20_000; orderFen += 137) {
      for (const available of [0, 50, 100, 101, 999, 4321, 20_000]) {
        const d = maxDeduction(RULE, available, orderFen);
        expect(d.usablePoints).toBeLessThanOrEqual(available);
        expect(d.amountFen * 2).toBeLessThanOrEqual(orderFen);
        expect(d.amountFen).toBe(pointsToFen(RULE, d.usablePoints));
      }
    }
  });

  it('works the guide examples out from the rule', () => {
    const ex = guideExamples(RULE);
    expect(ex.map((e) => [e.orderFen, e.points, e.deduction.usablePoints, e.deduction.amountFen, e.payFen])).toEqual([
      [8900, 2000, 2000, 2000, 6900],
      [8900, 8000, 4450, 4450, 4450],
      [4550, 150, 150, 150, 4400],
      [12000, 60, 0, 0, 12000],
    ]);
  });
});

const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  id: 1,
  kind: 'earned',
  businessType: 'order',
  businessId: 'P20261125001',
  points: 120,
  status: 'available',
  expiresAt: null,
  at: 0,
  ...over,
});

const zhT = (key: MessageKey, params?: Record<string, string | number>) =>
  translate('zh', key, params, { zh: zhPages as Record<string, string>, en: enPages as Record<string, string> });
const enT = (key: MessageKey, params?: Record<string, string | number>) =>
  translate('en', key, params, { zh: zhPages as Record<string, string>, en: enPages as Record<string, string> });

describe('ledger entries in plain words', () => {
  it('names the business and its id', () => {
    expect(entryText(entry({}), zhT)).toBe('订单 P20261125001 获得，已到账');
    expect(entryText(entry({}), enT)).toBe('Earned on order P20261125001, now available');
    expect(entryText(entry({ kind: 'gift', businessType: 'gift', businessId: 'g1', points: 200 }), zhT)).toBe('会员礼包获得');
    expect(entryText(entry({ kind: 'pending' }), zhT)).toBe('订单 P20261125001 获得，待到账');
    expect(entryText(entry({ kind: 'spent', businessType: 'deduction', points: -300 }), zhT)).toBe('订单 P20261125001 抵扣');
    expect(entryText(entry({ kind: 'released', businessType: 'deduction', points: 300 }), enT)).toBe('Returned: order P20261125001 was not completed');
    expect(entryText(entry({ kind: 'reversed', businessType: 'refund', points: -120 }), zhT)).toBe('订单 P20261125001 退款，积分扣回');
    expect(entryText(entry({ kind: 'expired', businessType: 'expiry', points: -20 }), zhT)).toBe('积分到期');
    expect(entryText(entry({ kind: 'adjusted', businessType: 'adjustment', points: 50 }), enT)).toBe('Adjusted by customer service');
    expect(entryText(entry({ kind: 'earned', businessType: 'gift', businessId: 'g1', points: 500 }), zhT)).toBe('会员礼包获得');
  });

  it('falls back to the kind for a business it has no words for', () => {
    expect(entryKey({ kind: 'spent', businessType: 'order' })).toBe('points.entry.spent');
    expect(entryText(entry({ kind: 'spent', businessType: 'order', businessId: 'X1' }), enT)).toBe('Points used (X1)');
  });

  it('has words for every kind in both languages', () => {
    for (const kind of ['earned', 'pending', 'spent', 'expired', 'reversed', 'adjusted', 'released', 'gift'] as const) {
      const key = entryKey({ kind, businessType: 'adjustment' });
      expect(zhPages).toHaveProperty(key);
      expect(enPages).toHaveProperty(key);
    }
  });

  it('signs and tones the points', () => {
    expect(signedPoints(120)).toBe('+120');
    expect(signedPoints(-300)).toBe('-300');
    expect(entryTone(entry({}))).toBe('in');
    expect(entryTone(entry({ kind: 'spent', points: -1 }))).toBe('out');
    expect(entryTone(entry({ kind: 'pending' }))).toBe('wait');
  });
});

describe('levelProgress', () => {
  it('is the share of the next threshold reached, in whole percent', () => {
    expect(levelProgress({ qualifyingSpend: 150.5, nextLevel: { level: 2, name: '银卡', threshold: 500, remaining: 349.5 } })).toEqual({
      percent: 30,
      remainingFen: 34950,
      thresholdFen: 50000,
    });
    expect(levelProgress({ qualifyingSpend: 0, nextLevel: { level: 2, name: '银卡', threshold: 500, remaining: 500 } })?.percent).toBe(0);
  });
  it('is null at the top level', () => {
    expect(levelProgress({ qualifyingSpend: 9000, nextLevel: null })).toBeNull();
  });
});
