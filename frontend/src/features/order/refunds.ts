import type { MessageKey } from '@/lib/i18n';
import type { OrderDetail, OrderPaymentRef } from '@/lib/api/types';

/**
 * The order's attempts whose money goes back (a duplicate payment, a cancelled or refused
 * order), oldest first: shown with the server's reason so a customer charged twice sees why
 * the second charge returns.
 */
export function refundedAttempts(order: Pick<OrderDetail, 'payments'>): OrderPaymentRef[] {
  return order.payments.filter((p) => p.state === 'refunded' || p.state === 'refunding');
}

/** `refunding`: owed, the server retries until the provider makes it. */
export function refundStateKey(p: OrderPaymentRef): MessageKey {
  return p.state === 'refunded' ? 'order.refunds.refunded' : 'order.refunds.refunding';
}
