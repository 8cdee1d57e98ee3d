import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useQuery } from '@/hooks/useQuery';
import { ERR, isApiError } from '@/lib/api';
import { now } from '@/lib/clock';
import { useLang } from '@/lib/i18n';
import type { Store } from '@/lib/api/types';
import { getDefaultStore, getStore } from '../api/stores';
import { isSavable, resolveCurrentStore, type StoreSource } from '../precedence';
import { useStoreSelection } from '../store/selection';

/** Stores re-read from the server this session, per language (names and notices are localised). */
const refreshed = new Set<string>();

export function forgetRefreshedStores(): void {
  refreshed.clear();
}

export interface CurrentStore {
  store: Store | null;
  source: StoreSource;
  loading: boolean;
  error: Error | null;
  reload: () => void;
}

/**
 * The store the customer orders from, by the precedence rule. Loads the fallback (default or
 * virtual store) when nothing better is known, and refreshes a remembered store once per session and
 * language so that its status and notices are current.
 */
export function useCurrentStore(): CurrentStore {
  const lang = useLang();
  const { scanned, scan, selected, gps, fallback } = useStoreSelection(
    useShallow((s) => ({ scanned: s.scanned, scan: s.scan, selected: s.selected, gps: s.gps, fallback: s.fallback })),
  );
  const resolved = resolveCurrentStore({ scanned, selected, gps, fallback, scanExpiresAt: scan?.expiresAt ?? null, now: now() });
  const needFallback = resolved.source !== 'scanned' && !isSavable(selected) && !isSavable(gps);
  const fallbackKey = needFallback && (!fallback || fallbackLang !== lang) ? `default:${lang}` : null;
  const fallbackQuery = useQuery(fallbackKey, (signal) => getDefaultStore(signal));

  useEffect(() => {
    if (fallbackQuery.data) {
      fallbackLang = lang;
      useStoreSelection.getState().setFallback(fallbackQuery.data);
    }
  }, [fallbackQuery.data, lang]);

  const source = resolved.source;
  const code = resolved.store?.storeCode ?? null;
  useEffect(() => {
    if (!code || (source !== 'selected' && source !== 'scanned' && source !== 'gps')) return undefined;
    const key = `${source}:${code}:${lang}`;
    if (refreshed.has(key)) return undefined;
    refreshed.add(key);
    const controller = new AbortController();
    let settled = false;
    getStore(code, controller.signal).then(
      (fresh) => {
        settled = true;
        const state = useStoreSelection.getState();
        if (source === 'selected') state.refreshSelected(fresh);
        else if (source === 'scanned') state.setScanned(fresh);
        else state.setGpsStore(fresh);
      },
      (e: unknown) => {
        settled = true;
        if (controller.signal.aborted) return;
        // The store is gone: forget it and fall back down the precedence.
        if (isApiError(e) && e.errCode === ERR.NOT_FOUND) {
          const state = useStoreSelection.getState();
          if (source === 'selected') state.clearSelected();
          else if (source === 'scanned') state.setScanned(null);
          else state.setGpsStore(null);
        } else {
          refreshed.delete(key);
        }
      },
    );
    return () => {
      // Interrupted before an answer: let the next run ask again.
      if (!settled) refreshed.delete(key);
      controller.abort();
    };
  }, [code, source, lang]);

  return {
    store: resolved.store,
    source,
    loading: resolved.store === null && (fallbackQuery.loading || fallbackKey !== null),
    error: resolved.store === null ? fallbackQuery.error : null,
    reload: fallbackQuery.reload,
  };
}

/** The language the fallback store was fetched in. */
let fallbackLang: string | null = null;
