/**
 * What the app knows of orders that the API document gives only as a number or a string
 * (`orderType`, `paymentType`, the order list's `state` filter): the values the app offers and
 * switches on. The server refuses anything else.
 */

/** 0 delivery, 1 pickup, 2 dine-in. */
export type OrderType = 0 | 1 | 2;
export const ORDER_TYPES: readonly OrderType[] = [0, 1, 2];

/** Online through a provider, or cash on delivery. */
export type PaymentType = 'online' | 'offline';

/** The order list's filters (GET /orders?state=). */
export type OrderListFilter = 'all' | 'unpaid' | 'active' | 'completed' | 'cancelled';
