/**
 * The Socket.IO client of the app: one shared socket per namespace ("/" customers, "/store"
 * tablets), created and connected the first time a feature asks for it — pages that need no live
 * updates open no connection.
 *
 * - WebSocket first, long-polling as the fallback (no sticky routing needed when WebSocket works).
 * - Reconnection with randomised exponential backoff, forever; the handshake `auth: {token}` is read
 *   from a getter at every (re)connect, so a new token is used without re-creating the socket.
 * - The status of each namespace is kept in `socketStatusStore` (see status.ts), browser
 *   online/offline events included.
 * - `onResync` listeners run on the first connect after a page load and after every reconnect the
 *   server could not recover (`socket.recovered === false`): missed events are lost and server-side
 *   rooms are gone, so features re-watch and reload their REST snapshot.
 *
 * lib code: it knows no feature; the app layer installs the token getter (`setSocketAuth`,
 * handshake.ts: this module is a chunk of the pages that go live, not of the home page's first load).
 *
 * socket.io-client itself is a chunk of its own, fetched the first time a namespace is asked for
 * (no home page needs it: it is 15 KB of the first load's gzipped JavaScript otherwise). Until it
 * is here `getSocket` answers null and the namespace is 'connecting'; `subscribe`, `emit` and
 * `emitWithAck` wait for it, in the order they were called.
 */
import type { Socket, io as ioFunction } from 'socket.io-client';
import { NAMESPACES, type Namespace, type ServerPayload } from './events';
import { handshakeAuth, resetHandshake, setReconnector, setSocketAuth, type TokenGetter } from './handshake';
import { getSocketStatus, resetSocketStatus, setNamespaceStatus } from './status';

export const SOCKET_PATH = '/socket.io/';

/** The client options of every namespace (exported for tests and the e2e harness). */
export const SOCKET_OPTIONS = {
  path: SOCKET_PATH,
  transports: ['websocket', 'polling'],
  /** WebSocket refused by a proxy: fall back to polling instead of failing the attempt. */
  tryAllTransports: true,
  reconnection: true,
  reconnectionAttempts: Infinity,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0.5,
  timeout: 10_000,
  autoConnect: false,
} as const;

export const DEFAULT_ACK_TIMEOUT_MS = 5000;

export type ResyncReason = 'initial' | 'not-recovered';
export type ResyncListener = (info: { namespace: Namespace; reason: ResyncReason }) => void;

/** An acknowledgement that did not arrive in time. */
export class SocketTimeoutError extends Error {
  readonly event: string;
  readonly timeoutMs: number;

  constructor(event: string, timeoutMs: number) {
    super(`no acknowledgement of "${event}" within ${timeoutMs} ms`);
    this.name = 'SocketTimeoutError';
    this.event = event;
    this.timeoutMs = timeoutMs;
  }
}

let io: typeof ioFunction | null = null;
let ioLoading: Promise<void> | null = null;
/** Namespaces asked for before the client was here: opened when it comes. */
const wanted = new Set<Namespace>();

/** Fetches socket.io-client (once; again after a failure). Resolves when `getSocket` can answer. */
export function loadSocketClient(): Promise<void> {
  if (io) return Promise.resolve();
  ioLoading ??= import('socket.io-client').then(
    (m) => {
      io = m.io;
      for (const ns of [...wanted]) getSocket(ns);
    },
    (error: unknown) => {
      ioLoading = null;
      const lastError = error instanceof Error ? error.message : String(error);
      // Asked again by the next getSocket, subscribe or the badge's reconnect.
      for (const ns of wanted) setNamespaceStatus(ns, { status: 'offline', reason: 'network', lastError });
      throw error;
    },
  );
  return ioLoading;
}

const ignore = (): void => undefined;

const sockets = new Map<Namespace, Socket>();
const resyncListeners = new Map<Namespace, Set<ResyncListener>>(NAMESPACES.map((ns) => [ns, new Set()]));
/** Namespaces connected at least once since the page loaded. */
const everConnected = new Set<Namespace>();
/** Namespaces the server refused or closed: no automatic retry until `reconnectSocket`. */
const refused = new Set<Namespace>();

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function fireResync(ns: Namespace, reason: ResyncReason): void {
  for (const listener of [...(resyncListeners.get(ns) ?? [])]) {
    try {
      listener({ namespace: ns, reason });
    } catch (e) {
      console.error('socket resync listener failed', e);
    }
  }
}

function wire(ns: Namespace, socket: Socket): void {
  socket.on('connect', () => {
    const first = !everConnected.has(ns);
    everConnected.add(ns);
    refused.delete(ns);
    setNamespaceStatus(ns, { status: 'connected', reason: null, lastConnectedAt: Date.now(), lastError: null });
    if (first) fireResync(ns, 'initial');
    else if (socket.recovered !== true) fireResync(ns, 'not-recovered');
  });
  socket.on('disconnect', (reason: string) => {
    if (reason === 'io client disconnect') {
      setNamespaceStatus(ns, { status: 'idle', reason: null });
    } else if (reason === 'io server disconnect') {
      // The server closed this namespace on purpose (e.g. the token was revoked): the client
      // does not retry by itself.
      refused.add(ns);
      setNamespaceStatus(ns, { status: 'offline', reason: 'refused' });
    } else {
      setNamespaceStatus(ns, browserOffline() ? { status: 'offline', reason: 'network' } : { status: 'reconnecting', reason: null });
    }
  });
  socket.on('connect_error', (err: Error) => {
    const lastError = err?.message ?? String(err);
    if (!socket.active) {
      // A CONNECT_ERROR packet: the server refused the handshake (bad token).
      refused.add(ns);
      setNamespaceStatus(ns, { status: 'offline', reason: 'refused', lastError });
    } else if (browserOffline()) {
      setNamespaceStatus(ns, { status: 'offline', reason: 'network', lastError });
    } else {
      setNamespaceStatus(ns, { status: 'reconnecting', reason: null, lastError });
    }
  });
  socket.io.on('reconnect_failed', () => {
    refused.add(ns);
    setNamespaceStatus(ns, { status: 'offline', reason: 'refused' });
  });
}

let windowWired = false;

function onOffline(): void {
  for (const ns of sockets.keys()) {
    if (getSocketStatus(ns).status !== 'idle') setNamespaceStatus(ns, { status: 'offline', reason: 'network' });
  }
}

function onOnline(): void {
  for (const [ns, socket] of sockets) {
    if (getSocketStatus(ns).status === 'idle') continue;
    if (socket.connected) setNamespaceStatus(ns, { status: 'connected', reason: null });
    else if (refused.has(ns)) setNamespaceStatus(ns, { status: 'offline', reason: 'refused' });
    else {
      setNamespaceStatus(ns, { status: 'reconnecting', reason: null });
      if (!socket.active) socket.connect();
    }
  }
}

function wireWindow(): void {
  if (windowWired || typeof window === 'undefined') return;
  windowWired = true;
  window.addEventListener('offline', onOffline);
  window.addEventListener('online', onOnline);
}

function open(ns: Namespace, socket: Socket): void {
  setNamespaceStatus(
    ns,
    browserOffline()
      ? { status: 'offline', reason: 'network' }
      : { status: everConnected.has(ns) ? 'reconnecting' : 'connecting', reason: null },
  );
  socket.connect();
}

/**
 * The shared socket of `ns`, created and connected on first use (again after `closeSocket`).
 * `auth`, when given, becomes the namespace's token getter (read at every handshake). Null while
 * socket.io-client is still on its way: the socket is then created and connected when it comes.
 */
export function getSocket(ns: Namespace = '/', auth?: TokenGetter): Socket | null {
  if (auth) setSocketAuth(ns, auth);
  setReconnector(reconnect);
  if (!io) {
    if (!wanted.has(ns)) {
      wanted.add(ns);
      setNamespaceStatus(ns, browserOffline() ? { status: 'offline', reason: 'network' } : { status: 'connecting', reason: null });
    }
    loadSocketClient().catch(ignore);
    return null;
  }
  // Asked for before the client came: its status already says 'connecting', and it opens now.
  const waited = wanted.delete(ns);
  let socket = sockets.get(ns);
  if (!socket) {
    socket = io(ns, { ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports], auth: (cb) => cb(handshakeAuth(ns)) });
    sockets.set(ns, socket);
    wire(ns, socket);
    wireWindow();
  }
  if ((waited || getSocketStatus(ns).status === 'idle') && !socket.active) open(ns, socket);
  return socket;
}

/** The socket of `ns` if some feature opened it, without opening one. */
export function peekSocket(ns: Namespace = '/'): Socket | null {
  return sockets.get(ns) ?? null;
}

export function isSocketConnected(ns: Namespace = '/'): boolean {
  return sockets.get(ns)?.connected === true;
}

/** reconnectSocket (handshake.ts), once a namespace has been asked for. */
function reconnect(ns: Namespace): void {
  const socket = sockets.get(ns);
  if (!socket) {
    // Asked for while the client had not come (or failed to): try fetching it again.
    if (wanted.has(ns)) getSocket(ns);
    return;
  }
  refused.delete(ns);
  if (socket.active) socket.disconnect();
  open(ns, socket);
}

/** Closes the namespace (status 'idle'); the next `getSocket` opens it again. */
export function closeSocket(ns: Namespace = '/'): void {
  if (wanted.delete(ns)) setNamespaceStatus(ns, { status: 'idle', reason: null });
  const socket = sockets.get(ns);
  if (!socket) return;
  refused.delete(ns);
  socket.disconnect();
  setNamespaceStatus(ns, { status: 'idle', reason: null });
}

/**
 * Runs `fn` on the first connect after page load and after every reconnect that was not
 * recovered: the feature should re-join its rooms (e.g. `order:watch`) and reload its snapshot.
 * Returns the remover.
 */
export function onResync(ns: Namespace, fn: ResyncListener): () => void {
  const set = resyncListeners.get(ns);
  set?.add(fn);
  return () => {
    set?.delete(fn);
  };
}

/** Listens to a server event on `ns` (opening the socket if needed); returns the unsubscribe. */
export function subscribe<E extends string>(ns: Namespace, event: E, handler: (payload: ServerPayload<E>) => void): () => void {
  const name: string = event;
  const listener = (...args: unknown[]) => handler(args[0] as ServerPayload<E>);
  let socket = getSocket(ns);
  let cancelled = false;
  if (socket) socket.on(name, listener);
  else {
    withSocket(ns, (s) => {
      if (cancelled) return;
      socket = s;
      s.on(name, listener);
    }).catch(ignore);
  }
  return () => {
    cancelled = true;
    socket?.off(name, listener);
  };
}

/** Runs `fn` with the socket of `ns`: at once when there is one, else when the client has come. */
function withSocket(ns: Namespace, fn: (socket: Socket) => void): Promise<void> {
  const socket = getSocket(ns);
  if (socket) {
    fn(socket);
    return Promise.resolve();
  }
  return loadSocketClient().then(() => {
    const s = getSocket(ns);
    if (s) fn(s);
  });
}

/**
 * Emits `event` with an acknowledgement callback; resolves with the ack, rejects with a
 * SocketTimeoutError when none arrives within `timeoutMs`. The ack is returned as sent: an
 * event answering "or an error" is for the caller to interpret.
 */
export function emitWithAck<T = unknown>(ns: Namespace, event: string, payload?: unknown, timeoutMs: number = DEFAULT_ACK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      reject(new SocketTimeoutError(event, timeoutMs));
    }, timeoutMs);
    const send = (socket: Socket) =>
      socket.emit(event, payload, (answer: T) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      });
    withSocket(ns, send).catch((error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Emits without an acknowledgement (e.g. `order:unwatch`); opens the socket if needed. */
export function emit(ns: Namespace, event: string, payload?: unknown): void {
  withSocket(ns, (socket) => socket.emit(event, payload)).catch(ignore);
}

/**
 * Closes every socket and forgets listeners, token getters and status (tests). With
 * `{client: true}` it also forgets socket.io-client, as on a page that has not fetched it yet.
 */
export function resetSockets({ client = false }: { client?: boolean } = {}): void {
  wanted.clear();
  if (client) {
    io = null;
    ioLoading = null;
  }
  for (const socket of sockets.values()) {
    socket.removeAllListeners();
    socket.io.removeAllListeners?.();
    socket.disconnect();
  }
  sockets.clear();
  resetHandshake();
  for (const set of resyncListeners.values()) set.clear();
  everConnected.clear();
  refused.clear();
  if (windowWired && typeof window !== 'undefined') {
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
  }
  windowWired = false;
  resetSocketStatus();
}
