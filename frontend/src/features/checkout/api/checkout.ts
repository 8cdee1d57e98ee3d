import { apiGet, apiPost } from '@/lib/api';
import type { OrderSubmit, OrderSubmitReply, ReservationSlots } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';

const SUBMIT_TIMEOUT_MS = 20_000;

/** The booking days and their 15-minute slots; `days` is empty when the store takes no bookings. */
export function getReservationSlots(storeCode: string, orderType: OrderType, signal?: AbortSignal): Promise<ReservationSlots> {
  return apiGet<ReservationSlots>('/orders/reservation/slots', { query: { storeCode, orderType }, signal });
}

/**
 * Places the order. The same `Idempotency-Key` with the same body within 24 h answers the first
 * answer again (a retry after a lost answer creates nothing twice).
 */
export function submitOrder(order: OrderSubmit, idempotencyKey: string): Promise<OrderSubmitReply> {
  return apiPost<OrderSubmitReply>('/orders', order, {
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMs: SUBMIT_TIMEOUT_MS,
  });
}
