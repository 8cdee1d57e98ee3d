import { useNavigate, useParams } from 'react-router';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { CART_ERROR_TOAST_MS, cartToast, useCart } from '@/features/cart';
import { ProductBuilder, type AddedItem } from '@/features/product';
import { useCurrentStore, useStoreSelection } from '@/features/store';
import { useT } from '@/lib/i18n';

export function ProductRoute() {
  const t = useT();
  const navigate = useNavigate();
  const { productCode = '' } = useParams();
  const { store, source, loading, error, reload } = useCurrentStore();
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

  /** Into the cart (the server prices it), then back to the menu with its cart bar. */
  const add = async (item: AddedItem) => {
    if (source === 'virtual') {
      // The virtual store only shows a sample menu: a real store first.
      showToast(t('cart.chooseStoreFirst'), CART_ERROR_TOAST_MS);
      void navigate('/findStore');
      return;
    }
    const result = cartToast(
      await useCart
        .getState()
        .add([{ productCode: item.product.productCode, selection: item.selection }], { storeCode: store.storeCode, serviceMethod: type }),
      t('cart.added'),
    );
    if (!result.ok) return;
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/menu', { replace: true });
  };

  return <ProductBuilder productCode={productCode} storeCode={store.storeCode} orderType={type} onAdd={(item) => void add(item)} />;
}
