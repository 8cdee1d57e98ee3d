/**
 * The tablet's side of the server contract (docs/payments-and-orders.md "Tablet"). The REST
 * shapes are the server's OpenAPI schemas (generated into lib/api/schema.gen.ts); the Socket.IO
 * payloads below are the socket contract (API.md "Socket.IO"), which OpenAPI does not describe.
 * Kept in the feature: nothing else in the app reads staff data.
 */
import type { components } from '@/lib/api/schema.gen';

type Schemas = components['schemas'];

/** An extra topping and how many of it. */
export type KitchenExtra = Schemas['KitchenExtra'];
/** One item of a combo; a pizza comes with its size and crust. */
export type KitchenComboPart = Schemas['KitchenComboPart'];
/**
 * An order line as the kitchen reads it, always in the store's language (zh) whatever language
 * the customer ordered in (actors domain/ordering/kitchen.rs).
 */
export type KitchenLine = Schemas['KitchenLine'];
/** The invoice asked for; the details are null until checkout records them. */
export type InvoiceRequest = Schemas['InvoiceView'];
/** GET /tablet/orders, and the payload of `order:new` / `order:updated` on "/store". */
export type TabletOrder = Schemas['TabletOrder'];
/** GET /tablet/history: today's closed orders, newest first. */
export type TabletHistoryPage = Schemas['TabletHistoryDto'];
/** The answer of accept / refuse / advance / undo. */
export type TabletMoveReply = Schemas['TabletMoveDto'];
export type TabletLoginReply = Schemas['TabletLoginDto'];
export type StoreStatus = Schemas['StoreStatus'];
export const STORE_STATUSES: readonly StoreStatus[] = ['open', 'busy', 'closed'];
/** GET /tablet/store and the answer of the store's PUT calls. */
export type StoreBoard = Schemas['StoreBoardDto'];
/** GET /tablet/products?keyword= */
export type TabletProduct = Schemas['BoardProductDto'];
/** An ingredient or a flavour on the board (GET /tablet/ingredients). */
export type TabletIngredient = Schemas['BoardIngredientDto'];

/** Its key in the board's sold-out list (server store_board::SoldOutItem::key). */
export function ingredientKey(i: Pick<TabletIngredient, 'code' | 'kind'>): string {
  return `${i.kind === 'flavor' ? 'flavor' : 'ingredient'}:${i.code}`;
}

/** `order:progress` on "/store". */
export interface ProgressEvent {
  orderNo: string;
  progress: number;
  state: number;
  at: number;
  seq: number;
}

/** `store:update` on "/store". */
/** `store:presence`: how many of the store's tablets are online now (across nodes). */
export interface StorePresence {
  storeCode: string;
  tabletsOnline: number;
  noTabletSince: number | null;
}

export interface StoreUpdate {
  storeCode: string;
  status: string;
  notice: string | null;
  soldOut: string[];
}
