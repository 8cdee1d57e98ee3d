import { describe, expect, it } from 'vitest';
import { customerCancelled, withAlert } from './cancel';
import { EMPTY_QUEUE, queueReducer, type QueueAction } from './queue';
import { makeTabletOrder } from './testOrder';

const held = makeTabletOrder({ orderNo: 'A', state: 6, progress: 0, seq: 2 });
const board = queueReducer(EMPTY_QUEUE, { type: 'upsert', order: held }).state;

describe('customerCancelled', () => {
  it.each<[string, QueueAction, boolean]>([
    ['order:updated to 3', { type: 'upsert', order: { ...held, state: 3, progress: 3, seq: 3, closedBy: 'customer' } }, true],
    ['order:progress to 3', { type: 'progress', event: { orderNo: 'A', state: 3, progress: 3, seq: 3, at: 1 } }, true],
    ['refused by the store (2)', { type: 'upsert', order: { ...held, state: 2, progress: 2, seq: 3 } }, false],
    ['accepted', { type: 'upsert', order: { ...held, state: 1, progress: 1, seq: 3 } }, false],
    ['an older copy', { type: 'upsert', order: { ...held, state: 3, progress: 3, seq: 2 } }, false],
    ['an order this board never held', { type: 'progress', event: { orderNo: 'B', state: 3, progress: 3, seq: 3, at: 1 } }, false],
    ['a snapshot', { type: 'snapshot', orders: [], askedAt: 0 }, false],
  ])('%s', (_name, action, alerts) => {
    expect(customerCancelled(board, action)?.orderNo ?? null).toBe(alerts ? 'A' : null);
  });
  it('the card leaves the queue, and a second event raises no second alert', () => {
    const action: QueueAction = { type: 'progress', event: { orderNo: 'A', state: 3, progress: 3, seq: 3, at: 1 } };
    const after = queueReducer(board, action).state;
    expect(after.orders.A).toBeUndefined();
    expect(customerCancelled(after, { type: 'upsert', order: { ...held, state: 3, progress: 3, seq: 3 } })).toBeNull();
    expect(withAlert(withAlert([], held), held)).toHaveLength(1);
  });
});
