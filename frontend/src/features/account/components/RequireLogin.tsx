import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { peekRedirect, rememberRedirect } from '../store/redirect';
import { useAccount } from '../store/session';

/**
 * A page that needs login: visitors have it remembered (10 s) and go to /login. A page whose
 * user logs out meanwhile shows nothing: whoever logged out (logout, account closed, 401/407
 * handling) navigates on.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const token = useAccount((s) => s.token);
  const location = useLocation();
  const [hadToken] = useState(token !== null);
  if (!token && hadToken) return null;
  if (!token) {
    rememberRedirect(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return children;
}

/**
 * /login, /register: opened while logged in, back to the remembered page, else home. Only the
 * state at opening counts; a login made on the page navigates by itself.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [target] = useState(() => (useAccount.getState().token ? (peekRedirect() ?? '/') : null));
  if (target !== null) return <Navigate to={target} replace />;
  return children;
}
