import { useEffect, type ReactNode } from 'react';
import { LoadingVariantProvider } from '@/components/Loading';
import { useCurrentStore } from '@/features/store';
import { useLang } from '@/lib/i18n';
import { offersDelivery } from '@/utils/storeDisplay';
import { wireApiSession } from './session';

wireApiSession();

/**
 * App-wide context: the document language, and the loading animation of the current store
 * (delivery scooter when it offers delivery).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const lang = useLang();
  const { store } = useCurrentStore();
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  return <LoadingVariantProvider variant={offersDelivery(store) ? 'delivery' : 'pizza'}>{children}</LoadingVariantProvider>;
}
