import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ToastHost } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { isGrayPage, usePageSwitch } from '../pageSwitch';
import { routeMeta } from '../routeMeta';

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

  const switches = usePageSwitch();
  const gray = isGrayPage(switches.grayPageList, location.pathname, meta.pageCode);
  useEffect(() => {
    document.documentElement.style.filter = gray ? 'grayscale(1)' : '';
  }, [gray]);

  useEffect(() => {
    document.title = meta.title ? `${t(meta.title)} · ${t('app.name')}` : t('app.name');
  }, [meta.title, t]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  return (
    <div className="app-col">
      <div key={location.pathname} className={direction ? `page-enter-${direction}` : undefined}>
        <Outlet />
      </div>
      <ToastHost />
    </div>
  );
}
