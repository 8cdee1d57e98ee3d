import type { MessageKey } from '@/lib/i18n';
import { stageLabelKey as sharedStageLabelKey } from '@/lib/stages';
import type { TabletOrder } from './types';

/**
 * The queue's columns and what a progress code means on the tablet (actors order_machine):
 * 0 awaiting acceptance, 1 accepted, 10 making (4 is the spec's other code for it), 20 oven,
 * 30 quality check, 40 dispatch or ready, 50 done, 2 refused, 3 cancelled.
 */
export type ColumnId = 'new' | 'making' | 'oven' | 'check' | 'ready';
export const COLUMNS: readonly ColumnId[] = ['new', 'making', 'oven', 'check', 'ready'];

/** Display states that close an order whatever its progress says (cancelled variants, completed). */
const CLOSED_STATES = new Set([2, 3, 8, 9, 10, 11]);

/**
 * The column of a progress code, or null when the order has left the active queue. Accepted (1)
 * sits in "making": the crew's next move on it is to start making it, and a column of orders
 * nobody has touched yet would only split the line they work from.
 */
export function columnOf(progress: number): ColumnId | null {
  switch (progress) {
    case 0:
      return 'new';
    case 1:
    case 4:
    case 10:
      return 'making';
    case 20:
      return 'oven';
    case 30:
      return 'check';
    case 40:
      return 'ready';
    default:
      return null;
  }
}

/** Whether the order belongs on the board (not done, refused, cancelled or unpaid). */
export function isActive(order: Pick<TabletOrder, 'state' | 'progress'>): boolean {
  return !CLOSED_STATES.has(order.state) && columnOf(order.progress) !== null;
}

/** The column heading; "ready" reads by order type, so the heading is the generic one. */
export function columnTitleKey(column: ColumnId): MessageKey {
  return `tablet.column.${column}`;
}

/** What a card in the ready column waits for, in the stage's own words (lib/stages): 配送中 / 待取餐 / 待上餐. */
export function readyLabelKey(orderType: number): MessageKey {
  return sharedStageLabelKey(40, orderType);
}

/** The words of the one "next" button, by the stage the card shows (null: no advance there). */
export function advanceLabelKey(progress: number, orderType: number): MessageKey | null {
  switch (progress) {
    case 1:
      return 'tablet.advance.make';
    case 4:
    case 10:
      return 'tablet.advance.oven';
    case 20:
      return 'tablet.advance.check';
    case 30:
      return 'tablet.advance.ready';
    case 40:
      return orderType === 0 ? 'tablet.advance.done.0' : orderType === 2 ? 'tablet.advance.done.2' : 'tablet.advance.done.1';
    default:
      return null;
  }
}

/**
 * The stage an order is in, in words (the card's badge in the "making" column tells 1 from 10):
 * the same names the customer reads (lib/stages); an order off the board has left the queue.
 */
export function stageLabelKey(progress: number, orderType: number): MessageKey {
  return columnOf(progress) === null ? 'tablet.stage.gone' : sharedStageLabelKey(progress, orderType);
}

/** The short order number the crew calls out: the last four digits. */
export function shortOrderNo(orderNo: string): string {
  return orderNo.length > 4 ? orderNo.slice(-4) : orderNo;
}

/**
 * The queue's order within a column, as the server's queue: priority orders (优先制作, a member
 * privilege kept on the order) first, then the order that reached the store first.
 */
export function byArrival(a: TabletOrder, b: TabletOrder): number {
  if (a.priority !== b.priority) return a.priority ? -1 : 1;
  const ta = a.paidAt ?? a.orderTime;
  const tb = b.paidAt ?? b.orderTime;
  return ta - tb || a.orderNo.localeCompare(b.orderNo);
}

/** The active orders of each column: priority orders first, then oldest first. */
export function columnsOf(orders: Iterable<TabletOrder>): Record<ColumnId, TabletOrder[]> {
  const out: Record<ColumnId, TabletOrder[]> = { new: [], making: [], oven: [], check: [], ready: [] };
  for (const o of orders) {
    const col = isActive(o) ? columnOf(o.progress) : null;
    if (col) out[col].push(o);
  }
  for (const col of COLUMNS) out[col].sort(byArrival);
  return out;
}
