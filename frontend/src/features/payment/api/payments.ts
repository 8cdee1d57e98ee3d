import { apiGet, apiPost } from '@/lib/api';
import type { CreatePaymentInput, PaymentCreated, PaymentInfo, PaymentInProgress } from '@/lib/api/types';

const PAY_TIMEOUT_MS = 20_000;

/**
 * Creates a payment attempt for an unpaid order. The same `Idempotency-Key` with the same body
 * answers the first answer again (a retry after a lost answer creates no second attempt).
 */
export function createPayment(input: CreatePaymentInput, idempotencyKey: string): Promise<PaymentCreated> {
  return apiPost<PaymentCreated>('/payments', input, {
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMs: PAY_TIMEOUT_MS,
  });
}

/** A payment's state; while pending the server asks the provider. */
export function getPayment(paymentId: string, signal?: AbortSignal): Promise<PaymentInfo> {
  return apiGet<PaymentInfo>(`/payments/${encodeURIComponent(paymentId)}`, { signal, timeoutMs: PAY_TIMEOUT_MS });
}

/** The user's pending payment (at most 30 minutes old), or null. */
export function getPaymentInProgress(signal?: AbortSignal): Promise<PaymentInProgress | null> {
  return apiGet<PaymentInProgress | null>('/payments/in-progress', { signal });
}
