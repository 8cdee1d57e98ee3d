/**
 * Checkout's coupon picker as pure functions (issue 24): what a tap asks the server, which
 * coupons exclude each other (couponMutexBeans), what the coupon row says. The server prices
 * every answer; these only decide what to ask and how to say what it answered.
 */
import { toFen, type Fen } from '@/lib/money';
import type { Cart, CartCoupons, ChooseCouponsInput, CouponKind, CouponMutexBean, CouponOption } from '@/lib/api/types';

/** Coupons whose product goes into the cart as a coupon item (combosetProduct 1 and 2). */
export function isProductCoupon(kind: CouponKind): boolean {
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
 * What a tap on `option` asks. A product coupon adds or removes its coupon item. Any other coupon
 * is taken out when applied (the last one out means "no coupon", since an empty list asks for
 * the best combination), else added to the applied ones less those it cannot join.
 */
export function tapAction(option: CouponOption, coupons: CartCoupons, mutex: readonly CouponMutexBean[]): PickerAction {
  if (isProductCoupon(option.kind)) {
    return option.applied ? { kind: 'removeItem', couponCode: option.couponCode } : { kind: 'addItem', couponCode: option.couponCode };
  }
  const applied = coupons.applied;
  if (applied.includes(option.couponCode)) {
    const rest = applied.filter((c) => c !== option.couponCode);
    return { kind: 'choose', input: rest.length > 0 ? { couponCodes: rest } : { couponCodes: [], none: true } };
  }
  const templateOf = new Map(allOptions(coupons).map((o) => [o.couponCode, o.templateCode]));
  const conflicts = conflictsOf(option.templateCode, mutex);
  const keep = applied.filter((c) => !conflicts.has(templateOf.get(c) ?? ''));
  return { kind: 'choose', input: { couponCodes: [...keep, option.couponCode] } };
}

/** Whether an option may be tapped: usable, or set aside only for another coupon (mutex) or for a better one. */
export function canTap(option: CouponOption): boolean {
  return option.reason === null || option.reason.code === 'mutex' || option.reason.code === 'notBetter';
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
