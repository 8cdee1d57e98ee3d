import { pickLang, type Lang } from '@/lib/i18n';
import type { Store } from '@/lib/api/types';

export function storeName(store: Store, lang: Lang): string {
  return pickLang(lang, store.storeNameCN, store.storeNameEN) || store.storeName;
}

export function storeAddress(store: Store, lang: Lang): string {
  return pickLang(lang, store.storeAddressCN, store.storeAddressEN) || store.storeAddress;
}

/** open / busy / closed as shown: a store outside its hours is closed even when its status says open. */
export function storeState(store: Store): 'open' | 'busy' | 'closed' {
  if (store.status === 'closed' || !store.isOpen) return 'closed';
  return store.status === 'busy' ? 'busy' : 'open';
}

export function offersDelivery(store: Store | null | undefined): boolean {
  return !!store && store.serviceMethods.includes(0);
}
