import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ConnectionBadge } from '@/components/ConnectionBadge';
import { ToastHost, showToast } from '@/components/Toast';
import { rememberRedirect, settleRedirect, useAccount } from '@/features/account';
import { resetSelectedAddress } from '@/features/address';
import { statusPath, usePayResume } from '@/features/payment';
import { resetStoreSelection } from '@/features/store';
import { onAuthError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { QuietSuspense, RouteSuspense, lazyRoute } from '../lazyRoute';
import { isGrayPage, usePageSwitch } from '../pageSwitch';
import { routeMeta } from '../routeMeta';
import { clearUserData } from '../session';

const SessionDialogs = lazyRoute(() => import('./sessionDialogs'), 'SessionDialogs');
const VisitorConsent = lazyRoute(() => import('./sessionDialogs'), 'VisitorConsent');

/** The page column (10rem: the viewport on phones, 340 px centred on desktop), page slides by level. */
export function AppLayout() {
  const location = useLocation();
  const t = useT();
  const meta = routeMeta(location.pathname);
  const prevLevel = useRef(meta.level);
  const direction = meta.level > prevLevel.current ? 'fwd' : meta.level < prevLevel.current ? 'back' : null;
  useEffect(() => {
    prevLevel.current = meta.level;
  }, [meta.level]);

  const signedIn = useAccount((s) => s.token !== null);
  const switches = usePageSwitch();
  const gray = isGrayPage(switches.grayPageList, location.pathname, meta.pageCode);
  useEffect(() => {
    document.documentElement.style.filter = gray ? 'grayscale(1)' : '';
  }, [gray]);

  useEffect(() => {
    // The member pages title themselves: their words come with their chunk.
    if (meta.ownTitle) return;
    document.title = meta.title ? `${t(meta.title)} · ${t('app.name')}` : t('app.name');
  }, [meta.title, meta.ownTitle, t]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  // The login target is held while the login pages are open, dropped elsewhere (spec account §2).
  useEffect(() => settleRedirect(location.pathname), [location.pathname]);

  // 401: logged out, to /login. 407 (登录过期!): also local storage cleared, with the toast.
  const navigate = useNavigate();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}`;
  useEffect(
    () =>
      onAuthError((e) => {
        const wasIn = useAccount.getState().token !== null;
        const { toLogin, toast } = useAccount.getState().authFailed(e.errCode, e.message);
        if (toast) {
          resetStoreSelection();
          resetSelectedAddress();
          showToast(toast, 2000);
        } else if (wasIn) clearUserData();
        if (toLogin && !here.current.startsWith('/login')) {
          rememberRedirect(here.current);
          void navigate('/login', { replace: true });
        }
      }),
    [navigate],
  );

  // Back in the foreground while a payment is in progress: its status page (spec ordering §4 step 6).
  usePayResume((record) => {
    const params = new URLSearchParams(location.search);
    if (location.pathname === '/order/status' && params.get('orderNo') === record.orderNo) return;
    void navigate(statusPath(record.orderNo, { paymentId: record.paymentId }));
  });

  return (
    <div className="app-col">
      <div key={location.pathname} className={direction ? `page-enter-${direction}` : undefined}>
        {/* Inside the keyed page: a chunk failure shown on one page is gone on the next. */}
        <RouteSuspense>
          <Outlet />
        </RouteSuspense>
      </div>
      {/* Signed in: GET /me and, when due, the privacy and SMS dialogs (a chunk of their own). */}
      {signedIn ? (
        <QuietSuspense>
          <SessionDialogs onSignedOut={clearUserData} pathname={location.pathname} />
        </QuietSuspense>
      ) : (
        // A visitor is asked for privacy consent too (spec account §4).
        <QuietSuspense>
          <VisitorConsent pathname={location.pathname} />
        </QuietSuspense>
      )}
      {/* Shows nothing until a feature opens the "/" socket (it never opens one itself). */}
      <ConnectionBadge namespace="/" />
      <ToastHost />
    </div>
  );
}
