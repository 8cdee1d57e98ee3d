import { useCallback, useEffect, useRef, useState } from 'react';
import type { Coupon } from '@/lib/api/types';
import { listCoupons, type CouponTab } from '../api/coupons';

export interface CouponList {
  items: Coupon[];
  total: number;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  /** Whether the items are for the tab and language asked (not the previous ones). */
  current: boolean;
  more: () => void;
  /** Reads the tab again from its first page (after a collect, an exchange, a transfer). */
  reload: () => void;
}

interface State {
  key: string;
  items: Coupon[];
  page: number;
  total: number;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
}

/** The coupons of a tab, page after page; `key` names the tab and language (a change starts over). */
export function useCouponList(tab: CouponTab, key: string): CouponList {
  const [state, setState] = useState<State>({ key, items: [], page: 0, total: 0, hasMore: false, loading: true, error: null });
  const [nonce, setNonce] = useState(0);
  const wanted = useRef(1);
  const loadedPage = useRef(0);

  // A new tab or language starts at its first page (declared first: it runs before the read).
  useEffect(() => {
    wanted.current = 1;
  }, [key]);

  useEffect(() => {
    const controller = new AbortController();
    const page = wanted.current;
    setState((s) => (s.key === key ? { ...s, loading: true, error: null } : { key, items: [], page: 0, total: 0, hasMore: false, loading: true, error: null }));
    listCoupons(tab, page, controller.signal).then(
      (res) => {
        loadedPage.current = res.page;
        setState((s) => {
          const before = s.key === key && page > 1 ? s.items : [];
          const seen = new Set(before.map((c) => c.couponCode));
          return { key, items: [...before, ...res.list.filter((c) => !seen.has(c.couponCode))], page: res.page, total: res.total, hasMore: res.hasMore, loading: false, error: null };
        });
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, key, loading: false, error: e instanceof Error ? e.message : String(e) }));
      },
    );
    return () => controller.abort();
  }, [key, tab, nonce]);

  const more = useCallback(() => {
    wanted.current = loadedPage.current + 1;
    setNonce((n) => n + 1);
  }, []);
  const reload = useCallback(() => {
    wanted.current = 1;
    setNonce((n) => n + 1);
  }, []);

  const current = state.key === key;
  return {
    items: current ? state.items : [],
    total: current ? state.total : 0,
    hasMore: current && state.hasMore,
    loading: !current || state.loading,
    error: current ? state.error : null,
    current,
    more,
    reload,
  };
}
