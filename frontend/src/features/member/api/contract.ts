/**
 * TEMPORARY: the loyalty API's shapes as agreed in the issue, until the server's DTOs land and
 * `npm run gen:api` names them in lib/api/types.ts. Delete this file then and import from there.
 */
export interface MemberAgreement {
  version: string;
  title: string;
  content: string;
}

export interface MemberPoints {
  available: number;
  pending: number;
  expiringSoon: number;
  expiringSoonAt: number | null;
}

export interface NextLevel {
  level: number;
  name: string;
  threshold: number;
  remaining: number;
}

export interface MemberDetail {
  isLoyalty: boolean;
  loyaltyLevel: number | null;
  levelName: string | null;
  points: MemberPoints;
  qualifyingSpend: number;
  nextLevel: NextLevel | null;
  joinedAt: number | null;
}

export interface Privilege {
  code: string;
  name: string;
  description: string;
}

export interface MemberLevel {
  level: number;
  name: string;
  threshold: number;
  pointsPerYuan: number;
  privileges: Privilege[];
}

export interface LevelChange {
  fromLevel: number | null;
  toLevel: number;
  reason: 'join' | 'upgrade' | 'downgrade';
  at: number;
}

export interface GiftOption {
  optionId: string;
  type: 'points' | 'product';
  points: number | null;
  productCode: string | null;
  name: string;
}

export interface MemberGift {
  giftId: string;
  kind: 'welcome' | 'upgrade';
  level: number;
  status: 'available' | 'claimed' | 'expired';
  options: GiftOption[];
  chosenOptionId: string | null;
  claimedAt: number | null;
  expiresAt: number;
}

export type LedgerKind = 'earned' | 'pending' | 'spent' | 'expired' | 'reversed' | 'adjusted' | 'released';
export type LedgerBusiness = 'order' | 'refund' | 'gift' | 'adjustment' | 'deduction' | 'expiry';

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  businessType: LedgerBusiness;
  businessId: string;
  points: number;
  status: string;
  expiresAt: number | null;
  at: number;
}

export interface LedgerPage {
  items: LedgerEntry[];
  page: number;
  pageSize: number;
  total: number;
}

export interface DeductionRule {
  pointsPerYuan: number;
  maxShareOfOrder: number;
  minPoints: number;
}

export interface CartPointsDeduction {
  available: number;
  usablePoints: number;
  amount: number;
}
