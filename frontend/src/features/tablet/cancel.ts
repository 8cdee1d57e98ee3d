/**
 * The customer-cancel alert as a rule: a customer may cancel only before the store accepts
 * (actors order_machine: from paid 6/0 or cash on delivery 7/0 to 3/3), so an order on this
 * board that turns to state 3 is one the crew may already be making. Whichever event says so
 * first (`order:progress`, `order:updated`, an action's answer) raises the alert; the card then
 * leaves the queue through the reducer as any closed order does.
 */
import type { QueueAction, QueueState } from './queue';
import type { TabletOrder } from './types';

export const CANCELLED_BY_CUSTOMER = 3;

/** The card (as the board showed it) an action reports cancelled by its customer, or null. */
export function customerCancelled(state: QueueState, action: QueueAction): TabletOrder | null {
  if (action.type !== 'upsert' && action.type !== 'progress') return null;
  const next = action.type === 'upsert' ? action.order : action.event;
  if (next.state !== CANCELLED_BY_CUSTOMER) return null;
  const card = state.orders[next.orderNo];
  if (!card || card.state === CANCELLED_BY_CUSTOMER || next.seq <= card.seq) return null;
  return card;
}

/** Adds an alert once per order. */
export function withAlert(alerts: TabletOrder[], order: TabletOrder): TabletOrder[] {
  return alerts.some((a) => a.orderNo === order.orderNo) ? alerts : [...alerts, order];
}
