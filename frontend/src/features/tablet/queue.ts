/**
 * The live queue as a pure reducer: every way an order reaches the tablet (the REST snapshot,
 * `order:new`, `order:updated`, `order:progress`, an action's answer) goes through `queueReducer`,
 * so the rules live in one place:
 * - one card per orderNo; a copy with an older or equal `seq` never replaces a newer one;
 * - an order that leaves the active queue (done, refused, cancelled) is removed and remembered
 *   (a tombstone with its seq), so a late, older event cannot bring it back;
 * - a snapshot replaces the board, except for what arrived after the snapshot was asked for.
 */
import { isActive } from './stages';
import type { ProgressEvent, TabletOrder } from './types';

export interface QueueState {
  orders: Record<string, TabletOrder>;
  /** When each card last changed, in `rev` units: a snapshot asked before that knows nothing of it. */
  touched: Record<string, number>;
  /** Orders that left the queue, with the seq that took them out. */
  gone: Record<string, number>;
  /** Counts every change; a snapshot records it when asked for. */
  rev: number;
}

export type QueueAction =
  | { type: 'upsert'; order: TabletOrder }
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'snapshot'; orders: TabletOrder[]; askedAt: number }
  | { type: 'clear' };

export interface QueueResult {
  state: QueueState;
  /** Something happened the tablet cannot show from the event alone: reload the snapshot. */
  refetch: boolean;
}

export const EMPTY_QUEUE: QueueState = { orders: {}, touched: {}, gone: {}, rev: 0 };

/** Tombstones kept: enough for a day's closed orders to stay closed. */
export const MAX_GONE = 500;

function knownSeq(state: QueueState, orderNo: string): number | null {
  const card = state.orders[orderNo];
  if (card) return card.seq;
  const gone = state.gone[orderNo];
  return gone === undefined ? null : gone;
}

/** The record without `key` (a copy: states are never mutated). */
export function omit<V>(record: Record<string, V>, key: string): Record<string, V> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

function withGone(gone: Record<string, number>, orderNo: string, seq: number): Record<string, number> {
  // Re-inserted last: insertion order is age order, and the oldest are dropped past MAX_GONE.
  const entries = Object.entries(omit(gone, orderNo));
  entries.push([orderNo, seq]);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_GONE)));
}

function put(state: QueueState, order: TabletOrder): QueueState {
  const rev = state.rev + 1;
  const no = order.orderNo;
  if (!isActive(order)) {
    return { orders: omit(state.orders, no), touched: omit(state.touched, no), gone: withGone(state.gone, no, order.seq), rev };
  }
  return {
    orders: { ...state.orders, [no]: order },
    touched: { ...state.touched, [no]: rev },
    gone: no in state.gone ? omit(state.gone, no) : state.gone,
    rev,
  };
}

function upsert(state: QueueState, order: TabletOrder): QueueResult {
  const seq = knownSeq(state, order.orderNo);
  if (seq !== null && order.seq <= seq) return { state, refetch: false };
  return { state: put(state, order), refetch: false };
}

function progress(state: QueueState, e: ProgressEvent): QueueResult {
  const seq = knownSeq(state, e.orderNo);
  if (seq !== null && e.seq <= seq) return { state, refetch: false };
  const card = state.orders[e.orderNo];
  if (!card) {
    // An order we never saw: leaving the queue needs nothing; joining it needs its lines.
    const leaving = !isActive(e);
    if (leaving) return { state: { ...state, gone: withGone(state.gone, e.orderNo, e.seq) }, refetch: false };
    return { state, refetch: true };
  }
  const next = put(state, { ...card, progress: e.progress, state: e.state, seq: e.seq, stageSince: e.at });
  // A gap (seq jumped by more than one) may hide a change of the order itself: take the snapshot.
  return { state: next, refetch: e.seq > card.seq + 1 };
}

function snapshot(state: QueueState, list: TabletOrder[], askedAt: number): QueueResult {
  let next: QueueState = { ...state };
  const listed = new Set(list.map((o) => o.orderNo));
  // A card the snapshot does not list has left the queue, unless it changed after the ask.
  for (const orderNo of Object.keys(state.orders)) {
    const changedSince = (state.touched[orderNo] ?? 0) > askedAt;
    if (listed.has(orderNo) || changedSince) continue;
    const seq = next.orders[orderNo]?.seq ?? 0;
    // Remembered at the seq shown, so a late copy of that same state does not bring it back.
    next = {
      orders: omit(next.orders, orderNo),
      touched: omit(next.touched, orderNo),
      gone: withGone(next.gone, orderNo, seq),
      rev: next.rev + 1,
    };
  }
  for (const order of list) next = upsert(next, order).state;
  return { state: next, refetch: false };
}

export function queueReducer(state: QueueState, action: QueueAction): QueueResult {
  switch (action.type) {
    case 'upsert':
      return upsert(state, action.order);
    case 'progress':
      return progress(state, action.event);
    case 'snapshot':
      return snapshot(state, action.orders, action.askedAt);
    case 'clear':
      return { state: EMPTY_QUEUE, refetch: false };
  }
}

/** The active cards. */
export function queueOrders(state: QueueState): TabletOrder[] {
  return Object.values(state.orders);
}
