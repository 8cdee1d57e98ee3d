/**
 * Socket payloads are typed `unknown` by lib/socket: these read them defensively, so a malformed
 * event is dropped instead of putting a broken card on the board.
 */
import type { Arrival, BreakdownDiscount, BreakdownLine, PriceBreakdown } from '@/lib/api/types';
import { STORE_STATUSES, type InvoiceRequest, type KitchenComboPart, type KitchenExtra, type KitchenLine, type ProgressEvent, type StorePresence, type StoreStatus, type StoreUpdate, type TabletHistoryPage, type TabletOrder } from './types';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

const ARRIVAL_KINDS: readonly Arrival['kind'][] = ['estimated', 'booked', 'ready', 'delivered', 'completed'];

/** The server's arrival of a card (null when absent or not understood). */
function arrivalOf(v: unknown): Arrival | null {
  if (!isObj(v)) return null;
  const at = num(v.at);
  const kind = ARRIVAL_KINDS.find((k) => k === v.kind);
  if (at === null || !kind) return null;
  return { kind, at, countdownFrom: num(v.countdownFrom) };
}

function extra(v: unknown): KitchenExtra | null {
  return isObj(v) && typeof v.name === 'string' ? { name: v.name, quantity: num(v.quantity) ?? 1 } : null;
}

function comboPart(v: unknown): KitchenComboPart | null {
  return isObj(v) && typeof v.name === 'string' ? { name: v.name, quantity: num(v.quantity) ?? 1, size: text(v.size), crust: text(v.crust) } : null;
}

function list<T>(v: unknown, item: (x: unknown) => T | null): T[] {
  return Array.isArray(v) ? v.map(item).filter((x): x is T => x !== null) : [];
}

function line(v: unknown): KitchenLine | null {
  if (!isObj(v)) return null;
  return {
    name: str(v.name),
    quantity: num(v.quantity) ?? 1,
    productType: num(v.productType) ?? 0,
    size: text(v.size),
    crust: text(v.crust),
    sauce: text(v.sauce),
    // `halves`: what a server before the kitchen part called the flavours.
    flavours: strs(v.flavours ?? v.halves),
    extras: list(v.extras, extra),
    removed: strs(v.removed),
    combo: list(v.combo, comboPart),
    options: strs(v.options),
  };
}

function invoice(v: unknown): InvoiceRequest | null {
  if (!isObj(v)) return null;
  return { kind: text(v.kind), title: text(v.title), taxNo: text(v.taxNo), email: text(v.email) };
}

function breakdownLine(v: unknown): BreakdownLine | null {
  if (!isObj(v)) return null;
  return {
    lineId: str(v.lineId),
    productCode: str(v.productCode),
    nameCn: str(v.nameCn),
    nameEn: str(v.nameEn),
    specCn: str(v.specCn),
    specEn: str(v.specEn),
    unitPrice: num(v.unitPrice) ?? 0,
    quantity: num(v.quantity) ?? 1,
    amount: num(v.amount) ?? 0,
  };
}

function breakdownDiscount(v: unknown): BreakdownDiscount | null {
  if (!isObj(v) || typeof v.ruleId !== 'string') return null;
  return {
    ruleId: v.ruleId,
    nameCn: str(v.nameCn),
    nameEn: str(v.nameEn),
    ruleType: str(v.ruleType),
    level: v.level === 'order' ? 'order' : 'line',
    amount: num(v.amount) ?? 0,
    lineIds: strs(v.lineIds),
    // A coupon's entry names the coupon (issue 24).
    couponCode: typeof v.couponCode === 'string' ? v.couponCode : null,
  };
}

/** The order's breakdown; without one (a malformed payload), just the amount, which adds up. */
function parseBreakdown(v: unknown, orderAmount: number): PriceBreakdown {
  if (!isObj(v) || num(v.payable) === null) {
    return { lines: [], discounts: [], productAmount: orderAmount, discountAmount: 0, deliveryFee: 0, deliveryFeeWaived: 0, pointsUsed: 0, pointsDeduction: 0, couponAmount: 0, couponDeliveryWaived: 0, payable: orderAmount };
  }
  return {
    lines: Array.isArray(v.lines) ? v.lines.map(breakdownLine).filter((l): l is BreakdownLine => l !== null) : [],
    discounts: Array.isArray(v.discounts) ? v.discounts.map(breakdownDiscount).filter((d): d is BreakdownDiscount => d !== null) : [],
    productAmount: num(v.productAmount) ?? 0,
    discountAmount: num(v.discountAmount) ?? 0,
    deliveryFee: num(v.deliveryFee) ?? 0,
    deliveryFeeWaived: num(v.deliveryFeeWaived) ?? 0,
    pointsUsed: num(v.pointsUsed) ?? 0,
    pointsDeduction: num(v.pointsDeduction) ?? 0,
    couponAmount: num(v.couponAmount) ?? 0,
    couponDeliveryWaived: num(v.couponDeliveryWaived) ?? 0,
    payable: num(v.payable) ?? orderAmount,
  };
}

export function parseOrder(v: unknown): TabletOrder | null {
  if (!isObj(v) || typeof v.orderNo !== 'string' || !v.orderNo) return null;
  const seq = num(v.seq);
  const progress = num(v.progress);
  const state = num(v.state);
  if (seq === null || progress === null || state === null) return null;
  const orderTime = num(v.orderTime) ?? 0;
  const orderAmount = num(v.orderAmount) ?? 0;
  return {
    orderNo: v.orderNo,
    state,
    progress,
    orderType: num(v.orderType) ?? 0,
    orderTime,
    isBookOrder: v.isBookOrder === true,
    paidAt: num(v.paidAt),
    stageSince: num(v.stageSince) ?? orderTime,
    seq,
    orderAmount,
    paymentType: str(v.paymentType),
    lines: Array.isArray(v.lines) ? v.lines.map(line).filter((l): l is KitchenLine => l !== null) : [],
    remark: str(v.remark),
    contactless: v.contactless === true,
    cashToCollect: num(v.cashToCollect),
    invoice: invoice(v.invoice),
    storeName: str(v.storeName),
    tableware: num(v.tableware) ?? 0,
    deskNo: typeof v.deskNo === 'string' && v.deskNo ? v.deskNo : null,
    receiverName: str(v.receiverName),
    receiverMobile: str(v.receiverMobile),
    address: typeof v.address === 'string' && v.address ? v.address : null,
    promisedBy: num(v.promisedBy) ?? 0,
    arrival: arrivalOf(v.arrival),
    breakdown: parseBreakdown(v.breakdown, orderAmount),
    closedBy: text(v.closedBy),
    closedAt: num(v.closedAt),
    closeNote: text(v.closeNote),
    priority: v.priority === true,
  };
}

export function parseOrders(v: unknown): TabletOrder[] {
  return Array.isArray(v) ? v.map(parseOrder).filter((o): o is TabletOrder => o !== null) : [];
}

export function parseHistory(v: unknown): TabletHistoryPage {
  const o = isObj(v) ? v : {};
  return {
    list: parseOrders(o.list),
    page: num(o.page) ?? 1,
    pageSize: num(o.pageSize) ?? 20,
    total: num(o.total) ?? 0,
    hasMore: o.hasMore === true,
  };
}

export function parseProgress(v: unknown): ProgressEvent | null {
  if (!isObj(v) || typeof v.orderNo !== 'string') return null;
  const progress = num(v.progress);
  const state = num(v.state);
  const seq = num(v.seq);
  if (progress === null || state === null || seq === null) return null;
  return { orderNo: v.orderNo, progress, state, seq, at: num(v.at) ?? Date.now() };
}

export function isStoreStatus(v: unknown): v is StoreStatus {
  return typeof v === 'string' && (STORE_STATUSES as readonly string[]).includes(v);
}

export function parseStoreUpdate(v: unknown): StoreUpdate | null {
  if (!isObj(v) || typeof v.storeCode !== 'string') return null;
  return { storeCode: v.storeCode, status: str(v.status), notice: typeof v.notice === 'string' ? v.notice : null, soldOut: strs(v.soldOut) };
}

export function parsePresence(v: unknown): StorePresence | null {
  if (!isObj(v) || typeof v.storeCode !== 'string') return null;
  const online = num(v.tabletsOnline);
  if (online === null) return null;
  return { storeCode: v.storeCode, tabletsOnline: online, noTabletSince: num(v.noTabletSince) };
}
