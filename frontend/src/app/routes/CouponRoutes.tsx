import { useSearchParams } from 'react-router';
import { useAccount } from '@/features/account';
import { CouponListPage, isCouponTab } from '@/features/coupon';

/** /my/coupon/list (issue 24): its own chunk; the tab is kept in the address (?status=). */
export function CouponListRoute() {
  const who = useAccount((s) => s.user?.id ?? s.token ?? '');
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  return (
    <CouponListPage
      who={who}
      initialTab={isCouponTab(status) ? status : 'available'}
      onTabChange={(tab) => setParams(tab === 'available' ? {} : { status: tab }, { replace: true })}
    />
  );
}
