/**
 * The new-order alarm as rules: an order awaiting acceptance rings and flashes until someone
 * accepts or refuses it, on this tablet or another. The hook (hooks/useAlarm) only schedules.
 */
import { isActive } from './stages';
import type { TabletOrder } from './types';

/** One beep pattern every 2 s while the alarm rings. */
export const RING_INTERVAL_MS = 2000;

export function isAwaiting(order: Pick<TabletOrder, 'state' | 'progress'>): boolean {
  return order.progress === 0 && isActive(order);
}

/** The cards that flash: every order nobody has accepted or refused yet. */
export function flashingOrders(orders: Iterable<TabletOrder>): Set<string> {
  const out = new Set<string>();
  for (const o of orders) if (isAwaiting(o)) out.add(o.orderNo);
  return out;
}

export function shouldRing(orders: Iterable<TabletOrder>): boolean {
  return flashingOrders(orders).size > 0;
}

/**
 * Whether a beep is due now: at once when the alarm starts (no beep yet), then every interval.
 * `lastRingAt` is null before the first beep of this ringing spell.
 */
export function ringDue(ringing: boolean, lastRingAt: number | null, nowMs: number, intervalMs = RING_INTERVAL_MS): boolean {
  if (!ringing) return false;
  return lastRingAt === null || nowMs - lastRingAt >= intervalMs;
}
