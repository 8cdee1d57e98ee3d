/**
 * The member feature (issue 23): joining the club (/addMember), the member centre and its pages
 * (/my/member/…), the points detail (/my/integral/list), the points-deduction guide
 * (/memberPointdeduction), checkout's points switch and /my's member strip.
 */
export { JoinPage } from './components/JoinPage';
export { MemberCenterPage } from './components/MemberCenterPage';
export { PrivilegePage } from './components/PrivilegePage';
export { BenefitsPage } from './components/BenefitsPage';
export { NoticePage } from './components/NoticePage';
export { SelectGiftPage, PromotionCeremonyPage } from './components/GiftPages';
export { PointsListPage, isLedgerFilter } from './components/PointsListPage';
export { DeductionGuidePage } from './components/DeductionGuidePage';
export { PointsToggle, pointsToUse } from './components/PointsToggle';
export { MemberSummary } from './components/MemberSummary';
export { JoinInvite } from './components/JoinInvite';
export { maxDeduction, pointsToFen, entryText, levelProgress } from './points';
export type { CartPointsDeduction } from '@/lib/api/types';
