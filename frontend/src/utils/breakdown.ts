/**
 * The price breakdown as rows a person can check: each line "list price × quantity", each
 * discount its own row, the delivery fee (and its waiver), the payable. All in fen: the rows are
 * the server's figures, never recomputed prices, and `breakdownGap` says when they do not add up.
 */
import type { Lang } from '@/lib/i18n';
import { toFen, type Fen } from '@/lib/money';
import type { PriceBreakdown } from '@/lib/api/types';

export type BreakdownRow =
  | { kind: 'line'; id: string; name: string; spec: string; unit: Fen; quantity: number; amount: Fen }
  | { kind: 'products'; amount: Fen }
  | { kind: 'discount'; id: string; name: string; amount: Fen; level: 'line' | 'order' | 'coupon' }
  | { kind: 'fee'; amount: Fen }
  | { kind: 'waived'; amount: Fen }
  | { kind: 'couponFee'; amount: Fen }
  | { kind: 'points'; amount: Fen; points: number }
  | { kind: 'payable'; amount: Fen };

const pick = (lang: Lang, cn: string, en: string) => (lang === 'en' ? en || cn : cn || en);

/**
 * `withFee`: delivery orders show the fee row even when it is 0. `withLines`: a row per line;
 * without, one row of the products' list amount (for pages whose item list shows each line's
 * list price × quantity already).
 */
export interface PointsLine {
  /** What the points take off, in fen. */
  fen: Fen;
  points: number;
  /** Whether the server's payable has them off already (an order); a cart's has not (checkout). */
  inPayable: boolean;
}

export function breakdownRows(b: PriceBreakdown, lang: Lang, withFee: boolean, withLines = true, points?: PointsLine | null): BreakdownRow[] {
  const lines: BreakdownRow[] = b.lines.map((l) => ({
    kind: 'line',
    id: l.lineId,
    name: pick(lang, l.nameCn, l.nameEn),
    spec: pick(lang, l.specCn, l.specEn),
    unit: toFen(l.unitPrice),
    quantity: l.quantity,
    amount: toFen(l.amount),
  }));
  const rows: BreakdownRow[] = withLines ? lines : [{ kind: 'products', amount: toFen(b.productAmount) }];
  for (const d of b.discounts) {
    // A coupon's entry (issue 24) names the coupon: its row is the coupon's, keyed by its code.
    const coupon = d.couponCode ?? null;
    rows.push({ kind: 'discount', id: coupon ?? d.ruleId, name: pick(lang, d.nameCn, d.nameEn), amount: toFen(d.amount), level: coupon ? 'coupon' : d.level });
  }
  const fee = toFen(b.deliveryFee);
  if (withFee || fee > 0) rows.push({ kind: 'fee', amount: fee });
  // Waived by the free-delivery threshold, and (its own row, issue 24) by a free-delivery coupon.
  const waived = toFen(b.deliveryFeeWaived);
  if (waived > 0) rows.push({ kind: 'waived', amount: waived });
  const couponFee = toFen(b.couponDeliveryWaived);
  if (couponFee > 0) rows.push({ kind: 'couponFee', amount: couponFee });
  // Points: the order's own (its payable is net of them), or checkout's choice on the cart.
  const own = b.pointsUsed > 0 ? { fen: toFen(b.pointsDeduction), points: b.pointsUsed, inPayable: true } : null;
  const pts = own ?? (points && points.fen > 0 ? points : null);
  if (pts) rows.push({ kind: 'points', amount: pts.fen, points: pts.points });
  rows.push({ kind: 'payable', amount: toFen(b.payable) - (pts && !pts.inPayable ? pts.fen : 0) });
  return rows;
}

/** What the rows are off by (0 when Σ lines − Σ discounts + fee − waived − coupon-waived − points = payable). */
export function breakdownGap(b: PriceBreakdown): Fen {
  const lines = b.lines.reduce((n, l) => n + toFen(l.amount), 0);
  const discounts = b.discounts.reduce((n, d) => n + toFen(d.amount), 0);
  return lines - discounts + toFen(b.deliveryFee) - toFen(b.deliveryFeeWaived) - toFen(b.couponDeliveryWaived) - toFen(b.pointsDeduction) - toFen(b.payable);
}
