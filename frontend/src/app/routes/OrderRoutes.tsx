import { useNavigate, useSearchParams } from 'react-router';
import { OrderStatusPage } from '@/features/order';
import { useCurrentStore } from '@/features/store';
import { useLang } from '@/lib/i18n';
import { storeName } from '@/utils/storeDisplay';

/** /order/status?orderNo=… */
export function OrderStatusRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const lang = useLang();
  const { store } = useCurrentStore();
  return (
    <OrderStatusPage
      orderNo={params.get('orderNo') ?? ''}
      storeNameFallback={(code) => (store && store.storeCode === code ? storeName(store, lang) : null)}
      onContinue={() => void navigate('/menu')}
    />
  );
}
