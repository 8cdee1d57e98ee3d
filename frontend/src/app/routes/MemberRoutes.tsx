import { useSearchParams } from 'react-router';
import { useAccount } from '@/features/account';
import {
  BenefitsPage,
  JoinPage,
  MemberCenterPage,
  NoticePage,
  PointsListPage,
  PrivilegePage,
  PromotionCeremonyPage,
  SelectGiftPage,
  isLedgerFilter,
} from '@/features/member';

// The member pages (issue 23): one chunk, reached from /my, checkout and the guide. Each is given
// the logged-in user (the route table sends visitors to /login first).
export { DeductionGuidePage } from '@/features/member';

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
