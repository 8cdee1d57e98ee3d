/**
 * The tablet's side of the server contract (docs/payments-and-orders.md "Tablet"). Kept in the
 * feature: nothing else in the app reads staff data.
 */
import type { Arrival, PriceBreakdown } from '@/lib/api/types';

/** An extra topping and how many of it. */
export interface KitchenExtra {
  name: string;
  quantity: number;
}

/** One item of a combo; a pizza comes with its size and crust. */
export interface KitchenComboPart {
  name: string;
  quantity: number;
  size: string | null;
  crust: string | null;
}

/**
 * An order line as the kitchen reads it, always in the store's language (zh) whatever language
 * the customer ordered in (actors domain/kitchen.rs).
 */
export interface KitchenLine {
  name: string;
  quantity: number;
  /** 0 single, 1 pizza, 2 combo, 7 juice, 9 two-flavour. */
  productType: number;
  size: string | null;
  crust: string | null;
  /** Only a sauce other than the usual one. */
  sauce: string | null;
  /** A multi-flavour pizza's flavours in the order chosen: two are halves, four are quarters. */
  flavours: string[];
  extras: KitchenExtra[];
  /** Base toppings taken off. */
  removed: string[];
  combo: KitchenComboPart[];
  /** Everything but the flavours as short texts (size, crust, 酱, 加, 去, combo items). */
  options: string[];
}

/** The invoice asked for; the details are null until checkout records them. */
export interface InvoiceRequest {
  title: string | null;
  taxNo: string | null;
  email: string | null;
}

/** GET /tablet/orders, and the payload of `order:new` / `order:updated` on "/store". */
export interface TabletOrder {
  orderNo: string;
  state: number;
  progress: number;
  /** 0 delivery, 1 takeaway, 2 dine-in. */
  orderType: number;
  orderTime: number;
  isBookOrder: boolean;
  /** When the order reached the store (paid, or submitted as cash on delivery). */
  paidAt: number | null;
  /** When it entered its current stage. */
  stageSince: number;
  /** One more per transition of this order: the newer copy wins. */
  seq: number;
  orderAmount: number;
  paymentType: string;
  lines: KitchenLine[];
  /** The customer's remark, without the contactless note (that is `contactless`). */
  remark: string;
  contactless: boolean;
  /** Cash on delivery: the yuan the rider collects; null when paid online. */
  cashToCollect: number | null;
  /** Present when the customer asked for an invoice. */
  invoice: InvoiceRequest | null;
  /** The store's name in zh (the ticket's header). */
  storeName: string;
  tableware: number;
  deskNo: string | null;
  receiverName: string;
  /** Already masked by the server (138****5678). */
  receiverMobile: string;
  /** Delivery only. */
  address: string | null;
  /** The promise: the booked time, else submit + the store's delivery or preparation time. */
  promisedBy: number;
  /** The arrival every screen shows, the customer's included (server domain/arrival.rs). */
  arrival: Arrival | null;
  /** The amounts as the customer agreed to them. */
  breakdown: PriceBreakdown;
  /** A closed order: who closed it (customer, store, system), when, and a refusal's reason. */
  closedBy: string | null;
  closedAt: number | null;
  closeNote: string | null;
}

/** GET /tablet/history: today's closed orders, newest first. */
export interface TabletHistoryPage {
  list: TabletOrder[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

/** The answer of accept / refuse / advance / undo. */
export interface TabletMoveReply {
  order: TabletOrder;
  /** Refusing a paid order refunds it: refunded, owed (the server retries it), failed, or null when nothing was due. */
  refund: 'refunded' | 'owed' | 'failed' | null;
}

export interface TabletLoginReply {
  token: string;
  expiresAt: number;
  storeCode: string;
  storeName: string;
  staffName: string;
}

export type StoreStatus = 'open' | 'busy' | 'closed';
export const STORE_STATUSES: readonly StoreStatus[] = ['open', 'busy', 'closed'];

/** GET /tablet/store and the answer of the store's PUT calls. */
export interface StoreBoard {
  storeCode: string;
  storeName: string;
  status: StoreStatus;
  notice: string | null;
  /** Product codes sold out today. */
  soldOut: string[];
  tabletsOnline: number;
  noTabletSince: number | null;
}

/** GET /tablet/products?keyword= */
/** An ingredient or a flavour on the board (GET /tablet/ingredients). */
export interface TabletIngredient {
  code: string;
  kind: 'sauce' | 'base' | 'extra' | 'flavor';
  name: string;
  usedBy: number;
  soldOut: boolean;
}

/** Its key in the board's sold-out list (server store_board::SoldOutItem::key). */
export function ingredientKey(i: Pick<TabletIngredient, 'code' | 'kind'>): string {
  return `${i.kind === 'flavor' ? 'flavor' : 'ingredient'}:${i.code}`;
}

export interface TabletProduct {
  productCode: string;
  name: string;
  categoryName: string;
  imageUrl: string;
  soldOut: boolean;
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
