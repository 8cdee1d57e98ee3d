import { useParams } from 'react-router';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { ProductBuilder } from '@/features/product';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { useT } from '@/lib/i18n';

export function ProductRoute() {
  const t = useT();
  const { productCode = '' } = useParams();
  const { store, loading, error, reload } = useCurrentStore();
  const orderType = useStoreSelection((s) => s.orderType);
  if (!store) {
    return (
      <>
        <Header title="" />
        <Loading page error={loading ? undefined : error?.message} reloadText={t('common.retry')} onReload={reload} />
      </>
    );
  }
  const type = store.serviceMethods.includes(orderType) ? orderType : ((store.serviceMethods[0] ?? 0) as 0 | 1 | 2);
  return (
    <ProductBuilder
      productCode={productCode}
      storeCode={store.storeCode}
      orderType={type}
      // The cart is a later task.
      onAdd={() => showToast(t('product.cartSoon'), 2000)}
    />
  );
}
