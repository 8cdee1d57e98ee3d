/**
 * The tablet's REST calls. Each one sends the staff token itself (the api client's global token
 * is the customer's, and customer endpoints answer 407 to a staff token, so the two never mix).
 * A 401 / 407 here means the staff session is gone: the session store forgets it, and the
 * screen goes back to its login.
 */
import { apiGet, apiPost, apiPut, isApiError, type RequestOptions } from '@/lib/api';
import { parseHistory, parseOrder, parseOrders } from '../parse';
import { staffToken, useTabletSession } from '../store/session';
import type { StoreBoard, StoreStatus, TabletHistoryPage, TabletIngredient, TabletLoginReply, TabletMoveReply, TabletOrder, TabletProduct } from '../types';

function staff(opts: RequestOptions = {}): RequestOptions {
  const token = staffToken();
  return { ...opts, headers: { ...opts.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } };
}

async function guarded<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (isApiError(e) && e.isAuth && staffToken()) useTabletSession.getState().expire();
    throw e;
  }
}

const orderPath = (orderNo: string, action: string) => `/tablet/orders/${encodeURIComponent(orderNo)}/${action}`;

export function login(body: { storeCode: string; staffCode: string; pin: string }): Promise<TabletLoginReply> {
  return apiPost<TabletLoginReply>('/tablet/login', body);
}

/** Ends the session on the server; the tablet forgets it whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await apiPost<unknown>('/tablet/logout', {}, staff({ timeoutMs: 5000 }));
  } catch {
    // Already gone, or offline: the token is forgotten here anyway.
  }
}

export async function fetchQueue(signal?: AbortSignal): Promise<TabletOrder[]> {
  return parseOrders(await guarded(apiGet<unknown>('/tablet/orders', staff({ query: { scope: 'active' }, signal }))));
}

async function move(orderNo: string, action: string, body: unknown): Promise<TabletMoveReply> {
  const reply = await guarded(apiPost<{ order: unknown; refund?: TabletMoveReply['refund'] }>(orderPath(orderNo, action), body, staff()));
  const order = parseOrder(reply?.order);
  if (!order) throw new Error('tablet move answered no order');
  return { order, refund: reply.refund ?? null };
}

export const acceptOrder = (orderNo: string) => move(orderNo, 'accept', {});
export const refuseOrder = (orderNo: string, reason: string) => move(orderNo, 'refuse', { reason });
/** `from`: the progress the card showed; a stale one is 409 (someone else moved the order). */
export const advanceOrder = (orderNo: string, from: number) => move(orderNo, 'advance', { from });
export const undoOrder = (orderNo: string, from: number) => move(orderNo, 'undo', { from });

export function fetchStore(signal?: AbortSignal): Promise<StoreBoard> {
  return guarded(apiGet<StoreBoard>('/tablet/store', staff({ signal })));
}

export function setStoreStatus(status: StoreStatus, notice: string | null): Promise<StoreBoard> {
  return guarded(apiPut<StoreBoard>('/tablet/store/status', { status, notice }, staff()));
}

export function fetchProducts(keyword: string, signal?: AbortSignal): Promise<TabletProduct[]> {
  return guarded(apiGet<TabletProduct[]>('/tablet/products', staff({ query: { keyword: keyword.trim() }, signal })));
}

export function setSoldOut(productCode: string, soldOut: boolean): Promise<StoreBoard> {
  return guarded(apiPut<StoreBoard>(`/tablet/products/${encodeURIComponent(productCode)}/availability`, { soldOut }, staff()));
}

/** The ingredients (sauces, base and extra toppings) and flavours staff can mark sold out. */
export function fetchIngredients(signal?: AbortSignal): Promise<TabletIngredient[]> {
  return guarded(apiGet<TabletIngredient[]>('/tablet/ingredients', staff({ signal })));
}

/** An ingredient or flavour out ("86") or back, wherever the menu uses it (issue 22). */
export function setIngredientSoldOut(code: string, soldOut: boolean): Promise<StoreBoard> {
  return guarded(apiPut<StoreBoard>(`/tablet/ingredients/${encodeURIComponent(code)}/availability`, { soldOut }, staff()));
}

/** Today's closed orders of the store, newest first; `keyword`: order number, phone tail, table. */
export async function fetchHistory(keyword: string, page: number, signal?: AbortSignal): Promise<TabletHistoryPage> {
  const query: Record<string, string> = { page: String(page), pageSize: '20' };
  if (keyword.trim()) query.keyword = keyword.trim();
  return parseHistory(await guarded(apiGet<unknown>('/tablet/history', staff({ query, signal }))));
}
