import { Navigate, useNavigate } from 'react-router';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { CartBar } from '@/features/cart';
import { useCurrentStore } from '@/features/store';
import { SearchPage } from '@/features/search';
import { useT } from '@/lib/i18n';
import { usePageSwitch } from '../pageSwitch';

export function SearchRoute() {
  const t = useT();
  const navigate = useNavigate();
  const { store, error, reload } = useCurrentStore();
  const switches = usePageSwitch();
  if (!switches.productSearch) return <Navigate to="/menu" replace />;
  return (
    <>
      <Header title={t('search.title')} fallback="/menu" />
      {store ? (
        <>
          <SearchPage storeCode={store.storeCode} onOpenProduct={(code) => void navigate(`/product/${encodeURIComponent(code)}`)} />
          {/* Search shows the cart too (issue 22): what is in it, and checkout from here. */}
          <CartBar storeCode={store.storeCode} pageName="search" onCheckout={() => void navigate('/order/submit')} />
        </>
      ) : (
        <Loading page error={error?.message} reloadText={t('common.retry')} onReload={reload} />
      )}
    </>
  );
}
