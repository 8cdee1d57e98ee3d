import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { makeStore, virtualStore } from '@/test/fixtures';
import { resetStoreSelection, SELECTED_STORE_TTL_S, useStoreSelection } from './selection';

beforeEach(() => resetStoreSelection());
afterEach(() => vi.useRealTimers());

describe('store selection', () => {
  it('remembers a real store with an expiry', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-01T00:00:00Z'));
    expect(useStoreSelection.getState().selectStore(makeStore())).toBe(true);
    resetStoreSelection();
    expect(useStoreSelection.getState().selected?.storeCode).toBe('SH001');
    vi.setSystemTime(new Date(Date.now() + SELECTED_STORE_TTL_S * 1000 + 1));
    resetStoreSelection();
    expect(useStoreSelection.getState().selected).toBeNull();
  });

  it('never saves the virtual store', () => {
    expect(useStoreSelection.getState().selectStore(virtualStore)).toBe(false);
    expect(useStoreSelection.getState().selected).toBeNull();
    expect(storage.get('store:selected')).toBeNull();
  });

  it('refreshes only the same store', () => {
    useStoreSelection.getState().selectStore(makeStore());
    useStoreSelection.getState().refreshSelected(makeStore({ storeCode: 'OTHER' }));
    expect(useStoreSelection.getState().selected?.storeCode).toBe('SH001');
    useStoreSelection.getState().refreshSelected(makeStore({ status: 'closed' }));
    expect(useStoreSelection.getState().selected?.status).toBe('closed');
  });

  it('keeps the order type', () => {
    useStoreSelection.getState().setOrderType(1);
    resetStoreSelection();
    expect(useStoreSelection.getState().orderType).toBe(1);
  });
});
