/**
 * The pay-in-progress record's writers (record.ts has the reader, which the app's layout needs on
 * every page; these only the pages that pay, so they stay out of the home page's first load).
 */
import { serverNow } from '@/lib/clock';
import { storage } from '@/lib/storage';
import type { PaymentCreated, PaymentInProgress } from '@/lib/api/types';
import { PAY_RECORD_KEY, PAY_RECORD_TTL_MS, type PayRecord } from './record';

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

export function savePayRecord(record: PayRecord, now: number = serverNow()): void {
  const leftMs = Math.min(record.savedAt + PAY_RECORD_TTL_MS, record.expiresAt ?? Infinity) - now;
  if (leftMs <= 0) return;
  storage.set(PAY_RECORD_KEY, record, Math.ceil(leftMs / 1000));
}

/** Forgets the record (only if it is this order's, when `orderNo` is given). */
export function clearPayRecord(orderNo?: string): void {
  const record = storage.get<PayRecord>(PAY_RECORD_KEY);
  if (!record) return;
  if (orderNo === undefined || record.orderNo === orderNo) storage.remove(PAY_RECORD_KEY);
}
