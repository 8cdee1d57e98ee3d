import { describe, expect, it } from 'vitest';
import { advanceLabelKey, columnOf, columnsOf, isActive, readyLabelKey, shortOrderNo, stageLabelKey } from './stages';
import { makeTabletOrder } from './testOrder';

describe('columnOf', () => {
  it.each([
    [0, 'new'],
    [1, 'making'],
    [4, 'making'],
    [10, 'making'],
    [20, 'oven'],
    [30, 'check'],
    [40, 'ready'],
    [50, null],
    [2, null],
    [3, null],
    [99, null],
  ] as const)('progress %i → %s', (progress, column) => {
    expect(columnOf(progress)).toBe(column);
  });
});

describe('isActive', () => {
  it.each([
    [6, 0, true],
    [7, 0, true],
    [1, 1, true],
    [1, 40, true],
    [8, 50, false],
    [2, 2, false],
    [3, 3, false],
    [9, 3, false],
    // A cancelled variant is closed whatever its progress says.
    [10, 20, false],
    [5, 99, false],
  ])('state %i progress %i → %s', (state, progress, want) => {
    expect(isActive({ state, progress })).toBe(want);
  });
});

describe('labels', () => {
  it.each([
    [0, 'stage.40.0'],
    [1, 'stage.40.1'],
    [2, 'stage.40.2'],
  ] as const)('ready words of order type %i', (type, key) => {
    expect(readyLabelKey(type)).toBe(key);
    expect(stageLabelKey(40, type)).toBe(key);
  });
  it.each([
    [0, 0, null],
    [1, 0, 'tablet.advance.make'],
    [4, 0, 'tablet.advance.oven'],
    [10, 1, 'tablet.advance.oven'],
    [20, 2, 'tablet.advance.check'],
    [30, 0, 'tablet.advance.ready'],
    [40, 0, 'tablet.advance.done.0'],
    [40, 1, 'tablet.advance.done.1'],
    [40, 2, 'tablet.advance.done.2'],
    [50, 0, null],
  ] as const)('advance button at progress %i, type %i', (progress, type, key) => {
    expect(advanceLabelKey(progress, type)).toBe(key);
  });
  it('calls an order by its last four digits', () => {
    expect(shortOrderNo('261124110000000123')).toBe('0123');
    expect(shortOrderNo('12')).toBe('12');
  });
});

describe('columnsOf', () => {
  it('sorts each column oldest first and leaves closed orders out', () => {
    const cols = columnsOf([
      makeTabletOrder({ orderNo: 'late', paidAt: 3000 }),
      makeTabletOrder({ orderNo: 'early', paidAt: 1000 }),
      makeTabletOrder({ orderNo: 'cash', paidAt: null, orderTime: 2000, state: 7 }),
      makeTabletOrder({ orderNo: 'acc', state: 1, progress: 1 }),
      makeTabletOrder({ orderNo: 'mk', state: 1, progress: 10 }),
      makeTabletOrder({ orderNo: 'done', state: 8, progress: 50 }),
    ]);
    expect(cols.new.map((o) => o.orderNo)).toEqual(['early', 'cash', 'late']);
    expect(cols.making.map((o) => o.orderNo).sort()).toEqual(['acc', 'mk']);
    expect(cols.ready).toEqual([]);
  });

  it('puts priority orders (优先制作) first in their column, then oldest first', () => {
    const cols = columnsOf([
      makeTabletOrder({ orderNo: 'old', paidAt: 1000 }),
      makeTabletOrder({ orderNo: 'vip-late', paidAt: 5000, priority: true }),
      makeTabletOrder({ orderNo: 'vip', paidAt: 4000, priority: true }),
      makeTabletOrder({ orderNo: 'mid', paidAt: 2000 }),
      makeTabletOrder({ orderNo: 'making', state: 1, progress: 10, paidAt: 500 }),
      makeTabletOrder({ orderNo: 'making-vip', state: 1, progress: 10, paidAt: 900, priority: true }),
    ]);
    expect(cols.new.map((o) => o.orderNo)).toEqual(['vip', 'vip-late', 'old', 'mid']);
    expect(cols.making.map((o) => o.orderNo)).toEqual(['making-vip', 'making']);
  });
});
