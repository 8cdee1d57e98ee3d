/**
 * The connection status of each namespace, for the UI (ConnectionBadge) and for features that
 * want to know whether live updates are flowing.
 */
import { create } from 'zustand';
import { NAMESPACES, type Namespace } from './events';

/**
 * - idle: no feature has opened this namespace yet (or it was closed on purpose)
 * - connecting: the first connection is being made
 * - connected
 * - reconnecting: the connection dropped; the client retries with backoff
 * - offline: the browser is offline (`reason: 'network'`), or the client stopped retrying because
 *   the server refused or closed the connection (`reason: 'refused'`; `reconnectSocket` tries again)
 */
export type SocketStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline';
export type OfflineReason = 'network' | 'refused';

export interface NamespaceStatus {
  status: SocketStatus;
  /** Set when status is 'offline'. */
  reason: OfflineReason | null;
  /** Local epoch ms of the last successful connect, or null. */
  lastConnectedAt: number | null;
  /** The message of the last connect error (a refused handshake says why). */
  lastError: string | null;
}

export type SocketStatusState = Record<Namespace, NamespaceStatus>;

export const INITIAL_STATUS: NamespaceStatus = { status: 'idle', reason: null, lastConnectedAt: null, lastError: null };

function initial(): SocketStatusState {
  return Object.fromEntries(NAMESPACES.map((ns) => [ns, INITIAL_STATUS])) as SocketStatusState;
}

/** All namespaces; most callers want `useSocketStatus(namespace)`. */
export const socketStatusStore = create<SocketStatusState>(() => initial());

export function setNamespaceStatus(ns: Namespace, patch: Partial<NamespaceStatus>): void {
  socketStatusStore.setState((s) => ({ [ns]: { ...s[ns], ...patch } }) as Partial<SocketStatusState>);
}

export function getSocketStatus(ns: Namespace): NamespaceStatus {
  return socketStatusStore.getState()[ns];
}

/** The status of one namespace; re-renders when it changes. */
export function useSocketStatus(ns: Namespace = '/'): NamespaceStatus {
  return socketStatusStore((s) => s[ns]);
}

export function resetSocketStatus(): void {
  socketStatusStore.setState(initial(), true);
}
