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

  it('keeps a scan (store and desk) until its expiry, at most 3600 s, and forgets both together', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-01T00:00:00Z'));
    const scan = { storeName: '人民广场旗舰店', storeCode: 'SH001', deskNo: 'A12', sign: 's', expiresAt: Date.now() + 1800_000 };
    useStoreSelection.getState().setScanned(makeStore(), scan);
    resetStoreSelection();
    expect(useStoreSelection.getState().scan?.deskNo).toBe('A12');
    expect(useStoreSelection.getState().scanned?.storeCode).toBe('SH001');
    // A refresh of the store keeps the scan's expiry.
    useStoreSelection.getState().setScanned(makeStore({ businessNotice: 'new' }));
    vi.setSystemTime(new Date(Date.now() + 1800_000 + 1));
    resetStoreSelection();
    expect(useStoreSelection.getState().scan).toBeNull();
    expect(useStoreSelection.getState().scanned).toBeNull();
    useStoreSelection.getState().setScanned(makeStore(), { ...scan, expiresAt: Date.now() + 99 * 3600_000 });
    expect(useStoreSelection.getState().scan).not.toBeNull();
    useStoreSelection.getState().setScanned(null);
    expect(storage.get('store:scan')).toBeNull();
    expect(useStoreSelection.getState().scanned).toBeNull();
  });
});
