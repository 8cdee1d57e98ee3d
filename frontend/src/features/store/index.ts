/** The store feature: finding, choosing and remembering the store the customer orders from. */
export { StoreFinder, type NearActions, type StoreFinderProps } from './components/StoreFinder';
export { StoreCard } from './components/StoreCard';
export { useStoreLive } from './hooks/useStoreLive';
export { useCurrentStore, forgetRefreshedStores, type CurrentStore } from './hooks/useCurrentStore';
export { useStoreSelection, resetStoreSelection, SCANNED_STORE_TTL_S, type ScanInfo } from './store/selection';
export { resolveCurrentStore, isVirtualStore, isSavable, VIRTUAL_STORE_CODE, type StoreSource } from './precedence';
export { getStore, getDefaultStore } from './api/stores';
