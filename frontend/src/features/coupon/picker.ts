/**
 * Checkout's coupon picker as pure functions (issue 24): what a tap asks the server, which
 * coupons exclude each other (couponMutexBeans), what the coupon row says. The server prices
 * every answer; these only decide what to ask and how to say what it answered.
 */
import { toFen, type Fen } from '@/lib/money';
import type { Cart, CartCoupons, ChooseCouponsInput, CouponMutexBean, CouponOption } from '@/lib/api/types';

/** Coupons whose product goes into the cart as a coupon item (combosetProduct 1 and 2). */
export function isProductCoupon(kind: string): boolean {
  return kind === 'productAtPrice' || kind === 'exchangeProduct';
}

export type PickerAction =
  | { kind: 'choose'; input: ChooseCouponsInput }
  | { kind: 'addItem'; couponCode: string }
  | { kind: 'removeItem'; couponCode: string };

/** Every option of the cart, usable first. */
export function allOptions(coupons: CartCoupons): CouponOption[] {
  return [...coupons.usable, ...coupons.unusable];
}

/** The template codes that may not join `templateCode` in one order (its mutex groups, itself included). */
export function conflictsOf(templateCode: string, mutex: readonly CouponMutexBean[]): Set<string> {
  const out = new Set<string>([templateCode]);
  for (const bean of mutex) {
    const ids = bean.couponMutexDetails.map((d) => d.ruleId);
    if (ids.includes(templateCode)) ids.forEach((id) => out.add(id));
  }
  return out;
}

/**
 * What a tap on `option` asks. A product coupon puts its coupon item in the cart or takes it out
 * (the server takes no product coupon in a choice). Any other coupon is taken out when applied
 * (the last one out means "no coupon", since an empty list asks for the best combination), else
 * added to the applied ones less those it cannot join.
 */
export function tapAction(option: CouponOption, coupons: CartCoupons, mutex: readonly CouponMutexBean[]): PickerAction {
  if (isProductCoupon(option.kind)) {
    return option.inCart ? { kind: 'removeItem', couponCode: option.couponCode } : { kind: 'addItem', couponCode: option.couponCode };
  }
  const byCode = new Map(allOptions(coupons).map((o) => [o.couponCode, o]));
  const applied = coupons.applied.filter((c) => !isProductCoupon(byCode.get(c)?.kind ?? ''));
  if (applied.includes(option.couponCode)) {
    const rest = applied.filter((c) => c !== option.couponCode);
    return { kind: 'choose', input: rest.length > 0 ? { couponCodes: rest } : { couponCodes: [], none: true } };
  }
  const conflicts = conflictsOf(option.templateCode, mutex);
  const keep = applied.filter((c) => !conflicts.has(byCode.get(c)?.templateCode ?? ''));
  return { kind: 'choose', input: { couponCodes: [...keep, option.couponCode] } };
}

/** Set aside for another coupon (mutex), for ones the customer chose, or for a better combination: still choosable. */
const CHOOSABLE = ['mutex', 'notChosen', 'notBetter'];

/** Whether an option may be tapped: it applies, or it was only set aside (a product coupon in the cart can always be taken out). */
export function canTap(option: CouponOption): boolean {
  return option.reason === null || CHOOSABLE.includes(option.reason.code) || option.inCart;
}

/**
 * The groups of coupons the customer holds that exclude each other, as their names (每组两个以上):
 * "满100减20与8折券不可同时使用".
 */
export function mutexGroups(mutex: readonly CouponMutexBean[], options: readonly CouponOption[]): string[][] {
  const nameOf = new Map<string, string>();
  for (const o of options) if (!nameOf.has(o.templateCode)) nameOf.set(o.templateCode, o.name);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const bean of mutex) {
    const names = [...new Set(bean.couponMutexDetails.map((d) => d.ruleId))].filter((id) => nameOf.has(id)).map((id) => nameOf.get(id) ?? id);
    const key = [...names].sort().join('|');
    if (names.length >= 2 && !seen.has(key)) {
      seen.add(key);
      out.push(names);
    }
  }
  return out;
}

export interface CouponSummary {
  /** The coupons applied to the order (osCoupons). */
  applied: number;
  /** What they save, delivery fee waived included. */
  savedFen: Fen;
  /** The coupons that could apply to this cart (null: not known yet). */
  usable: number | null;
}

/** The checkout row from the cart's own figures (and the count of usable ones when read). */
export function couponSummary(cart: Cart, coupons: CartCoupons | null): CouponSummary {
  return {
    applied: cart.osCoupons?.length ?? 0,
    savedFen: toFen(cart.couponDiscountsAmount) + toFen(cart.couponDeliveryFee),
    usable: coupons ? coupons.usable.length : null,
  };
}
