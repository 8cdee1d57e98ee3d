import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { showToast } from '@/components/Toast';
import { getStore, useStoreSelection } from '@/features/store';
import type { ScanInput } from '@/lib/api/types';

const SCAN_PARAMS = ['storeName', 'storeCode', 'deskNo', 'sign'] as const;

/** A table QR link's query (all four parameters), or null. */
export function readScanParams(params: URLSearchParams): ScanInput | null {
  const [storeName, storeCode, deskNo, sign] = SCAN_PARAMS.map((k) => params.get(k)?.trim() ?? '');
  if (!storeName || !storeCode || !deskNo || !sign) return null;
  return { storeName, storeCode, deskNo, sign };
}

/** The link being verified (StrictMode runs effects twice; the scan must be sent once). */
let inFlight: string | null = null;

/**
 * Scan-to-order (spec ordering §4): /menu or / opened with storeName, storeCode, deskNo and sign.
 * POST /orders/scan verifies the link and sets the cart to that store, dine-in, that desk; the
 * store becomes the scanned-in store (first in the precedence) with the desk, for 3600 s, and the
 * order type is forced to dine-in. Then the menu, without the parameters. Answers whether a scan is
 * being handled.
 */
export function useScanEntry(): boolean {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const input = readScanParams(params);
  const key = input ? `${input.storeCode}|${input.deskNo}|${input.sign}` : null;

  useEffect(() => {
    if (!input || !key || inFlight === key) return;
    inFlight = key;
    const pathname = location.pathname;
    void (async () => {
      try {
        // The cart store is a chunk of its own: only a scan needs it here.
        const { useCart, CART_ERROR_TOAST_MS } = await import('../cartStore');
        const result = await useCart.getState().scan(input);
        if (!result.ok) {
          if (!result.blocked) showToast(result.error.message, CART_ERROR_TOAST_MS);
          void navigate(pathname, { replace: true });
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
        void navigate('/menu', { replace: true });
      } finally {
        inFlight = null;
      }
    })();
    // The link's identity is the key; the rest is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return input !== null;
}
