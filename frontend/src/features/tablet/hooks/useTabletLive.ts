import { useEffect } from 'react';
import { closeSocket, getSocket, isSocketConnected, onResync, socketStatusStore, subscribe } from '@/lib/socket';
import { parseOrder, parseProgress, parsePresence, parseStoreUpdate } from '../parse';
import { useBoard } from '../store/board';
import { staffToken } from '../store/session';

/**
 * A safety net under the socket: the snapshot is merged again this often while connected, and
 * more often while not (a new order must show within seconds even with the socket down).
 */
export const SNAPSHOT_EVERY_MS = 60_000;
export const SNAPSHOT_OFFLINE_EVERY_MS = 15_000;
const POLL_CHECK_MS = 5000;

/**
 * Keeps the board live for the logged-in staff token: the "/store" socket's events go into the
 * board, the snapshot is loaded now, after every reconnect the server did not recover (missed
 * events are lost), and every minute (every 15 s while the socket is down). A refused handshake reloads too: if the session is gone,
 * the REST answer (401) sends the screen back to login.
 */
export function useTabletLive(token: string | null): void {
  useEffect(() => {
    if (!token) return undefined;
    const board = useBoard.getState();
    // Closed on the way out, so a new login's socket reads its own token at the handshake.
    getSocket('/store', staffToken);
    let lastLoad = Date.now();
    const load = () => {
      lastLoad = Date.now();
      void board.reload();
    };
    const offs = [
      subscribe('/store', 'order:new', (p) => {
        const order = parseOrder(p);
        if (order) board.dispatch({ type: 'upsert', order });
      }),
      subscribe('/store', 'order:updated', (p) => {
        const order = parseOrder(p);
        if (order) board.dispatch({ type: 'upsert', order });
      }),
      subscribe('/store', 'order:progress', (p) => {
        const event = parseProgress(p);
        if (event) board.dispatch({ type: 'progress', event });
      }),
      subscribe('/store', 'store:update', (p) => {
        const update = parseStoreUpdate(p);
        if (update) board.storeUpdate(update);
      }),
      subscribe('/store', 'store:presence', (p) => {
        const presence = parsePresence(p);
        if (presence) board.presence(presence);
      }),
      onResync('/store', () => load()),
      socketStatusStore.subscribe((s, prev) => {
        const now = s['/store'];
        if (now.status === 'offline' && now.reason === 'refused' && prev['/store'].reason !== 'refused') load();
      }),
    ];
    load();
    const timer = setInterval(() => {
      const every = isSocketConnected('/store') ? SNAPSHOT_EVERY_MS : SNAPSHOT_OFFLINE_EVERY_MS;
      if (Date.now() - lastLoad >= every) load();
    }, POLL_CHECK_MS);
    return () => {
      clearInterval(timer);
      for (const off of offs) off();
      closeSocket('/store');
    };
  }, [token]);
}
