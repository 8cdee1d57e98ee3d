import { useCallback } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { SearchIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { MenuPage } from '@/features/menu';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { useT } from '@/lib/i18n';
import type { OrderType } from '@/types/api';
import { usePageSwitch } from '../pageSwitch';

export function MenuRoute() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { store, source, loading, error, reload } = useCurrentStore();
  const orderType = useStoreSelection((s) => s.orderType);
  const setOrderType = useStoreSelection((s) => s.setOrderType);
  const switches = usePageSwitch();
  const onOrderTypeChange = useCallback((type: OrderType) => setOrderType(type), [setOrderType]);

  // /menu?productCode=… or ?code=… opens that product (links from content, shares).
  const productCode = params.get('productCode') ?? params.get('code');
  if (productCode) return <Navigate to={`/product/${encodeURIComponent(productCode)}`} replace />;

  const right = switches.productSearch ? (
    <button type="button" className="hdr__btn" onClick={() => void navigate('/product/search')} aria-label={t('menu.search')}>
      <SearchIcon />
    </button>
  ) : null;

  return (
    <>
      <Header title={t('menu.title')} right={right} onBack={() => void navigate('/')} />
      {store ? (
        <MenuPage
          store={store}
          isVirtual={source === 'virtual'}
          orderType={orderType}
          onOrderTypeChange={onOrderTypeChange}
          onOpenProduct={(code) => void navigate(`/product/${encodeURIComponent(code)}`)}
          onChangeStore={() => void navigate('/findStore')}
        />
      ) : loading ? (
        <Loading page />
      ) : error ? (
        <Loading page error={error.message} reloadText={t('common.retry')} onReload={reload} />
      ) : (
        <Empty
          text={t('home.noStore')}
          action={
            <button type="button" className="btn btn--primary" onClick={() => void navigate('/findStore')}>
              {t('menu.chooseStore')}
            </button>
          }
        />
      )}
    </>
  );
}
