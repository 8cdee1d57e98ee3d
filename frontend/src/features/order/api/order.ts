import { apiGet, apiPost } from '@/lib/api';
import { getLang } from '@/lib/i18n';
import { emitWithAck } from '@/lib/socket';
import type { OrderDetail, OrderPage, ReorderReply } from '@/lib/api/types';
import type { OrderListFilter } from '@/lib/orders';

/** Spec ordering §9: order list (and detail) 20 s. */
const ORDER_TIMEOUT_MS = 20_000;
const WATCH_ACK_TIMEOUT_MS = 5000;

const path = (orderNo: string) => `/orders/${encodeURIComponent(orderNo)}`;

/** The order: the owner's token, or `viewToken` for anyone holding the order's view token. */
export function getOrder(orderNo: string, signal?: AbortSignal, viewToken?: string | null): Promise<OrderDetail> {
  return apiGet<OrderDetail>(path(orderNo), { signal, timeoutMs: ORDER_TIMEOUT_MS, query: { viewToken } });
}

/** The user's orders by filter (or a state code), 10 a page, newest first. */
export function listOrders(state: OrderListFilter | number, page: number, signal?: AbortSignal): Promise<OrderPage> {
  return apiGet<OrderPage>('/orders', { signal, timeoutMs: ORDER_TIMEOUT_MS, query: { state, page } });
}

/** The customer cancels before the store accepted (a paid order is refunded). Answers the order. */
export function cancelOrder(orderNo: string, reason?: string): Promise<OrderDetail> {
  return apiPost<OrderDetail>(`${path(orderNo)}/cancel`, reason ? { reason } : {}, { timeoutMs: ORDER_TIMEOUT_MS });
}

/** Retries the refund of a cancelled or refused paid order (errCode 01: the provider refused it). */
export function refundOrder(orderNo: string): Promise<unknown> {
  return apiPost<unknown>(`${path(orderNo)}/refund`, {}, { timeoutMs: ORDER_TIMEOUT_MS });
}

/** One more order: the order's products back in the cart (those that cannot be: `skipped`). */
export function reorder(orderNo: string): Promise<ReorderReply> {
  return apiPost<ReorderReply>(`${path(orderNo)}/reorder`, {}, { timeoutMs: ORDER_TIMEOUT_MS });
}

/** A completed order's comment (once). */
export function commentOrder(orderNo: string, comment: { rating: number; text: string }): Promise<unknown> {
  return apiPost<unknown>(`${path(orderNo)}/comment`, comment);
}

export interface WatchAck {
  errCode: string;
  errMsg?: string;
  order?: OrderDetail;
}

/**
 * `order:watch` over "/": joins the order's room and answers the snapshot, in the app's language
 * now (`lang`, as Accept-Language is on every REST call: the socket's handshake may be older than
 * a language switch).
 */
export function watchOrder(orderNo: string, viewToken?: string | null): Promise<WatchAck> {
  const lang = getLang();
  return emitWithAck<WatchAck>('/', 'order:watch', viewToken ? { orderNo, viewToken, lang } : { orderNo, lang }, WATCH_ACK_TIMEOUT_MS);
}
