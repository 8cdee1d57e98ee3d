/**
 * The address chosen for the order in progress. Kept in localStorage; sent as
 * X-Selected-Address-Id (the app installs the header provider), so the server refuses to delete it.
 */
import { create } from 'zustand';
import { storage } from '@/lib/storage';
import type { Address } from '@/lib/api/types';

const KEY = 'address:selected';

interface SelectedAddressState {
  address: Address | null;
  select: (address: Address) => void;
  clear: () => void;
}

export const useSelectedAddress = create<SelectedAddressState>((set) => ({
  address: storage.get<Address>(KEY),
  select: (address) => {
    storage.set(KEY, address);
    set({ address });
  },
  clear: () => {
    storage.remove(KEY);
    set({ address: null });
  },
}));

export function selectedAddressId(): number | null {
  return useSelectedAddress.getState().address?.id ?? null;
}

export function resetSelectedAddress(): void {
  useSelectedAddress.setState({ address: storage.get<Address>(KEY) });
}
