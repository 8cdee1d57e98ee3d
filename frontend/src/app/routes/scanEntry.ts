import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { readTableLink } from '@/lib/channel';

/** The link being verified (StrictMode runs effects twice; the scan must be sent once). */
let inFlight: string | null = null;

/**
 * Scan-to-order (spec ordering §4): /menu or / opened with storeName, storeCode, deskNo and sign.
 * The link is verified by `verifyScan` (./scanVerify, a chunk of its own with the cart store it
 * needs: the home page's first load only reads the query). Answers whether a scan is being handled.
 */
export function useScanEntry(): boolean {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const input = readTableLink(params);
  const key = input ? `${input.storeCode}|${input.deskNo}|${input.sign}` : null;

  useEffect(() => {
    if (!input || !key || inFlight === key) return;
    inFlight = key;
    const pathname = location.pathname;
    void import('./scanVerify')
      .then(({ verifyScan }) => verifyScan(input, (to) => void navigate(to, { replace: true }), pathname))
      .finally(() => {
        inFlight = null;
      });
    // The link's identity is the key; the rest is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return input !== null;
}
