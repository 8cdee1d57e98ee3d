import { showToast } from '@/components/Toast';
import type { CartResult } from '../store/cart';

/** Cart toasts last 2 s, errors 3 s (spec ordering §9). */
export const CART_TOAST_MS = 2000;
export const CART_ERROR_TOAST_MS = 3000;

/**
 * Tells the customer how a cart action went: the success text (if any) for 2 s, the server's reason
 * for 3 s. A refused double tap (another action in flight) says nothing.
 */
export function cartToast<T>(result: CartResult<T>, success?: string): CartResult<T> {
  if (result.ok) {
    if (success) showToast(success, CART_TOAST_MS);
  } else if (!result.blocked) {
    showToast(result.error.message, CART_ERROR_TOAST_MS);
  }
  return result;
}
