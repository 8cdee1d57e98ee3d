/**
 * The tablet's side of the server contract (docs/payments-and-orders.md "Tablet"). Kept in the
 * feature: nothing else in the app reads staff data.
 */
import type { PriceBreakdown } from '@/lib/api/types';

/** An order line as the kitchen reads it. */
export interface KitchenLine {
  name: string;
  quantity: number;
  /** Size, crust, sauce, extras, removed toppings, combo choices. */
  options: string[];
  /** The flavours of a half-and-half or multi-flavour pizza. */
  halves: string[];
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
  remark: string;
  tableware: number;
  deskNo: string | null;
  receiverName: string;
  /** Already masked by the server (138****5678). */
  receiverMobile: string;
  /** Delivery only. */
  address: string | null;
  /** The promise: the booked time, else submit + the store's delivery or preparation time. */
  promisedBy: number;
  /** The amounts as the customer agreed to them. */
  breakdown: PriceBreakdown;
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
