/**
 * The visitor's cart token (docs cart-and-checkout "Whose cart"). The first cart call without one
 * issues a token (response header `X-Cart-Token`, and the cart's `cartToken` field); the app keeps
 * it in localStorage and the client sends it as `X-Cart-Token` on every request while it is known.
 * A login merges that cart into the user's and retires the token: the app forgets it then.
 */
import { storage } from '../storage';

export const CART_TOKEN_HEADER = 'X-Cart-Token';
const KEY = 'cart:token';

type Listener = (token: string | null) => void;
const listeners = new Set<Listener>();

/** Read from storage each time: a 407 clears storage, and another tab may have been issued one. */
export function getCartToken(): string | null {
  const v = storage.get<string>(KEY);
  return typeof v === 'string' && v ? v : null;
}

/** Keeps (or, with null, forgets) the token; listeners hear about a change only. */
export function setCartToken(token: string | null): void {
  const before = getCartToken();
  if (token) storage.set(KEY, token);
  else storage.remove(KEY);
  if (before !== (token || null)) {
    for (const listener of [...listeners]) listener(token || null);
  }
}

export function forgetCartToken(): void {
  setCartToken(null);
}

/** Hears every change of the token (issued, replaced, forgotten); returns the remover. */
export function onCartTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
