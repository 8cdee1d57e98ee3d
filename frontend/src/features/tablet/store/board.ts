/**
 * The board's live state: the queue (through the pure reducer), the store's status and sold-out
 * list, and the steps this tablet may undo. Socket events and action answers land here; the
 * snapshot is reloaded one at a time (a reload asked while one runs runs once more after it).
 */
import { create } from 'zustand';
import { isApiError } from '@/lib/api';
import { fetchQueue, fetchStore } from '../api/tablet';
import { customerCancelled, withAlert } from '../cancel';
import { isStoreStatus } from '../parse';
import { EMPTY_QUEUE, omit, queueReducer, type QueueAction, type QueueState } from '../queue';
import { undoMarkFor, type UndoMark } from '../timing';
import { useTabletSession } from './session';
import type { StoreBoard, StorePresence, StoreUpdate, TabletOrder } from '../types';

export interface BoardState {
  queue: QueueState;
  /** The first snapshot arrived. */
  loaded: boolean;
  /** The last snapshot failed (the board keeps what it had). */
  loadError: string | null;
  store: StoreBoard | null;
  /** Steps this tablet made and may take back, by orderNo. */
  undo: Record<string, UndoMark>;
  /** Orders their customer cancelled while on this board, until the crew acknowledges each. */
  cancelAlerts: TabletOrder[];
  acknowledge: (orderNo: string) => void;
  dispatch: (action: QueueAction) => void;
  /** Reloads the queue snapshot (and the store board) and merges it. */
  reload: () => Promise<void>;
  /** An action's answer: the order as it now stands; `stepped` marks a step this tablet may undo. */
  adopt: (order: TabletOrder, stepped?: 'advance' | 'undo') => void;
  setStore: (store: StoreBoard) => void;
  storeUpdate: (update: StoreUpdate) => void;
  presence: (presence: StorePresence) => void;
  reset: () => void;
}

let running: Promise<void> | null = null;
let again = false;
/** Bumped by reset (logout): a snapshot asked before it is dropped. */
let generation = 0;

export const useBoard = create<BoardState>((set, get) => {
  const dispatch = (action: QueueAction) => {
    const cancelled = customerCancelled(get().queue, action);
    if (cancelled) set({ cancelAlerts: withAlert(get().cancelAlerts, cancelled) });
    const { state, refetch } = queueReducer(get().queue, action);
    if (state !== get().queue) set({ queue: state });
    if (refetch) void get().reload();
  };

  const loadOnce = async () => {
    const askedAt = get().queue.rev;
    const gen = generation;
    try {
      const [orders, store] = await Promise.all([fetchQueue(), fetchStore().catch((e: unknown) => (isApiError(e) && e.isAuth ? Promise.reject(e) : null))]);
      if (gen !== generation) return;
      dispatch({ type: 'snapshot', orders, askedAt });
      set({ loaded: true, loadError: null });
      if (store) get().setStore(store);
    } catch (e) {
      if (gen !== generation) return;
      set({ loadError: e instanceof Error ? e.message : String(e) });
    }
  };

  return {
    queue: EMPTY_QUEUE,
    loaded: false,
    loadError: null,
    store: null,
    undo: {},
    cancelAlerts: [],
    acknowledge: (orderNo) => set({ cancelAlerts: get().cancelAlerts.filter((o) => o.orderNo !== orderNo) }),
    dispatch,
    reload: () => {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await loadOnce();
        } while (again);
      })().finally(() => {
        running = null;
      });
      return running;
    },
    adopt: (order, stepped) => {
      dispatch({ type: 'upsert', order });
      const mark = stepped === 'advance' ? undoMarkFor(order) : null;
      const rest = omit(get().undo, order.orderNo);
      set({ undo: mark ? { ...rest, [order.orderNo]: mark } : rest });
    },
    setStore: (store) => set({ store: { ...store, soldOut: store.soldOut ?? [] } }),
    storeUpdate: (u) => {
      const store = get().store;
      if (!store || store.storeCode !== u.storeCode) return;
      set({ store: { ...store, status: isStoreStatus(u.status) ? u.status : store.status, notice: u.notice, soldOut: u.soldOut } });
    },
    presence: (p) => {
      const store = get().store;
      if (!store || store.storeCode !== p.storeCode) return;
      set({ store: { ...store, tabletsOnline: p.tabletsOnline, noTabletSince: p.noTabletSince } });
    },
    reset: () => {
      again = false;
      generation += 1;
      set({ queue: EMPTY_QUEUE, loaded: false, loadError: null, store: null, undo: {}, cancelAlerts: [] });
    },
  };
});

export function resetBoard(): void {
  useBoard.getState().reset();
}

// Another staff session (logout, expiry, a login to another store) never sees this one's board.
useTabletSession.subscribe((s, prev) => {
  if (s.session?.token !== prev.session?.token) resetBoard();
});
