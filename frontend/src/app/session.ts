import { useCallback } from 'react';
import { useAccount } from '@/features/account';
import { useSelectedAddress } from '@/features/address';
import { useStoreSelection } from '@/features/store';
import { addHeaderProvider, setAuthTokenGetter } from '@/lib/api';
import { setSocketAuth } from '@/lib/socket';

/**
 * Wires the account into the api client (lib knows no feature): the bearer token, and the
 * address of the order in progress as X-Selected-Address-Id. The "/" socket's handshake
 * `auth: {token}` reads the same token at every (re)connect (no socket is opened here).
 */
export function wireApiSession(): void {
  setAuthTokenGetter(() => useAccount.getState().token);
  setSocketAuth('/', () => useAccount.getState().token);
  addHeaderProvider(() => {
    const id = useSelectedAddress.getState().address?.id;
    return { 'X-Selected-Address-Id': useAccount.getState().token && id ? String(id) : null };
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
