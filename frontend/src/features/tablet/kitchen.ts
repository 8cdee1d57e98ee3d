/**
 * What the kitchen reads, as plain functions over a card: a line's details (size and crust, the
 * flavours by where they go on the pizza, sauce, extras, toppings taken off, combo items), the
 * order's flags (cash to collect, contactless, invoice, tableware, booked time, desk) and the
 * kitchen ticket. The names come from the server in zh; `t` gives the words around them, so the
 * card follows the tablet's language and the ticket passes zh's.
 */
import type { MessageKey, TFunction } from '@/lib/i18n';
import { formatYuan } from '@/lib/money';
import { dayKey, formatClock } from '@/utils/time';
import type { KitchenComboPart, KitchenLine, TabletOrder } from './types';

export type FlavourLayout = 'whole' | 'halves' | 'quarters' | 'portions';

/** Two flavours are halves of one pizza, four are quarters; any other count is numbered. */
export function flavourLayout(count: number): FlavourLayout {
  if (count <= 1) return 'whole';
  if (count === 2) return 'halves';
  if (count === 4) return 'quarters';
  return 'portions';
}

const HALVES: MessageKey[] = ['tablet.kitchen.half.left', 'tablet.kitchen.half.right'];
// Clockwise from the top left, the way a cook turns the peel.
const QUARTERS: MessageKey[] = ['tablet.kitchen.quarter.1', 'tablet.kitchen.quarter.2', 'tablet.kitchen.quarter.3', 'tablet.kitchen.quarter.4'];

/** Where each flavour goes: 左半 / 右半, 左上 / 右上 / 右下 / 左下, or 口味1, 口味2 … */
export function flavourLabels(count: number, t: TFunction): string[] {
  const layout = flavourLayout(count);
  return Array.from({ length: count }, (_, i) => {
    const key = layout === 'halves' ? HALVES[i] : layout === 'quarters' ? QUARTERS[i] : undefined;
    if (key) return t(key);
    return t('tablet.kitchen.portion', { n: i + 1 });
  });
}

export type DetailKind = 'spec' | 'flavour' | 'sauce' | 'extra' | 'removed' | 'combo';

export interface LineDetail {
  kind: DetailKind;
  text: string;
}

function comboText(part: KitchenComboPart, t: TFunction): string {
  const spec = [part.size, part.crust].filter(Boolean).join(' · ');
  const name = spec ? t('tablet.kitchen.comboSpec', { name: part.name, spec }) : part.name;
  return part.quantity > 1 ? `${name} ×${part.quantity}` : name;
}

/** A line's details in the order a cook works: base, flavours, sauce, toppings, then a combo's items. */
export function lineDetails(line: KitchenLine, t: TFunction): LineDetail[] {
  const out: LineDetail[] = [];
  const spec = [line.size, line.crust].filter(Boolean).join(' · ');
  if (spec) out.push({ kind: 'spec', text: spec });
  const labels = flavourLabels(line.flavours.length, t);
  line.flavours.forEach((f, i) => out.push({ kind: 'flavour', text: line.flavours.length === 1 ? f : t('tablet.kitchen.flavourAt', { where: labels[i] ?? '', name: f }) }));
  if (line.sauce) out.push({ kind: 'sauce', text: t('tablet.kitchen.sauce', { name: line.sauce }) });
  for (const x of line.extras) {
    out.push({ kind: 'extra', text: x.quantity > 1 ? t('tablet.kitchen.extraN', { name: x.name, n: x.quantity }) : t('tablet.kitchen.extra', { name: x.name }) });
  }
  for (const r of line.removed) out.push({ kind: 'removed', text: t('tablet.kitchen.removed', { name: r }) });
  for (const c of line.combo) out.push({ kind: 'combo', text: comboText(c, t) });
  // A line from a server without the kitchen part: its flat options are all there is.
  const structured = line.size || line.crust || line.sauce || line.extras.length || line.removed.length || line.combo.length;
  if (!structured) for (const o of line.options) out.push({ kind: 'spec', text: o });
  return out;
}

export type FlagKind = 'priority' | 'cash' | 'contactless' | 'invoice' | 'tableware' | 'book' | 'desk';

export interface OrderFlag {
  kind: FlagKind;
  text: string;
  /** The invoice's details, when the order has them (the detail and the ticket show them). */
  more?: string[];
}

function bookedText(ms: number, nowMs: number, t: TFunction): string {
  const time = formatClock(ms);
  return dayKey(ms) === dayKey(nowMs) ? t('tablet.flag.book', { time }) : t('tablet.flag.bookDay', { day: dayKey(ms).slice(5), time });
}

/** The flags a clerk must not miss, most urgent first. */
export function orderFlags(order: TabletOrder, t: TFunction, nowMs: number): OrderFlag[] {
  const flags: OrderFlag[] = [];
  // 优先制作: the customer's member level gave it at submit (the server keeps it on the order).
  if (order.priority) flags.push({ kind: 'priority', text: t('tablet.flag.priority') });
  if (order.isBookOrder) flags.push({ kind: 'book', text: bookedText(order.orderTime, nowMs, t) });
  if (order.cashToCollect !== null) flags.push({ kind: 'cash', text: t('tablet.flag.cash', { amount: formatYuan(order.cashToCollect) }) });
  if (order.contactless) flags.push({ kind: 'contactless', text: t('tablet.flag.contactless') });
  if (order.orderType === 2 && order.deskNo) flags.push({ kind: 'desk', text: t('tablet.flag.desk', { desk: order.deskNo }) });
  if (order.invoice) {
    const inv = order.invoice;
    const kind = inv.kind === 'company' || inv.kind === 'personal' ? t(`checkout.invoiceForm.${inv.kind}`) : null;
    const more = [
      kind ? t('tablet.flag.invoiceKind', { text: kind }) : null,
      inv.title ? t('tablet.flag.invoiceTitle', { text: inv.title }) : null,
      inv.taxNo ? t('tablet.flag.invoiceTaxNo', { text: inv.taxNo }) : null,
      inv.email ? t('tablet.flag.invoiceEmail', { text: inv.email }) : null,
    ].filter((x): x is string => x !== null);
    flags.push({ kind: 'invoice', text: t('tablet.flag.invoice'), more });
  }
  flags.push({
    kind: 'tableware',
    text: order.tableware > 0 ? t(order.tableware === 1 ? 'tablet.flag.tableware.one' : 'tablet.flag.tableware.other', { n: order.tableware }) : t('tablet.flag.noTableware'),
  });
  return flags;
}

export interface TicketLine {
  quantity: number;
  name: string;
  details: LineDetail[];
}

/** The kitchen ticket, everything as it prints (the caller passes zh's `t`). */
export interface TicketModel {
  store: string;
  shortNo: string;
  orderNo: string;
  type: string;
  placedAt: string;
  booked: string | null;
  desk: string | null;
  lines: TicketLine[];
  flags: OrderFlag[];
  remark: string | null;
  itemCount: number;
}

export function ticketModel(order: TabletOrder, t: TFunction, nowMs: number, shortNo: string): TicketModel {
  const type = order.orderType === 1 ? 1 : order.orderType === 2 ? 2 : 0;
  return {
    store: order.storeName,
    shortNo,
    orderNo: order.orderNo,
    type: t(`orderType.${type}`),
    placedAt: `${dayKey(order.paidAt ?? order.orderTime)} ${formatClock(order.paidAt ?? order.orderTime)}`,
    booked: order.isBookOrder ? bookedText(order.orderTime, nowMs, t) : null,
    desk: type === 2 && order.deskNo ? order.deskNo : null,
    lines: order.lines.map((l) => ({ quantity: l.quantity, name: l.name, details: lineDetails(l, t) })),
    // Booked time and desk have their own rows on the ticket.
    flags: orderFlags(order, t, nowMs).filter((f) => f.kind !== 'book' && f.kind !== 'desk'),
    remark: order.remark || null,
    itemCount: order.lines.reduce((n, l) => n + l.quantity, 0),
  };
}
