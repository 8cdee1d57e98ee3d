/**
 * The order submit as pure functions: the remark cleaning of spec ordering §5, the body of
 * POST /orders from the cart shown (its four amounts and version: the server compares them), and
 * the Idempotency-Key of an attempt.
 */
import { uuid } from '@/lib/uuid';
import type { Address, Cart, OrderSubmit } from '@/lib/api/types';
import type { PaymentType } from '@/lib/orders';

/** The server accepts up to 100 characters (actors domain/ordering/remark.rs). */
export const REMARK_MAX = 100;
export const TABLEWARE_MAX = 10;

/**
 * Spec §5: separators and dollar signs are stripped, commas become full-width commas. Line breaks
 * become spaces; the text is trimmed and cut to REMARK_MAX characters.
 */
export function cleanRemark(text: string): string {
  const cleaned = text
    .replace(/[$|^~`\\]/g, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/,/g, '，')
    .replace(/ {2,}/g, ' ')
    .trim();
  return Array.from(cleaned).slice(0, REMARK_MAX).join('');
}

export interface CheckoutChoices {
  address: Address | null;
  remark: string;
  contactless: boolean;
  tableware: number;
  invoice: boolean;
  paymentType: PaymentType;
  /** Points to spend on the order (issue 23); 0 or absent: none. */
  pointsDeductions?: number;
}

/** Pay on delivery exists for delivery only. */
export function paymentTypesFor(orderType: number): PaymentType[] {
  return orderType === 0 ? ['online', 'offline'] : ['online'];
}

/** The POST /orders body for the cart as shown and the customer's choices. */
export function buildOrder(cart: Cart, choices: CheckoutChoices): OrderSubmit {
  const delivery = cart.orderType === 0;
  const address = delivery ? choices.address : null;
  const paymentType = paymentTypesFor(cart.orderType).includes(choices.paymentType) ? choices.paymentType : 'online';
  const points = Math.max(0, Math.floor(choices.pointsDeductions ?? 0) || 0);
  return {
    orderType: cart.orderType,
    isBookOrder: cart.isBookOrder,
    plannedDeliverTime: cart.orderTime,
    consignAddressId: address?.id ?? null,
    receiverName: address?.name ?? null,
    receiverMobile: address?.phone ?? null,
    deskNo: cart.deskNo ?? null,
    remark: cleanRemark(choices.remark),
    contactless: delivery && choices.contactless,
    tableware: Math.max(0, Math.min(TABLEWARE_MAX, Math.floor(choices.tableware) || 0)),
    isNeedInvoice: choices.invoice,
    paymentType,
    orderProductAmount: cart.priceOfProduct,
    activityAmount: cart.discountAmount,
    freightAmount: cart.deliveryFeeAfterPE,
    orderAmount: cart.orderAmount,
    shoppingCarVersion: cart.shoppingCarVersion,
    // Only when points are spent: an order without them reads as before.
    ...(points > 0 ? { pointsDeductions: points } : {}),
    // The coupons the cart shows applied (issue 24): the server locks exactly these (else -6, fresh cart).
    ...(cart.osCoupons.length > 0 ? { osCoupons: [...cart.osCoupons] } : {}),
  };
}

/**
 * One Idempotency-Key per attempt: a retry of the same body (after a timeout or a lost answer)
 * reuses it, so the server answers the first answer again; any other body gets a new key.
 */
export class IdempotencyKeys {
  private body: string | null = null;
  private key: string | null = null;

  constructor(private readonly make: () => string = uuid) {}

  keyFor(order: OrderSubmit): string {
    const body = JSON.stringify(order);
    if (this.key === null || body !== this.body) {
      this.body = body;
      this.key = this.make();
    }
    return this.key;
  }

  /** After an answer that settles the attempt (success, or a refusal that changes the body). */
  forget(): void {
    this.body = null;
    this.key = null;
  }
}
