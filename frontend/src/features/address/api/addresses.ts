import { apiDelete, apiGet, apiPost, apiPut } from '@/lib/api';
import type { Address, AddressInput, SmartRead } from '@/lib/api/types';

export function listAddresses(signal?: AbortSignal): Promise<Address[]> {
  return apiGet<Address[]>('/addresses', { signal });
}

export function getAddress(id: number, signal?: AbortSignal): Promise<Address> {
  return apiGet<Address>(`/addresses/${id}`, { signal });
}

export function createAddress(input: AddressInput): Promise<Address> {
  return apiPost<Address>('/addresses', input);
}

export function updateAddress(id: number, input: AddressInput): Promise<Address> {
  return apiPut<Address>(`/addresses/${id}`, input);
}

/** The server refuses the default address and the selected one (X-Selected-Address-Id, sent by the client). */
export function deleteAddress(id: number): Promise<null> {
  return apiDelete<null>(`/addresses/${id}`);
}

export function setDefaultAddress(id: number): Promise<Address> {
  return apiPost<Address>(`/addresses/${id}/default`);
}

export function smartRead(text: string): Promise<SmartRead> {
  return apiPost<SmartRead>('/addresses/smart-read', { text });
}
