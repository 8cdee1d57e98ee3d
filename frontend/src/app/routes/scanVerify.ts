import { showToast } from '@/components/Toast';
import { getStore, useStoreSelection } from '@/features/store';
import type { ScanInput } from '@/lib/api/types';
import { CART_ERROR_TOAST_MS, useCart } from '../cartStore';

/**
 * A table QR link verified (spec ordering §4): POST /orders/scan sets the cart to that store,
 * dine-in, that desk; the store becomes the scanned-in store (first in the precedence) with the
 * desk, for 3600 s, and the order type is forced to dine-in. Then the menu, without the
 * parameters; a refused link leaves the page it was on, without them.
 */
export async function verifyScan(input: ScanInput, go: (to: string) => void, pathname: string): Promise<void> {
  const result = await useCart.getState().scan(input);
  if (!result.ok) {
    if (!result.blocked) showToast(result.error.message, CART_ERROR_TOAST_MS);
    go(pathname);
    return;
  }
  const reply = result.data;
  const selection = useStoreSelection.getState();
  try {
    const store = await getStore(reply.storeCode);
    selection.setScanned(store, {
      storeName: reply.storeName,
      storeCode: reply.storeCode,
      deskNo: reply.deskNo,
      sign: input.sign,
      expiresAt: reply.expiresAt,
    });
  } catch (e) {
    showToast(e instanceof Error ? e.message : String(e), CART_ERROR_TOAST_MS);
  }
  selection.setOrderType(2);
  go('/menu');
}
