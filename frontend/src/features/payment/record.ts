/**
 * The pay-in-progress record (spec ordering §3: money, orderNo, orderId, payInfo, orderType,
 * orderAmount, alreadyPayAmount), kept 30 minutes (§9) from the moment the customer was handed
 * to the provider. While it lives, the app returning to the foreground goes to /order/status
 * (§4 payment flow step 6). GET /payments/in-progress is the server's copy.
 */
import { serverNow } from '@/lib/clock';
import { storage } from '@/lib/storage';

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

/** Whether a record still stands at `now`: younger than 30 minutes and before the provider's deadline. */
export function isRecordLive(record: PayRecord | null | undefined, now: number): record is PayRecord {
  if (!record || typeof record.orderNo !== 'string' || typeof record.savedAt !== 'number') return false;
  if (now - record.savedAt >= PAY_RECORD_TTL_MS) return false;
  return record.expiresAt === null || record.expiresAt === undefined || now < record.expiresAt;
}

/** The live record, or null (an expired one is forgotten). */
export function readPayRecord(now: number = serverNow()): PayRecord | null {
  const record = storage.get<PayRecord>(PAY_RECORD_KEY);
  if (isRecordLive(record, now)) return record;
  if (record) storage.remove(PAY_RECORD_KEY);
  return null;
}
