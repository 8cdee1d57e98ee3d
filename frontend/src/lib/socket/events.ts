/** The Socket.IO contract of design API.md (namespaces "/" and "/store"). */

export type Namespace = '/' | '/store';
export const NAMESPACES: readonly Namespace[] = ['/', '/store'];

export interface OrderProgressEvent {
  orderNo: string;
  progress: number | string;
  /** The display state code (a number in the contract; older builds sent text). */
  state: number | string;
  at: number | string;
  eta: number | string | null;
  /** The arrival every screen shows (server domain/ordering/arrival.rs); absent from older servers. */
  arrival?: { kind: 'estimated' | 'booked' | 'ready' | 'delivered' | 'completed'; at: number; countdownFrom: number | null } | null;
  /** Increases by one per order; a gap means "ask for the snapshot". */
  seq: number;
}

export interface PaymentResultEvent {
  orderNo: string;
  paymentId: string;
  result: 'paid' | 'failed' | 'closed';
  at: number | string;
}

export interface StoreUpdateEvent {
  storeCode: string;
  status: string;
  notice: string | null;
  soldOut: string[];
}

export interface CartUpdatedEvent {
  version: number;
}

/** server → client events and their payloads. */
export interface ServerEvents {
  'order:progress': OrderProgressEvent;
  'payment:result': PaymentResultEvent;
  'store:update': StoreUpdateEvent;
  'cart:updated': CartUpdatedEvent;
  /** Tablets ("/store"): the order as the tablet lists it. */
  'order:new': unknown;
  'order:updated': unknown;
}

/** The payload a handler of `event` receives (unknown for an event outside the contract). */
export type ServerPayload<E extends string> = E extends keyof ServerEvents ? ServerEvents[E] : unknown;

export interface TimeSyncRequest {
  clientTime: number;
}

export interface TimeSyncAck {
  clientTime: number;
  serverTime: number;
}

export interface OrderWatchRequest {
  orderNo: string;
  viewToken?: string;
}
