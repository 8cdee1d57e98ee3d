import { useQuery, type QueryState } from '@/hooks/useQuery';
import { useLang } from '@/lib/i18n';
import { getMember } from '../api/members';
import type { MemberDetail } from '@/lib/api/types';

/**
 * GET /members/me for the logged-in user `who` (any key naming the session, so another login
 * reads again; null: a visitor, nothing is asked). The level's name comes in the page language.
 */
export function useMember(who: string | number | null): QueryState<MemberDetail> {
  const lang = useLang();
  return useQuery(who === null ? null : `member:${who}:${lang}`, (signal) => getMember(signal));
}
