import type { MessageKey } from '@/lib/i18n';

/**
 * The order list display labels of spec ordering §4: 0 unconfirmed, 1 accepted, 2/3/9/10/11
 * cancelled, 4 payment failed, 5 unpaid, 6 paid, 7 cash on delivery, 8 completed.
 */
export function orderStateLabel(state: number): MessageKey {
  switch (state) {
    case 0:
      return 'order.state.0';
    case 1:
      return 'order.state.1';
    case 2:
    case 3:
    case 9:
    case 10:
    case 11:
      return 'order.state.cancelled';
    case 4:
      return 'order.state.4';
    case 5:
      return 'order.state.5';
    case 6:
      return 'order.state.6';
    case 7:
      return 'order.state.7';
    case 8:
      return 'order.state.8';
    default:
      return 'order.state.unknown';
  }
}

/** The tone of the state badge. */
export function orderStateTone(state: number): 'warn' | 'ok' | 'muted' | 'info' {
  if (state === 5 || state === 4) return 'warn';
  if (state === 6 || state === 8 || state === 1) return 'ok';
  if ([2, 3, 9, 10, 11].includes(state)) return 'muted';
  return 'info';
}

/** The tracker's words for a step: the app's one list of stage names (lib/stages), shared with the tablet. */
export { stageLabelKey as stepLabelKey } from '@/lib/stages';

/** The list filters of GET /orders?state=. */
export const ORDER_FILTERS = ['all', 'unpaid', 'active', 'completed', 'cancelled'] as const;

/** Closed states: cancelled variants (2, 3, 9, 10, 11) and completed (8). */
export function isClosedState(state: number): boolean {
  return state === 8 || [2, 3, 9, 10, 11].includes(state);
}

export function isCancelledState(state: number): boolean {
  return [2, 3, 9, 10, 11].includes(state);
}

/** Unpaid online orders (5 unpaid, 4 payment failed): the customer may pay. */
export function isUnpaidState(state: number): boolean {
  return state === 5 || state === 4;
}
