import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useTabletSession } from '../store/session';

/** The board needs a staff session; without one (never had, logged out, 401/407) the login page. */
export function RequireTablet({ children, loginPath = '/tablet/login' }: { children: ReactNode; loginPath?: string }) {
  const token = useTabletSession((s) => s.session?.token ?? null);
  if (!token) return <Navigate to={loginPath} replace />;
  return children;
}
