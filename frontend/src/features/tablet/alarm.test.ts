import { describe, expect, it } from 'vitest';
import { RING_INTERVAL_MS, flashingOrders, isAwaiting, ringDue, shouldRing } from './alarm';
import { makeTabletOrder } from './testOrder';

const o = (orderNo: string, state: number, progress: number) => makeTabletOrder({ orderNo, state, progress });

describe('which cards flash and whether the alarm rings', () => {
  it.each([
    ['an empty board is quiet', [], [], false],
    ['a paid order awaiting acceptance rings', [o('A', 6, 0)], ['A'], true],
    ['cash on delivery awaiting acceptance rings', [o('A', 7, 0)], ['A'], true],
    ['accepted orders are quiet', [o('A', 1, 1), o('B', 1, 20)], [], false],
    ['only the new ones flash', [o('A', 6, 0), o('B', 1, 10), o('C', 7, 0)], ['A', 'C'], true],
    ['a cancelled order does not ring', [o('A', 3, 3)], [], false],
    ['a cancelled variant with a stale progress 0 does not ring', [o('A', 11, 0)], [], false],
  ] as const)('%s', (_name, orders, flashing, ring) => {
    expect([...flashingOrders(orders)].sort()).toEqual(flashing);
    expect(shouldRing(orders)).toBe(ring);
  });
  it('isAwaiting', () => {
    expect(isAwaiting({ state: 6, progress: 0 })).toBe(true);
    expect(isAwaiting({ state: 1, progress: 1 })).toBe(false);
  });
});

describe('ringDue', () => {
  it.each([
    ['not ringing', false, null, 0, false],
    ['first beep at once', true, null, 0, true],
    ['too soon for the next', true, 1000, 1000 + RING_INTERVAL_MS - 1, false],
    ['the next after 2 s', true, 1000, 1000 + RING_INTERVAL_MS, true],
  ] as const)('%s', (_name, ringing, last, nowMs, want) => {
    expect(ringDue(ringing, last, nowMs)).toBe(want);
  });
});
