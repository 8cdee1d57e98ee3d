/**
 * What the cart screens show, as pure functions of the server's cart: the options of a line, the
 * disabled items by reason, the promotion choice of a mutex group, and the spec §8 checkout hints.
 */
import type { MessageKey, TFunction } from '@/lib/i18n';
import { formatFen, toFen, type Fen } from '@/lib/money';
import type { Cart, CartItem, DisableReason, RuleOption } from '@/lib/api/types';

export interface DisabledGroup {
  reason: DisableReason;
  label: MessageKey;
  items: CartItem[];
}

const REASONS: { reason: DisableReason; label: MessageKey; pick: (c: Cart) => CartItem[] | undefined }[] = [
  { reason: 'soldOut', label: 'cart.reason.soldOut', pick: (c) => c.saleOutItemsFromShoppingCar },
  { reason: 'offTime', label: 'cart.reason.offTime', pick: (c) => c.timeOutItems },
  { reason: 'expired', label: 'cart.reason.expired', pick: (c) => c.effectOutItems },
];

/** Disabled items grouped by reason (sold out, not on sale at this time, expired), empty groups left out. */
export function disabledGroups(cart: Cart): DisabledGroup[] {
  return REASONS.map(({ reason, label, pick }) => ({ reason, label, items: pick(cart) ?? [] })).filter((g) => g.items.length > 0);
}

export function disabledCount(cart: Cart): number {
  return disabledGroups(cart).reduce((n, g) => n + g.items.length, 0);
}

/** Σ quantity of the valid items (the server's totalQuantity, recomputed when it is missing). */
export function itemCount(cart: Cart | null): number {
  if (!cart) return 0;
  if (Number.isFinite(cart.totalQuantity)) return cart.totalQuantity;
  return cart.items.reduce((n, i) => n + i.quantity, 0);
}

/** A promotion choice: the rules of one mutex group that the cart could use (two or more). */
export interface RuleChoice {
  options: RuleOption[];
  /** The rule in force (chosen, else applied), or null. */
  chosenId: string | null;
}

export function ruleChoices(cart: Cart): RuleChoice[] {
  const byId = new Map(cart.availableRules.map((r) => [r.ruleId, r]));
  const out: RuleChoice[] = [];
  for (const bean of cart.ruleMutexBeans ?? []) {
    const options = (bean.mutexDetails ?? []).map((d) => byId.get(d.ruleId)).filter((r): r is RuleOption => r !== undefined);
    if (options.length < 2) continue;
    const chosen = options.find((o) => o.chosen) ?? options.find((o) => o.applied) ?? null;
    out.push({ options, chosenId: chosen?.ruleId ?? null });
  }
  return out;
}

/**
 * Why a promotion gives nothing on this cart, in the app's language (the server's reasonMsg is
 * in the language of the request that priced the cart, which may be the other one). Null when
 * it applies.
 */
export function ruleReasonText(rule: RuleOption, cart: Cart, t: TFunction): string | null {
  if (!rule.reason) return null;
  const other = cart.availableRules.find((r) => r.ruleId === rule.excludedBy);
  const name = other?.ruleName ?? rule.excludedBy ?? '';
  switch (rule.reason) {
    case 'belowThreshold':
      return t('cart.ruleReason.belowThreshold', { amount: formatFen(toFen(rule.gap)) });
    case 'mutex':
      return t(other?.chosen ? 'cart.ruleReason.mutexChosen' : 'cart.ruleReason.mutex', { name });
    case 'itemsTaken':
      return t('cart.ruleReason.itemsTaken', { name });
    default:
      return t(`cart.ruleReason.${rule.reason}`);
  }
}

/** 再买¥x可享: the reductions the cart falls short of, outside the mutex choices (which say it themselves). */
export function ruleGaps(cart: Cart): { ruleId: string; name: string; gap: Fen }[] {
  const inChoice = new Set(ruleChoices(cart).flatMap((c) => c.options.map((o) => o.ruleId)));
  return cart.availableRules
    .filter((r) => r.reason === 'belowThreshold' && r.gap !== null && r.gap > 0 && !inChoice.has(r.ruleId))
    .map((r) => ({ ruleId: r.ruleId, name: r.ruleName, gap: toFen(r.gap) }));
}

/**
 * Why the cart cannot go to checkout (spec §8 cart hints), or null: not loaded, empty, or only
 * disabled items.
 */
export function checkoutBlock(cart: Cart | null): MessageKey | null {
  if (!cart) return 'cart.notLoaded';
  if (cart.items.length > 0) return null;
  return disabledCount(cart) > 0 ? 'cart.noValidItems' : 'cart.emptyCannotCheckout';
}

/** The amounts in fen, for display and comparison (never float arithmetic on yuan). */
export function cartAmounts(cart: Cart): {
  product: Fen;
  afterPromotions: Fen;
  discount: Fen;
  deliveryFee: Fen;
  deliveryFeeAfterPE: Fen;
  order: Fen;
} {
  return {
    product: toFen(cart.priceOfProduct),
    afterPromotions: toFen(cart.priceOfProductAfterPE),
    discount: toFen(cart.discountAmount),
    deliveryFee: toFen(cart.deliveryFee),
    deliveryFeeAfterPE: toFen(cart.deliveryFeeAfterPE),
    order: toFen(cart.orderAmount),
  };
}
