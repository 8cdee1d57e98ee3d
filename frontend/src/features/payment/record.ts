/**
 * The pay-in-progress record (spec ordering §3: money, orderNo, orderId, payInfo, orderType,
 * orderAmount, alreadyPayAmount), kept 30 minutes (§9) from the moment the customer was handed
 * to the provider. While it lives, the app returning to the foreground goes to /order/status
 * (§4 payment flow step 6). GET /payments/in-progress is the server's copy.
 */
import { serverNow } from '@/lib/clock';
import { storage } from '@/lib/storage';
import type { PaymentCreated, PaymentInProgress } from '@/lib/api/types';

export const PAY_RECORD_KEY = 'pay:inProgress';
/** Spec ordering §9: pay-in-progress record 30 min. */
export const PAY_RECORD_TTL_MS = 30 * 60_000;
/** Spec ordering §9: page-return redirect to status while paying, 500 ms. */
export const PAY_RESUME_DELAY_MS = 500;

export interface PayRecord {
  /** What is to pay, yuan. */
  money: number;
  orderNo: string;
  orderId: number;
  payInfo: unknown;
  orderType: number;
  orderAmount: number;
  alreadyPayAmount: number;
  paymentId: string | null;
  method: string;
  /** Server epoch ms the record was made. */
  savedAt: number;
  /** The provider's deadline, when known (server epoch ms). */
  expiresAt: number | null;
}

/** The record of a payment just created (`now` on the server clock). */
export function recordOfCreated(p: PaymentCreated, now: number): PayRecord {
  return {
    money: p.payAmount,
    orderNo: p.orderNo,
    orderId: p.orderId,
    payInfo: p.payInfo ?? p.tn ?? p.signInfo ?? null,
    orderType: p.orderType,
    orderAmount: p.orderAmount,
    alreadyPayAmount: p.alreadyPayAmount,
    paymentId: p.paymentId,
    method: p.method,
    savedAt: now,
    expiresAt: p.expiresAt,
  };
}

/** The record of the server's copy (GET /payments/in-progress). */
export function recordOfServer(p: PaymentInProgress, now: number): PayRecord {
  return {
    money: p.money,
    orderNo: p.orderNo,
    orderId: p.orderId,
    payInfo: p.payInfo,
    orderType: p.orderType,
    orderAmount: p.orderAmount,
    alreadyPayAmount: p.alreadyPayAmount,
    paymentId: p.paymentId,
    method: p.method,
    savedAt: Math.min(now, p.expiresAt - PAY_RECORD_TTL_MS),
    expiresAt: p.expiresAt,
  };
}

/** Whether a record still stands at `now`: younger than 30 minutes and before the provider's deadline. */
export function isRecordLive(record: PayRecord | null | undefined, now: number): record is PayRecord {
  if (!record || typeof record.orderNo !== 'string' || typeof record.savedAt !== 'number') return false;
  if (now - record.savedAt >= PAY_RECORD_TTL_MS) return false;
  return record.expiresAt === null || record.expiresAt === undefined || now < record.expiresAt;
}

export function savePayRecord(record: PayRecord, now: number = serverNow()): void {
  const leftMs = Math.min(record.savedAt + PAY_RECORD_TTL_MS, record.expiresAt ?? Infinity) - now;
  if (leftMs <= 0) return;
  storage.set(PAY_RECORD_KEY, record, Math.ceil(leftMs / 1000));
}

/** The live record, or null (an expired one is forgotten). */
export function readPayRecord(now: number = serverNow()): PayRecord | null {
  const record = storage.get<PayRecord>(PAY_RECORD_KEY);
  if (isRecordLive(record, now)) return record;
  if (record) storage.remove(PAY_RECORD_KEY);
  return null;
}

/** Forgets the record (only if it is this order's, when `orderNo` is given). */
export function clearPayRecord(orderNo?: string): void {
  const record = storage.get<PayRecord>(PAY_RECORD_KEY);
  if (!record) return;
  if (orderNo === undefined || record.orderNo === orderNo) storage.remove(PAY_RECORD_KEY);
}
