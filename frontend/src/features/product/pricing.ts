/**
 * The product builder's rules as pure functions: what a choice may be, what is still missing, and the
 * price, which follows every choice. Money in integer fen.
 *
 *  - pizza: chosen size price + crust extra price + non-default sauce price + Σ extra × quantity
 *  - multi-flavour (type 1 with flavours) and two-flavour (type 9): the dearest chosen flavour's
 *    price at the chosen size, then crust, sauce and extras as above; exactly `flavorCount` flavours
 *    (type 9: halves, the same flavour may fill both)
 *  - combo (type 2): sellingPrice + Σ chosen choices' addPrice, exactly chooseNum per round
 *  - single (0) and juice (7): sellingPrice, or the chosen size's price when it has sizes
 *  - everything × quantity (at least minSale)
 */
import { toFen, type Fen } from '@/lib/money';
import type { ComboChoice, FlavorOption, Ingredient, PastryOption, ProductDetail, SizeOption } from '@/lib/api/types';

export const PRODUCT_TYPE = { SINGLE: 0, PIZZA: 1, COMBO: 2, JUICE: 7, TWO_FLAVOUR: 9 } as const;

export interface Selection {
  sizeCode: string | null;
  pastryCode: string | null;
  /** One slot per flavour to choose (type 9: left and right half); null = not chosen yet. */
  flavorCodes: (string | null)[];
  sauceCode: string | null;
  /** Base toppings the customer took off. */
  removedBase: string[];
  /** Extra topping code → quantity. */
  extras: Record<string, number>;
  /** Combo round code → chosen choice keys (see choiceKey); a key may repeat. */
  combo: Record<string, string[]>;
  quantity: number;
}

export type Missing =
  | { kind: 'flavors'; count: number }
  | { kind: 'combo'; roundCode: string; roundName: string; count: number };

export function minSale(p: Pick<ProductDetail, 'minSale'>): number {
  return Math.max(1, Math.floor(p.minSale || 1));
}

export function isCombo(p: ProductDetail): boolean {
  return p.productType === PRODUCT_TYPE.COMBO;
}

export function isMultiFlavour(p: ProductDetail): boolean {
  return p.productType === PRODUCT_TYPE.TWO_FLAVOUR || (p.productType === PRODUCT_TYPE.PIZZA && p.flavorList.length > 0);
}

/** How many flavours to choose (0 when the product has no flavour choice). */
export function flavourSlots(p: ProductDetail): number {
  if (!isMultiFlavour(p) || p.flavorList.length === 0) return 0;
  if (p.productType === PRODUCT_TYPE.TWO_FLAVOUR) return p.flavorCount > 0 ? p.flavorCount : 2;
  return Math.max(1, p.flavorCount || 1);
}

/** Combo choices are told apart by product and size (the same pizza may come in two sizes). */
export function choiceKey(c: Pick<ComboChoice, 'productCode' | 'sizeCode'>): string {
  return `${c.productCode}|${c.sizeCode ?? ''}`;
}

export function findSize(p: ProductDetail, code: string | null): SizeOption | undefined {
  return code === null ? undefined : p.sizeList.find((s) => s.sizeCode === code);
}

/** Crusts offered for a size: those listing it, or listing no size at all. */
export function pastriesForSize(p: ProductDetail, sizeCode: string | null): PastryOption[] {
  return p.pastryList.filter((c) => c.sizeCodes.length === 0 || (sizeCode !== null && c.sizeCodes.includes(sizeCode)));
}

function defaultPastry(p: ProductDetail, sizeCode: string | null, current: string | null): string | null {
  const valid = pastriesForSize(p, sizeCode);
  if (current !== null && valid.some((c) => c.pastryCode === current)) return current;
  return (valid.find((c) => c.isDefault) ?? valid[0])?.pastryCode ?? null;
}

function defaultSize(p: ProductDetail): string | null {
  return (p.sizeList.find((s) => s.isDefault) ?? p.sizeList[0])?.sizeCode ?? null;
}

/** A flavour's price at a size; a flavour without that size falls back to the size's own price. */
export function flavourPriceFen(p: ProductDetail, f: FlavorOption, sizeCode: string | null): Fen {
  const at = f.prices.find((x) => x.sizeCode === sizeCode) ?? (sizeCode === null ? f.prices[0] : undefined);
  if (at) return toFen(at.price);
  const size = findSize(p, sizeCode);
  return size ? toFen(size.price) : toFen(p.sellingPrice);
}

export function defaultSelection(p: ProductDetail): Selection {
  const sizeCode = defaultSize(p);
  const combo: Record<string, string[]> = {};
  for (const round of p.comboRounds) {
    combo[round.roundCode] = round.choices
      .filter((c) => c.isDefault)
      .slice(0, Math.max(0, round.chooseNum))
      .map(choiceKey);
  }
  const extras: Record<string, number> = {};
  for (const x of p.additionalIngredientList) if (x.isDefault) extras[x.code] = 1;
  return {
    sizeCode,
    pastryCode: defaultPastry(p, sizeCode, null),
    flavorCodes: Array.from({ length: flavourSlots(p) }, () => null),
    sauceCode: (p.sauceList.find((s) => s.isDefault) ?? null)?.code ?? null,
    // A base topping 86ed at the store comes off (the server leaves sold-out sauces, extras and
    // flavours out of their lists altogether).
    removedBase: p.baseIngredientList.filter((b) => b.soldOut).map((b) => b.code),
    extras,
    combo,
    quantity: minSale(p),
  };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/**
 * Makes a selection consistent with the product: a size that exists, a crust valid for it, the
 * right number of flavour slots holding known flavours, known sauce and toppings, extras within
 * 0..maxQuantity, at most chooseNum known choices per round, quantity at least minSale.
 */
export function normalizeSelection(p: ProductDetail, sel: Selection): Selection {
  const sizeCode = findSize(p, sel.sizeCode) ? sel.sizeCode : defaultSize(p);
  const slots = flavourSlots(p);
  const flavorCodes = Array.from({ length: slots }, (_, i) => {
    const code = sel.flavorCodes[i] ?? null;
    return code !== null && p.flavorList.some((f) => f.flavorCode === code) ? code : null;
  });
  const extras: Record<string, number> = {};
  for (const x of p.additionalIngredientList) {
    const q = Math.floor(sel.extras[x.code] ?? 0);
    if (q > 0) extras[x.code] = clamp(q, 0, Math.max(1, x.maxQuantity));
  }
  const combo: Record<string, string[]> = {};
  for (const round of p.comboRounds) {
    const known = new Set(round.choices.map(choiceKey));
    combo[round.roundCode] = (sel.combo[round.roundCode] ?? []).filter((k) => known.has(k)).slice(0, Math.max(0, round.chooseNum));
  }
  return {
    sizeCode,
    pastryCode: defaultPastry(p, sizeCode, sel.pastryCode),
    flavorCodes,
    sauceCode: p.sauceList.some((s) => s.code === sel.sauceCode) ? sel.sauceCode : (p.sauceList.find((s) => s.isDefault)?.code ?? null),
    removedBase: [
      ...sel.removedBase.filter((c) => p.baseIngredientList.some((b) => b.code === c && !b.soldOut)),
      ...p.baseIngredientList.filter((b) => b.soldOut).map((b) => b.code),
    ],
    extras,
    combo,
    quantity: Math.max(minSale(p), Math.floor(sel.quantity) || 0),
  };
}

function extrasFen(list: Ingredient[], extras: Record<string, number>): Fen {
  let sum = 0;
  for (const x of list) {
    const q = clamp(Math.floor(extras[x.code] ?? 0), 0, Math.max(1, x.maxQuantity));
    sum += toFen(x.price) * q;
  }
  return sum;
}

function sauceFen(p: ProductDetail, code: string | null): Fen {
  const sauce = p.sauceList.find((s) => s.code === code);
  return sauce && !sauce.isDefault ? toFen(sauce.price) : 0;
}

function crustFen(p: ProductDetail, sel: Selection): Fen {
  const crust = pastriesForSize(p, sel.sizeCode).find((c) => c.pastryCode === sel.pastryCode);
  return crust ? toFen(crust.extraPrice) : 0;
}

/** The price of one item as configured. */
export function unitPriceFen(p: ProductDetail, sel: Selection): Fen {
  if (isCombo(p)) {
    let sum = toFen(p.sellingPrice);
    for (const round of p.comboRounds) {
      for (const key of (sel.combo[round.roundCode] ?? []).slice(0, Math.max(0, round.chooseNum))) {
        const choice = round.choices.find((c) => choiceKey(c) === key);
        if (choice) sum += toFen(choice.addPrice);
      }
    }
    return sum;
  }
  const size = findSize(p, sel.sizeCode);
  let base: Fen = size ? toFen(size.price) : toFen(p.sellingPrice);
  if (isMultiFlavour(p)) {
    const chosen = sel.flavorCodes
      .map((code) => p.flavorList.find((f) => f.flavorCode === code))
      .filter((f): f is FlavorOption => f !== undefined);
    if (chosen.length > 0) base = Math.max(...chosen.map((f) => flavourPriceFen(p, f, size ? size.sizeCode : null)));
  }
  return base + crustFen(p, sel) + sauceFen(p, sel.sauceCode) + extrasFen(p.additionalIngredientList, sel.extras);
}

export function quantityOf(p: ProductDetail, sel: Selection): number {
  return Math.max(minSale(p), Math.floor(sel.quantity) || 0);
}

/** Unit and total (unit × quantity, quantity at least minSale). */
export function priceOf(p: ProductDetail, sel: Selection): { unitFen: Fen; totalFen: Fen; quantity: number } {
  const unitFen = unitPriceFen(p, sel);
  const quantity = quantityOf(p, sel);
  return { unitFen, totalFen: unitFen * quantity, quantity };
}

/** What the customer still has to choose before the item can go into the cart. */
export function missingChoices(p: ProductDetail, sel: Selection): Missing[] {
  const out: Missing[] = [];
  const slots = flavourSlots(p);
  if (slots > 0) {
    const filled = sel.flavorCodes.slice(0, slots).filter((c) => c !== null).length;
    if (filled < slots) out.push({ kind: 'flavors', count: slots - filled });
  }
  if (isCombo(p)) {
    for (const round of p.comboRounds) {
      const have = (sel.combo[round.roundCode] ?? []).length;
      if (have < round.chooseNum) {
        out.push({ kind: 'combo', roundCode: round.roundCode, roundName: round.roundName, count: round.chooseNum - have });
      }
    }
  }
  return out;
}
