import { useCallback } from 'react';
import { useAccount } from '@/features/account';
import { useSelectedAddress } from '@/features/address';
import { useStoreSelection } from '@/features/store';
import { addHeaderProvider, forgetCartToken, getCartToken, onCartTokenChange, setAuthTokenGetter } from '@/lib/api';
import { setScanModeGetter } from '@/lib/channel';
import { now } from '@/lib/clock';
import { getLang } from '@/lib/i18n';
import { reconnectSocket, setSocketAuth, setSocketAuthExtra } from '@/lib/socket';

/** The cart's state, from its chunk (not in the home page's first load). */
const cartState = () => import('./cartStore').then((m) => m.useCart.getState());

/**
 * Wires the account into the api client (lib knows no feature): the bearer token, the address
 * of the order in progress as X-Selected-Address-Id, and whether a scan-to-order table is in
 * effect (the subchannel ORDER_QR while the scan lasts, lib/channel). The "/" socket's handshake
 * `auth: {token, cartToken, lang}` reads the same tokens at every (re)connect (no socket is opened here);
 * when either changes, an open socket reconnects so the server puts it in the right rooms
 * (`user:{id}`, `cart:{token}`) for `cart:updated`.
 *
 * The cart follows the session: a login forgets the visitor's cart token (the server merged that
 * cart into the user's) and re-reads the cart; a logout forgets the cart shown. The cart store is
 * fetched for that (a chunk the pages that show the cart share).
 */
export function wireApiSession(): void {
  setAuthTokenGetter(() => useAccount.getState().token);
  setSocketAuth('/', () => useAccount.getState().token);
  // `lang`: the words the server puts in what it sends unasked (a refund reason…) follow the app's language.
  setSocketAuthExtra('/', () => ({ cartToken: useAccount.getState().token ? null : getCartToken(), lang: getLang() }));
  setScanModeGetter(() => {
    const scan = useStoreSelection.getState().scan;
    return scan !== null && now() < scan.expiresAt;
  });
  addHeaderProvider(() => {
    const id = useSelectedAddress.getState().address?.id;
    return { 'X-Selected-Address-Id': useAccount.getState().token && id ? String(id) : null };
  });
  onCartTokenChange(() => reconnectSocket('/'));
  useAccount.subscribe((state, prev) => {
    if (state.token === prev.token) return;
    if (state.token && !prev.token) {
      // At once: no request of the signed-in user may still carry the visitor's cart token.
      forgetCartToken();
      void cartState().then((cart) => cart.afterLogin());
    } else if (!state.token) void cartState().then((cart) => cart.reset());
    reconnectSocket('/');
  });
}

/** What a logout clears besides the session (spec account §4): store and address data. */
export function clearUserData(): void {
  useSelectedAddress.getState().clear();
  useStoreSelection.getState().clearSelected();
}

export function useSignedOut(): () => void {
  return useCallback(() => clearUserData(), []);
}
