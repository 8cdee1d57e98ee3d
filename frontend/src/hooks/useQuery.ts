import { useCallback, useEffect, useRef, useState } from 'react';

export interface QueryState<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  /** Runs the fetcher again. */
  reload: () => void;
}

/**
 * Runs `fetcher` whenever `key` changes (null: do nothing) and keeps the latest answer. Answers
 * that arrive for an older key are dropped, so a quick language or store switch cannot show stale data.
 */
export function useQuery<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>): QueryState<T> {
  const [state, setState] = useState<{ key: string | null; data: T | undefined; error: Error | null; loading: boolean }>(
    { key: null, data: undefined, error: null, loading: key !== null },
  );
  const [nonce, setNonce] = useState(0);
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    if (key === null) {
      setState({ key, data: undefined, error: null, loading: false });
      return undefined;
    }
    const controller = new AbortController();
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, error: null, loading: true }));
    fetcherRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key, data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ key, data: undefined, error: error instanceof Error ? error : new Error(String(error)), loading: false });
        }
      },
    );
    return () => controller.abort();
  }, [key, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : null,
    loading: key !== null && (!current || state.loading),
    reload,
  };
}
