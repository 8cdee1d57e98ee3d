import { describe, expect, it } from 'vitest';
import { parseOrder, parseOrders, parsePresence, parseProgress, parseStoreUpdate } from './parse';
import { makeTabletOrder } from './testOrder';

describe('parse', () => {
  it('reads a TabletOrder as the server sends it', () => {
    const o = makeTabletOrder();
    expect(parseOrder(JSON.parse(JSON.stringify(o)))).toEqual(o);
  });
  it('keeps the breakdown, and without one shows just the amount (which adds up)', () => {
    const { breakdown, ...bare } = makeTabletOrder();
    expect(parseOrder(JSON.parse(JSON.stringify(makeTabletOrder())))?.breakdown).toEqual(breakdown);
    expect(parseOrder(bare)?.breakdown).toEqual({ lines: [], discounts: [], productAmount: 85.2, discountAmount: 0, deliveryFee: 0, deliveryFeeWaived: 0, pointsUsed: 0, pointsDeduction: 0, couponAmount: 0, couponDeliveryWaived: 0, payable: 85.2 });
  });
  it('reads the kitchen line, the flags and a line from a server that still said halves', () => {
    const o = makeTabletOrder({ contactless: true, cashToCollect: 12.5, invoice: { kind: 'personal', title: 'ACME', taxNo: null, email: null }, closedBy: 'customer', closedAt: 5, closeNote: null });
    expect(parseOrder(JSON.parse(JSON.stringify(o)))).toEqual(o);
    const old = parseOrder({ ...o, lines: [{ name: '双拼', quantity: 1, options: ['12英寸'], halves: ['A', 'B'] }] });
    expect(old?.lines[0]).toMatchObject({ name: '双拼', flavours: ['A', 'B'], options: ['12英寸'], extras: [], combo: [], size: null });
    expect(parseOrder({ ...o, invoice: 'yes', cashToCollect: 'x' })).toMatchObject({ invoice: null, cashToCollect: null });
  });
  it('drops what is not an order', () => {
    expect(parseOrder(null)).toBeNull();
    expect(parseOrder({ orderNo: 'A' })).toBeNull();
    expect(parseOrders([{ orderNo: 'A' }, makeTabletOrder({ orderNo: 'B' })]).map((o) => o.orderNo)).toEqual(['B']);
  });
  it('reads numbers sent as text (older builds)', () => {
    expect(parseProgress({ orderNo: 'A', progress: '10', state: '1', seq: 4, at: 5 })).toEqual({ orderNo: 'A', progress: 10, state: 1, seq: 4, at: 5 });
    expect(parseProgress({ orderNo: 'A', progress: 10 })).toBeNull();
  });
  it.each([
    [{ storeCode: 'SH001', tabletsOnline: 2, noTabletSince: null }, { storeCode: 'SH001', tabletsOnline: 2, noTabletSince: null }],
    [{ storeCode: 'SH001', tabletsOnline: '0', noTabletSince: 1700000000000 }, { storeCode: 'SH001', tabletsOnline: 0, noTabletSince: 1700000000000 }],
    [{ storeCode: 'SH001' }, null],
    ['nonsense', null],
  ])('reads store:presence %#', (given, expected) => {
    expect(parsePresence(given)).toEqual(expected);
  });

  it('reads store:update', () => {
    expect(parseStoreUpdate({ storeCode: 'SH001', status: 'busy', notice: null, soldOut: ['P1', 3] })).toEqual({
      storeCode: 'SH001',
      status: 'busy',
      notice: null,
      soldOut: ['P1'],
    });
  });
});
