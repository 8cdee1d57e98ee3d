import { useEffect } from 'react';
import { useQuery } from '@/hooks/useQuery';
import type { Me } from '@/lib/api/types';
import { getMe } from '../api/account';
import { useAccount } from '../store/session';

/** The member detail, fresh from GET /me (kept in the store); the stored copy meanwhile. */
export function useMe(): { user: Me | null; loading: boolean; error: Error | null; reload: () => void } {
  const token = useAccount((s) => s.token);
  const stored = useAccount((s) => s.user);
  const setUser = useAccount((s) => s.setUser);
  const q = useQuery(token ? `me:${token}` : null, (signal) => getMe(signal));
  useEffect(() => {
    if (q.data) setUser(q.data);
  }, [q.data, setUser]);
  return { user: q.data ?? stored, loading: q.loading, error: q.error, reload: q.reload };
}
