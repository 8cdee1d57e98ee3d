import { apiGet } from '@/lib/api';
import type { OrderDetail } from '@/types/api';

const ORDER_TIMEOUT_MS = 20_000;

/** The owner's order: lines, amounts, state. */
export function getOrder(orderNo: string, signal?: AbortSignal): Promise<OrderDetail> {
  return apiGet<OrderDetail>(`/orders/${encodeURIComponent(orderNo)}`, { signal, timeoutMs: ORDER_TIMEOUT_MS });
}
