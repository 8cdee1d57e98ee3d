import { describe, expect, it } from 'vitest';
import { EMPTY_QUEUE, MAX_GONE, queueOrders, queueReducer, type QueueAction, type QueueState } from './queue';
import { makeTabletOrder } from './testOrder';
import type { TabletOrder } from './types';

const order = (no: string, over: Partial<TabletOrder> = {}) => makeTabletOrder({ orderNo: no, ...over });

function run(actions: QueueAction[], from: QueueState = EMPTY_QUEUE): { state: QueueState; refetch: boolean[] } {
  let state = from;
  const refetch: boolean[] = [];
  for (const a of actions) {
    const r = queueReducer(state, a);
    state = r.state;
    refetch.push(r.refetch);
  }
  return { state, refetch };
}

/** orderNo:progress@seq of every card, sorted. */
const cards = (s: QueueState) =>
  queueOrders(s)
    .map((o) => `${o.orderNo}:${o.progress}@${o.seq}`)
    .sort();

describe('queueReducer: upsert (order:new, order:updated, action answers)', () => {
  const cases: { name: string; actions: QueueAction[]; want: string[] }[] = [
    { name: 'a new order gets a card', actions: [{ type: 'upsert', order: order('A') }], want: ['A:0@2'] },
    {
      name: 'the same order twice is one card',
      actions: [{ type: 'upsert', order: order('A') }, { type: 'upsert', order: order('A') }],
      want: ['A:0@2'],
    },
    {
      name: 'a newer seq replaces the card',
      actions: [{ type: 'upsert', order: order('A') }, { type: 'upsert', order: order('A', { state: 1, progress: 1, seq: 3 }) }],
      want: ['A:1@3'],
    },
    {
      name: 'an older seq arriving late changes nothing',
      actions: [{ type: 'upsert', order: order('A', { state: 1, progress: 10, seq: 4 }) }, { type: 'upsert', order: order('A', { seq: 2 }) }],
      want: ['A:10@4'],
    },
    {
      name: 'done, refused and cancelled orders leave the board',
      actions: [
        { type: 'upsert', order: order('A') },
        { type: 'upsert', order: order('B') },
        { type: 'upsert', order: order('C', { state: 1, progress: 40, seq: 7 }) },
        { type: 'upsert', order: order('A', { state: 2, progress: 2, seq: 3 }) },
        { type: 'upsert', order: order('B', { state: 3, progress: 3, seq: 3 }) },
        { type: 'upsert', order: order('C', { state: 8, progress: 50, seq: 8 }) },
      ],
      want: [],
    },
    {
      name: 'a removed order is not brought back by an older copy',
      actions: [
        { type: 'upsert', order: order('A', { state: 2, progress: 2, seq: 3 }) },
        { type: 'upsert', order: order('A', { seq: 2 }) },
      ],
      want: [],
    },
    {
      name: 'an unpaid order never shows',
      actions: [{ type: 'upsert', order: order('A', { state: 5, progress: 99, seq: 1 }) }],
      want: [],
    },
  ];
  it.each(cases)('$name', ({ actions, want }) => {
    expect(cards(run(actions).state)).toEqual(want);
  });
});

describe('queueReducer: order:progress', () => {
  const base = run([{ type: 'upsert', order: order('A', { state: 1, progress: 1, seq: 3, stageSince: 100 }) }]).state;
  const cases: { name: string; event: { orderNo: string; progress: number; state: number; seq: number; at: number }; want: string[]; refetch: boolean }[] = [
    { name: 'the next seq moves the card', event: { orderNo: 'A', progress: 10, state: 1, seq: 4, at: 500 }, want: ['A:10@4'], refetch: false },
    { name: 'a stale seq is ignored', event: { orderNo: 'A', progress: 0, state: 6, seq: 3, at: 500 }, want: ['A:1@3'], refetch: false },
    { name: 'a gap applies the move and asks for the snapshot', event: { orderNo: 'A', progress: 30, state: 1, seq: 6, at: 500 }, want: ['A:30@6'], refetch: true },
    { name: 'completion removes the card', event: { orderNo: 'A', progress: 50, state: 8, seq: 4, at: 500 }, want: [], refetch: false },
    { name: 'an unknown order joining the queue needs the snapshot', event: { orderNo: 'B', progress: 0, state: 6, seq: 2, at: 500 }, want: ['A:1@3'], refetch: true },
    { name: 'an unknown order leaving needs nothing', event: { orderNo: 'B', progress: 3, state: 3, seq: 3, at: 500 }, want: ['A:1@3'], refetch: false },
  ];
  it.each(cases)('$name', ({ event, want, refetch }) => {
    const r = queueReducer(base, { type: 'progress', event });
    expect(cards(r.state)).toEqual(want);
    expect(r.refetch).toBe(refetch);
  });
  it('takes the event time as the start of the stage', () => {
    const r = queueReducer(base, { type: 'progress', event: { orderNo: 'A', progress: 10, state: 1, seq: 4, at: 500 } });
    expect(r.state.orders.A?.stageSince).toBe(500);
  });
  it('an older order:updated after a progress event does not undo it', () => {
    const { state } = run(
      [
        { type: 'progress', event: { orderNo: 'A', progress: 10, state: 1, seq: 4, at: 500 } },
        { type: 'upsert', order: order('A', { state: 1, progress: 1, seq: 3 }) },
      ],
      base,
    );
    expect(cards(state)).toEqual(['A:10@4']);
  });
});

describe('queueReducer: snapshot merge', () => {
  it('fills an empty board', () => {
    const { state } = run([{ type: 'snapshot', orders: [order('A'), order('B', { state: 1, progress: 20, seq: 5 })], askedAt: 0 }]);
    expect(cards(state)).toEqual(['A:0@2', 'B:20@5']);
  });

  it('never duplicates, keeps newer local copies, and drops what left the queue', () => {
    const before = run([
      { type: 'upsert', order: order('A') },
      { type: 'upsert', order: order('B', { state: 1, progress: 20, seq: 6 }) },
      { type: 'upsert', order: order('C', { state: 1, progress: 40, seq: 7 }) },
    ]).state;
    const askedAt = before.rev;
    const { state } = run(
      [
        {
          type: 'snapshot',
          // A moved while offline; B's snapshot copy is older than the card; C is gone (done).
          orders: [order('A', { state: 1, progress: 10, seq: 4 }), order('B', { state: 1, progress: 10, seq: 5 }), order('D')],
          askedAt,
        },
      ],
      before,
    );
    expect(cards(state)).toEqual(['A:10@4', 'B:20@6', 'D:0@2']);
  });

  it('keeps a card that arrived while the snapshot was on its way', () => {
    const asked = EMPTY_QUEUE.rev;
    const { state } = run([
      { type: 'upsert', order: order('NEW') },
      { type: 'snapshot', orders: [order('A')], askedAt: asked },
    ]);
    expect(cards(state)).toEqual(['A:0@2', 'NEW:0@2']);
  });

  it('does not bring back an order removed while the snapshot was on its way', () => {
    const before = run([{ type: 'upsert', order: order('A') }]).state;
    const { state } = run(
      [
        { type: 'upsert', order: order('A', { state: 2, progress: 2, seq: 3 }) },
        { type: 'snapshot', orders: [order('A')], askedAt: before.rev },
      ],
      before,
    );
    expect(cards(state)).toEqual([]);
  });

  it('a removed order stays removed when its old copy arrives after the snapshot', () => {
    const before = run([{ type: 'upsert', order: order('A', { seq: 2 }) }]).state;
    const { state } = run(
      [
        { type: 'snapshot', orders: [], askedAt: before.rev },
        { type: 'upsert', order: order('A', { seq: 2 }) },
      ],
      before,
    );
    expect(cards(state)).toEqual([]);
  });

  it('clear empties the board', () => {
    expect(cards(run([{ type: 'upsert', order: order('A') }, { type: 'clear' }]).state)).toEqual([]);
  });

  it('remembers at most MAX_GONE closed orders, dropping the oldest', () => {
    const actions: QueueAction[] = [];
    for (let i = 0; i < MAX_GONE + 5; i += 1) actions.push({ type: 'upsert', order: order(`G${i}`, { state: 8, progress: 50, seq: 9 }) });
    const { state } = run(actions);
    expect(Object.keys(state.gone)).toHaveLength(MAX_GONE);
    expect(state.gone.G0).toBeUndefined();
    expect(state.gone[`G${MAX_GONE + 4}`]).toBe(9);
  });
});
