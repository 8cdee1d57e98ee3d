import { Navigate, useNavigate } from 'react-router';
import { RequireTablet, TabletBoard, TabletLoginPage, useTabletSession } from '@/features/tablet';

export const TABLET_HOME = '/tablet';
export const TABLET_LOGIN = '/tablet/login';

/** /tablet: the board; without a staff session (or once it is gone: 401/407), the login. */
export function TabletBoardRoute() {
  return (
    <RequireTablet loginPath={TABLET_LOGIN}>
      <TabletBoard />
    </RequireTablet>
  );
}

/** /tablet/login: a tablet already logged in goes to its board. */
export function TabletLoginRoute() {
  const navigate = useNavigate();
  const loggedIn = useTabletSession((s) => s.session !== null);
  if (loggedIn) return <Navigate to={TABLET_HOME} replace />;
  return <TabletLoginPage onLoggedIn={() => void navigate(TABLET_HOME, { replace: true })} />;
}
