import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { ToastHost } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { RouteSuspense } from '../lazyRoute';

/**
 * The store tablet's frame: the whole 1280×800 landscape screen, none of the customer layout
 * (no phone column, page slides, grey pages, customer session dialogs or payment resume).
 */
export function TabletLayout() {
  const t = useT();
  useEffect(() => {
    document.title = `${t('tablet.title')} · ${t('app.name')}`;
  }, [t]);
  useEffect(() => {
    // A grey-page switch set by the customer layout earlier in this page must not dim the board.
    document.documentElement.style.filter = '';
  }, []);
  return (
    <div className="tab-app">
      <RouteSuspense>
        <Outlet />
      </RouteSuspense>
      <ToastHost />
    </div>
  );
}
