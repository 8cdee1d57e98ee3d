import { apiGet, apiPost } from '@/lib/api';
import type { DeductionRule, LedgerPage, LevelChange, MemberAgreement, MemberDetail, MemberGift, MemberLevel } from '@/lib/api/types';

/** The ledger's filters (GET /points/ledger?kind=). */
export const LEDGER_FILTERS = ['all', 'earned', 'pending', 'spent', 'expired'] as const;
export type LedgerFilter = (typeof LEDGER_FILTERS)[number];
export const LEDGER_PAGE_SIZE = 20;

/** The member agreement in the request's language: its version is what joining accepts. */
export function getAgreement(signal?: AbortSignal): Promise<MemberAgreement> {
  return apiGet<MemberAgreement>('/members/agreement', { signal });
}

/** Joins the club (idempotent: a member gets the detail again). */
export function joinClub(agreementVersion: string): Promise<MemberDetail> {
  return apiPost<MemberDetail>('/members/join', { agreementVersion });
}

export function getMember(signal?: AbortSignal): Promise<MemberDetail> {
  return apiGet<MemberDetail>('/members/me', { signal });
}

export function getLevels(signal?: AbortSignal): Promise<MemberLevel[]> {
  return apiGet<MemberLevel[]>('/members/levels', { signal });
}

export function getLevelHistory(signal?: AbortSignal): Promise<LevelChange[]> {
  return apiGet<LevelChange[]>('/members/levels/history', { signal });
}

export function getGifts(signal?: AbortSignal): Promise<MemberGift[]> {
  return apiGet<MemberGift[]>('/members/gifts', { signal });
}

export function claimGift(giftId: string, optionId: string): Promise<MemberGift> {
  return apiPost<MemberGift>(`/members/gifts/${encodeURIComponent(giftId)}/claim`, { optionId });
}

export function getLedger(kind: LedgerFilter, page: number, signal?: AbortSignal): Promise<LedgerPage> {
  return apiGet<LedgerPage>('/points/ledger', { signal, query: { kind, page, pageSize: LEDGER_PAGE_SIZE } });
}

/** The rule changes rarely: kept a minute. */
export function getDeductionRule(signal?: AbortSignal): Promise<DeductionRule> {
  return apiGet<DeductionRule>('/points/deduction-rule', { signal, cacheMs: 60_000 });
}
