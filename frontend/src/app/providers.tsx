import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingVariantProvider } from '@/components/Loading';
import { useCurrentStore } from '@/features/store';
import { useLang } from '@/lib/i18n';
import { offersDelivery } from '@/utils/storeDisplay';
import { wireApiSession } from './session';

wireApiSession();

/**
 * App-wide context: the document language, and for the customer app the loading animation of the
 * current store (delivery scooter when it offers delivery). The store tablet has no customer
 * store to resolve, so it does not load one.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const lang = useLang();
  const { pathname } = useLocation();
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  if (pathname === '/tablet' || pathname.startsWith('/tablet/')) return children;
  return <CustomerProviders>{children}</CustomerProviders>;
}

function CustomerProviders({ children }: { children: ReactNode }) {
  const { store } = useCurrentStore();
  return <LoadingVariantProvider variant={offersDelivery(store) ? 'delivery' : 'pizza'}>{children}</LoadingVariantProvider>;
}
