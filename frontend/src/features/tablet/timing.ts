import type { TabletOrder } from './types';

/** 外送30分钟必达: the promise when an order carries none. */
export const DELIVERY_PROMISE_MS = 30 * 60_000;
/** Under this much time left, a card warns before it is late. */
export const WARN_BEFORE_MS = 5 * 60_000;

export type Lateness = 'ok' | 'soon' | 'late';

/** The promised time of an order: its own, or paid + 30 minutes for a delivery that has none. */
export function promiseOf(order: Pick<TabletOrder, 'promisedBy' | 'paidAt' | 'orderTime' | 'orderType'>): number | null {
  if (order.promisedBy > 0) return order.promisedBy;
  if (order.orderType === 0) return (order.paidAt ?? order.orderTime) + DELIVERY_PROMISE_MS;
  return null;
}

/** late: past the promise; soon: less than 5 minutes left. */
export function latenessOf(promise: number | null, nowMs: number): Lateness {
  if (promise === null) return 'ok';
  if (nowMs > promise) return 'late';
  if (promise - nowMs < WARN_BEFORE_MS) return 'soon';
  return 'ok';
}

/** "4:05", "1:02:03": elapsed time from `fromMs` (never negative: clocks may disagree a little). */
export function formatElapsed(fromMs: number | null, nowMs: number): string {
  if (fromMs === null) return '–';
  const total = Math.max(0, Math.floor((nowMs - fromMs) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Whole minutes to the promise (30 s left reads 1, so "0 min" never shows before it is late), or past it. */
export function minutesTo(promise: number, nowMs: number): number {
  const ms = promise - nowMs;
  return ms >= 0 ? Math.ceil(ms / 60_000) : Math.floor(-ms / 60_000);
}

/** How long the store may still take back a step (server UNDO_WINDOW_MS). */
export const UNDO_WINDOW_MS = 2 * 60_000;

/** A step this tablet made, which it may take back. */
export interface UndoMark {
  /** The progress the order reached by the step. */
  progress: number;
  /** Server ms until which the server accepts the undo. */
  until: number;
}

/**
 * The undo button shows while the window is open and the order still stands where this tablet
 * put it (someone else moving it on makes the undo meaningless, and the server would refuse it).
 */
export function canUndo(mark: UndoMark | undefined, order: Pick<TabletOrder, 'progress'>, nowMs: number): boolean {
  return !!mark && mark.progress === order.progress && nowMs < mark.until;
}

/** The mark for a step just made: the window runs from when the order entered its new stage. */
export function undoMarkFor(order: Pick<TabletOrder, 'progress' | 'stageSince'>): UndoMark | null {
  // Back across acceptance or out of a completed order is refused by the server: no button.
  if (order.progress <= 1 || order.progress >= 50) return null;
  return { progress: order.progress, until: order.stageSince + UNDO_WINDOW_MS };
}
