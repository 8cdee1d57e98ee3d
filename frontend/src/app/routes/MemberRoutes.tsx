import type { ComponentType } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useAccount } from '@/features/account';
import {
  BenefitsPage,
  DeductionGuidePage,
  JoinPage,
  MemberCenterPage,
  NoticePage,
  PointsListPage,
  PrivilegePage,
  PromotionCeremonyPage,
  SelectGiftPage,
  isLedgerFilter,
} from '@/features/member';

// The member pages (issue 23): one chunk, reached from /my, checkout and the guide. The route
// table holds four routes to it (visitors read a visitor state, the guide is open to all); the page is chosen here by path,
// so the entry carries neither their table nor their titles. Each page is given the logged-in user.

function useWho(): number | string {
  return useAccount((s) => s.user?.id ?? s.token ?? '');
}

export function JoinRoute() {
  const who = useWho();
  // /my and the badges read GET /me again: the user is a member now.
  const onJoined = () => {
    const user = useAccount.getState().user;
    if (user) useAccount.getState().setUser({ ...user, isLoyalty: true });
  };
  return <JoinPage who={who} onJoined={onJoined} />;
}

export function MemberCenterRoute() {
  return <MemberCenterPage who={useWho()} />;
}

export function PrivilegeRoute() {
  return <PrivilegePage who={useWho()} />;
}

export function BenefitsRoute() {
  return <BenefitsPage who={useWho()} />;
}

export function NoticeRoute() {
  return <NoticePage who={useWho()} />;
}

export function SelectGiftRoute() {
  return <SelectGiftPage who={useWho()} />;
}

export function PromotionCeremonyRoute() {
  return <PromotionCeremonyPage who={useWho()} />;
}

export function PointsListRoute() {
  const [params] = useSearchParams();
  const kind = params.get('kind');
  return <PointsListPage who={useWho()} initialKind={isLedgerFilter(kind) ? kind : 'all'} />;
}

const PAGES: Record<string, ComponentType> = {
  '/addMember': JoinRoute,
  '/my/member/index': MemberCenterRoute,
  '/my/member/privilege': PrivilegeRoute,
  '/my/member/benefits': BenefitsRoute,
  '/my/member/memberIconBenefit': BenefitsRoute,
  '/my/member/notice': NoticeRoute,
  '/my/member/memberSelectGift': SelectGiftRoute,
  '/my/member/promotionCeremony': PromotionCeremonyRoute,
  '/my/integral/list': PointsListRoute,
  '/memberPointdeduction': DeductionGuidePage,
};

/** The member page of the path; any other /my/member/… path is the member centre. */
export function MemberPages() {
  const { pathname } = useLocation();
  const Page = PAGES[pathname.replace(/\/+$/, '')];
  return Page ? <Page /> : <Navigate to="/my/member/index" replace />;
}
