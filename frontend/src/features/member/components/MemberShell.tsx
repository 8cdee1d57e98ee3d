import type { ReactNode } from 'react';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useT } from '@/lib/i18n';
import type { MemberDetail } from '@/lib/api/types';
import { JoinInvite } from './JoinInvite';
import { useMember } from './useMember';
import { usePageTitle } from './usePageTitle';
import './Member.css';

export interface MemberShellProps {
  title: string;
  /** The logged-in user (the route composes it in). */
  who: string | number;
  /** The page for a member; a non-member sees the join invitation instead. */
  children: (member: MemberDetail, reload: () => void) => ReactNode;
  fallback?: string;
  variant?: 'light' | 'brand';
}

/** A member page: the header, the member detail (loading, failure with a retry), the page or the invitation. */
export function MemberShell({ title, who, children, fallback = '/my/member/index', variant = 'light' }: MemberShellProps) {
  const t = useT();
  const q = useMember(who);
  usePageTitle(title);
  return (
    <div className="mpage">
      <Header title={title} fallback={fallback} variant={variant} />
      {!q.data ? (
        <Loading page error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />
      ) : q.data.isLoyalty ? (
        children(q.data, q.reload)
      ) : (
        <div className="mpage__body">
          <JoinInvite />
        </div>
      )}
    </div>
  );
}
