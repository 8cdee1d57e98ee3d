/**
 * Socket payloads are typed `unknown` by lib/socket: these read them defensively, so a malformed
 * event is dropped instead of putting a broken card on the board.
 */
import { STORE_STATUSES, type KitchenLine, type ProgressEvent, type StorePresence, type StoreStatus, type StoreUpdate, type TabletOrder } from './types';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function line(v: unknown): KitchenLine | null {
  if (!isObj(v)) return null;
  return { name: str(v.name), quantity: num(v.quantity) ?? 1, options: strs(v.options), halves: strs(v.halves) };
}

export function parseOrder(v: unknown): TabletOrder | null {
  if (!isObj(v) || typeof v.orderNo !== 'string' || !v.orderNo) return null;
  const seq = num(v.seq);
  const progress = num(v.progress);
  const state = num(v.state);
  if (seq === null || progress === null || state === null) return null;
  const orderTime = num(v.orderTime) ?? 0;
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
    orderAmount: num(v.orderAmount) ?? 0,
    paymentType: str(v.paymentType),
    lines: Array.isArray(v.lines) ? v.lines.map(line).filter((l): l is KitchenLine => l !== null) : [],
    remark: str(v.remark),
    tableware: num(v.tableware) ?? 0,
    deskNo: typeof v.deskNo === 'string' && v.deskNo ? v.deskNo : null,
    receiverName: str(v.receiverName),
    receiverMobile: str(v.receiverMobile),
    address: typeof v.address === 'string' && v.address ? v.address : null,
    promisedBy: num(v.promisedBy) ?? 0,
  };
}

export function parseOrders(v: unknown): TabletOrder[] {
  return Array.isArray(v) ? v.map(parseOrder).filter((o): o is TabletOrder => o !== null) : [];
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
