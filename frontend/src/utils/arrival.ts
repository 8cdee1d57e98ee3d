/**
 * The one arrival time (issue 22) as words: the server computes it (actors domain/ordering/arrival.rs) for
 * checkout, the status header, the order detail and the tablet; every screen only formats it
 * here, so they all say the same. A booked order shows its booked time and counts down only from
 * the server's `countdownFrom` (two hours before); a delivered one says when it was delivered.
 */
import type { MessageKey, TFunction } from '@/lib/i18n';
import type { Lang } from '@/lib/i18n';
import type { Arrival } from '@/lib/api/types';
import { daysFrom, formatClock, formatDayTime } from './time';

/** "18:30" today, else "明天 18:30" / "Tomorrow 18:30", "11月24日 18:30" / "24 Nov 18:30". */
export function arrivalWhen(at: number, lang: Lang, nowMs: number): string {
  return daysFrom(nowMs, at) === 0 ? formatClock(at) : formatDayTime(at, lang, nowMs);
}

function kindKey(arrival: Arrival, orderType: number): MessageKey {
  const type = orderType === 0 ? 'delivery' : orderType === 2 ? 'dine' : 'pickup';
  switch (arrival.kind) {
    case 'booked':
      return `arrival.booked.${type}`;
    case 'ready':
      return orderType === 2 ? 'arrival.ready.dine' : 'arrival.ready.pickup';
    case 'delivered':
      return 'arrival.delivered';
    case 'completed':
      return 'arrival.completed';
    default:
      return orderType === 0 ? 'order.eta.delivery' : 'order.eta.ready';
  }
}

/** The arrival as one line: "预计 18:30 送达", "预约 明天 19:00 送达", "18:52 已送达". */
export function arrivalText(arrival: Arrival, orderType: number, lang: Lang, nowMs: number, t: TFunction): string {
  return t(kindKey(arrival, orderType), { time: arrivalWhen(arrival.at, lang, nowMs) });
}

/** Whether a countdown to the arrival shows now: a promise (not a fact) from `countdownFrom` on. */
export function arrivalCounting(arrival: Arrival, nowMs: number): boolean {
  if (arrival.kind !== 'estimated' && arrival.kind !== 'booked') return false;
  return arrival.countdownFrom !== null && arrival.countdownFrom !== undefined && nowMs >= arrival.countdownFrom;
}
