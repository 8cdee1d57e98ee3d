import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { useToast } from '@/components/Toast';
import { resetAccount } from '@/features/account';
import { resetSelectedAddress } from '@/features/address';
import { resetCart } from '@/features/cart';
import { resetLocation } from '@/features/location';
import { forgetRefreshedStores, resetStoreSelection } from '@/features/store';
import { clearApiCache } from '@/lib/api';
import { useI18n } from '@/lib/i18n';

/** Resets every store and cache the app keeps between renders (tests start clean). */
export function resetApp(): void {
  clearApiCache();
  resetStoreSelection();
  resetLocation();
  resetAccount();
  resetSelectedAddress();
  resetCart();
  forgetRefreshedStores();
  useI18n.setState({ lang: 'zh' });
  useToast.getState().hide();
}

let currentPath = '';
function PathProbe() {
  const location = useLocation();
  currentPath = `${location.pathname}${location.search}`;
  return null;
}

export function pathNow(): string {
  return currentPath;
}

export function renderApp(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        <AppRoutes />
        <PathProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}
