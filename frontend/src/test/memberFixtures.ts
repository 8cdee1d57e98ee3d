/** The loyalty API's answers for the member pages' tests (issue 23 contract). */
import type { DeductionRule, LedgerEntry, MemberDetail, MemberGift, MemberLevel } from '@/lib/api/types';

export function makeMember(over: Partial<MemberDetail> = {}): MemberDetail {
  return {
    isLoyalty: true,
    loyaltyLevel: 1,
    levelName: '普卡会员',
    points: { available: 1280, pending: 93, expiringSoon: 0, expiringSoonAt: null },
    qualifyingSpend: 150.5,
    nextLevel: { level: 2, name: '银卡会员', threshold: 500, remaining: 349.5 },
    joinedAt: Date.parse('2026-11-20T02:00:00Z'),
    privileges: [{ code: 'points', name: '积分', description: '每消费 1 元得 1 积分', status: null }],
    ...over,
  };
}

export const NON_MEMBER: MemberDetail = {
  isLoyalty: false,
  loyaltyLevel: null,
  levelName: null,
  points: { available: 0, pending: 0, expiringSoon: 0, expiringSoonAt: null },
  qualifyingSpend: 0,
  nextLevel: null,
  joinedAt: null,
  privileges: [],
};

export const LEVELS: MemberLevel[] = [
  { level: 1, name: '普卡会员', threshold: 0, pointsPerYuan: 1, privileges: [{ code: 'birthday', name: '生日礼', description: '生日当月赠送马苏里拉芝士条一份' }] },
  {
    level: 2,
    name: '银卡会员',
    threshold: 500,
    pointsPerYuan: 1,
    privileges: [
      { code: 'birthday', name: '生日礼', description: '生日当月赠送马苏里拉芝士条一份' },
      { code: 'delivery', name: '免配送费', description: '每月两张免配送费券' },
    ],
  },
  { level: 3, name: '金卡会员', threshold: 1500, pointsPerYuan: 2, privileges: [] },
  { level: 4, name: '钻石会员', threshold: 5000, pointsPerYuan: 3, privileges: [] },
];

export function makeGift(over: Partial<MemberGift> = {}): MemberGift {
  return {
    giftId: 'g-welcome',
    kind: 'welcome',
    level: 1,
    status: 'available',
    options: [
      { optionId: 'o-points', type: 'points', points: 500, productCode: null, name: '500积分' },
      { optionId: 'o-drink', type: 'coupon', points: null, productCode: null, name: '可口可乐一杯（下单时免费领取）' },
    ],
    chosenOptionId: null,
    claimedAt: null,
    expiresAt: Date.parse('2026-12-20T15:59:00Z'),
    ...over,
  };
}

export function makeEntry(over: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: 1,
    kind: 'earned',
    businessType: 'order',
    businessId: 'P20261125001',
    points: 93,
    status: 'available',
    expiresAt: Date.parse('2027-12-31T15:59:59Z'),
    at: Date.parse('2026-11-25T04:00:00Z'),
    ...over,
  };
}

export const RULE: DeductionRule = { pointsPerYuan: 100, maxShareOfOrder: 0.5, minPoints: 100 };
