/**
 * The points rules as the app shows them, pure: what the points of a cart may save (the server's
 * deduction rule, for the guide's examples; checkout shows the cart's own figures), how a ledger
 * entry reads in plain words, and how far the member is from the next level. Money in fen.
 */
import type { MessageKey, TFunction } from '@/lib/i18n';
import { toFen, type Fen } from '@/lib/money';
import type { DeductionRule, LedgerEntry, MemberDetail } from '@/lib/api/types';

export interface Deduction {
  /** The points the order may take (0 below the rule's minimum). */
  usablePoints: number;
  /** What they save, in fen. */
  amountFen: Fen;
}

/** What `points` save, in whole fen (rounded down: a part of a fen is never given). */
export function pointsToFen(rule: DeductionRule, points: number): Fen {
  if (rule.pointsPerYuan <= 0 || points <= 0) return 0;
  return Math.floor((points * 100) / rule.pointsPerYuan);
}

/**
 * The most a member with `available` points may deduct from an order of `orderFen`, as the server
 * computes it (actors domain/loyalty/mod.rs `DeductionRule::usable`): the cap is the rule's share of
 * the order in whole fen, turned into points; never more than the member has; only points that buy
 * whole fen; none below `minPoints`. The server decides at submit; the guide's examples use this.
 */
export function maxDeduction(rule: DeductionRule, available: number, orderFen: Fen): Deduction {
  if (rule.pointsPerYuan <= 0 || available <= 0 || orderFen <= 0) return { usablePoints: 0, amountFen: 0 };
  // The share in thousandths keeps the cap an integer (0.5 × 8990 = 4495 fen, never 4494.999…).
  const capFen = Math.floor((orderFen * Math.round(rule.maxShareOfOrder * 1000)) / 1000);
  const capPoints = Math.floor((capFen * rule.pointsPerYuan) / 100);
  const perFen = Math.max(1, Math.floor(rule.pointsPerYuan / 100));
  let usable = Math.min(available, capPoints);
  usable -= usable % perFen;
  if (usable < rule.minPoints || usable <= 0) return { usablePoints: 0, amountFen: 0 };
  return { usablePoints: usable, amountFen: pointsToFen(rule, usable) };
}

/** The guide's worked examples: an order amount and a balance each. */
export const GUIDE_EXAMPLES: readonly { orderYuan: number; points: number }[] = [
  { orderYuan: 89, points: 2000 },
  { orderYuan: 89, points: 8000 },
  { orderYuan: 45.5, points: 150 },
  { orderYuan: 120, points: 60 },
];

export interface GuideExample {
  orderFen: Fen;
  points: number;
  deduction: Deduction;
  payFen: Fen;
}

export function guideExamples(rule: DeductionRule): GuideExample[] {
  return GUIDE_EXAMPLES.map(({ orderYuan, points }) => {
    const orderFen = toFen(orderYuan);
    const deduction = maxDeduction(rule, points, orderFen);
    return { orderFen, points, deduction, payFen: orderFen - deduction.amountFen };
  });
}

/** Which words an entry reads with: its kind with its business, else its kind alone. */
export function entryKey(entry: Pick<LedgerEntry, 'kind' | 'businessType'>): MessageKey {
  const specific = `points.entry.${entry.kind}.${entry.businessType}`;
  return (ENTRY_KEYS.has(specific) ? specific : `points.entry.${entry.kind}`) as MessageKey;
}

const ENTRY_KEYS = new Set<string>([
  'points.entry.earned.order',
  'points.entry.pending.order',
  'points.entry.earned.gift',
  'points.entry.gift.gift',
  'points.entry.spent.deduction',
  'points.entry.released.deduction',
  'points.entry.reversed.refund',
  'points.entry.reversed.order',
  'points.entry.expired.expiry',
  'points.entry.adjusted.adjustment',
]);

/** "订单 20261125… 获得" / "Earned on order 20261125…": the entry in plain words. */
export function entryText(entry: Pick<LedgerEntry, 'kind' | 'businessType' | 'businessId'>, t: TFunction): string {
  return t(entryKey(entry), { id: entry.businessId });
}

/** "+120" / "-300": the signed points as shown. */
export function signedPoints(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}

export type EntryTone = 'in' | 'out' | 'wait';

export function entryTone(entry: Pick<LedgerEntry, 'kind' | 'points'>): EntryTone {
  if (entry.kind === 'pending') return 'wait';
  return entry.points >= 0 ? 'in' : 'out';
}

export interface LevelProgress {
  /** 0–100, the share of the next level's threshold reached. */
  percent: number;
  remainingFen: Fen;
  thresholdFen: Fen;
}

/** How far the qualifying spend is from the next level; null at the top level. */
export function levelProgress(member: Pick<MemberDetail, 'qualifyingSpend' | 'nextLevel'>): LevelProgress | null {
  const next = member.nextLevel;
  if (!next) return null;
  const thresholdFen = toFen(next.threshold);
  const spentFen = toFen(member.qualifyingSpend);
  const percent = thresholdFen <= 0 ? 100 : Math.max(0, Math.min(100, Math.floor((spentFen * 100) / thresholdFen)));
  return { percent, remainingFen: Math.max(0, toFen(next.remaining)), thresholdFen };
}
