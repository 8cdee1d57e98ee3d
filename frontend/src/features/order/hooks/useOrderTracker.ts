import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getLang, translate, useLang } from '@/lib/i18n';
import { emit, isSocketConnected, onResync, peekSocket, subscribe } from '@/lib/socket';
import type { OrderDetail } from '@/lib/api/types';
import { getOrder, watchOrder } from '../api/order';
import { stepLabelKey } from '../labels';
import { EMPTY_TRACKER, onProgress, onSnapshot, type Labels, type TrackerState } from '../tracking';

export interface OrderTracker {
  order: OrderDetail | null;
  error: Error | null;
  /** A snapshot is on its way. */
  loading: boolean;
  /** Takes a fresh snapshot (after a cancel, a payment result, a retry). */
  refresh: () => void;
  /** Shows an order the server answered (e.g. POST cancel). */
  adopt: (order: OrderDetail) => void;
}

/** Snapshots in a row that still leave a gap before the tracker waits a moment. */
const MAX_QUICK_RESYNCS = 3;
const RESYNC_BACKOFF_MS = 1000;

function labelsFor(): Labels {
  const lang = getLang();
  return {
    step: (progress, orderType) => translate(lang, stepLabelKey(progress, orderType)),
    progress: (progress) => translate(lang, stepLabelKey(progress, 0)),
  };
}

/**
 * The live order of /order/status: the snapshot by `order:watch` (which also joins the order's
 * room; GET /orders/{orderNo} while the socket is not connected or the ack does not come), then
 * `order:progress` events by `seq`. A gap, a reconnect the server did not recover (onResync), or a
 * language switch takes the snapshot again.
 */
export function useOrderTracker(orderNo: string, viewToken?: string | null): OrderTracker {
  const lang = useLang();
  const [tracker, setTracker] = useState<TrackerState>(EMPTY_TRACKER);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(true);
  const state = useRef<TrackerState>(EMPTY_TRACKER);
  const snapshotRef = useRef<() => void>(() => undefined);

  const commit = useCallback((next: TrackerState) => {
    state.current = next;
    setTracker(next);
  }, []);

  useEffect(() => {
    if (!orderNo) return undefined;
    let alive = true;
    let inFlight = false;
    let again = false;
    let quick = 0;
    let joined = false;
    let watching = false;
    let backoff: ReturnType<typeof setTimeout> | undefined;
    commit(EMPTY_TRACKER);
    setError(null);
    setLoading(true);

    const fetchSnapshot = async (): Promise<OrderDetail> => {
      if (isSocketConnected('/')) {
        watching = true;
        try {
          const ack = await watchOrder(orderNo, viewToken);
          if (ack && ack.errCode === '00' && ack.order) {
            joined = true;
            return ack.order;
          }
        } catch {
          // No ack in time: the REST snapshot below.
        } finally {
          watching = false;
        }
      }
      return getOrder(orderNo, undefined, viewToken);
    };

    const snapshot = async () => {
      if (!alive) return;
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      setLoading(true);
      try {
        const detail = await fetchSnapshot();
        if (!alive) return;
        const step = onSnapshot(state.current, detail, labelsFor());
        commit(step.state);
        setError(null);
        if (step.resync) {
          quick += 1;
          if (quick <= MAX_QUICK_RESYNCS) again = true;
          else {
            clearTimeout(backoff);
            backoff = setTimeout(() => void snapshot(), RESYNC_BACKOFF_MS);
          }
        } else quick = 0;
      } catch (e) {
        if (alive && !state.current.order) setError(e instanceof Error ? e : new Error(String(e)));
      } finally {
        inFlight = false;
        if (alive) setLoading(false);
        if (alive && again) {
          again = false;
          void snapshot();
        }
      }
    };
    snapshotRef.current = () => {
      quick = 0;
      void snapshot();
    };

    const offProgress = subscribe('/', 'order:progress', (ev) => {
      if (!ev || ev.orderNo !== orderNo) return;
      const step = onProgress(state.current, ev, labelsFor());
      if (step.state !== state.current) commit(step.state);
      if (step.resync) void snapshot();
    });
    // Missed events are lost and the room is gone: watch again.
    const offResync = onResync('/', () => void snapshot());
    // A connect that recovered the session keeps the room — unless this page never joined it.
    const offConnect = subscribe('/', 'connect', () => {
      if (watching) return;
      if (!joined || peekSocket('/')?.recovered !== true) void snapshot();
    });
    void snapshot();

    return () => {
      alive = false;
      clearTimeout(backoff);
      offProgress();
      offResync();
      offConnect();
      snapshotRef.current = () => undefined;
      if (joined && isSocketConnected('/')) emit('/', 'order:unwatch', { orderNo });
    };
  }, [orderNo, viewToken, commit]);

  // The labels come in the request's language.
  const firstLang = useRef(lang);
  useEffect(() => {
    if (firstLang.current === lang) return;
    firstLang.current = lang;
    snapshotRef.current();
  }, [lang]);

  const refresh = useCallback(() => snapshotRef.current(), []);
  const adopt = useCallback(
    (order: OrderDetail) => {
      const step = onSnapshot(state.current, order, labelsFor());
      commit(step.state);
      if (step.resync) snapshotRef.current();
    },
    [commit],
  );

  return useMemo(
    () => ({ order: tracker.order && tracker.order.orderNo === orderNo ? tracker.order : null, error, loading, refresh, adopt }),
    [tracker.order, orderNo, error, loading, refresh, adopt],
  );
}
