/**
 * What reaches the sockets without the socket module (socket.ts is a chunk of the pages that go
 * live, not of the home page's first load): the handshake's token and extra fields, which the app
 * installs at start, and the reconnect a login, a logout or the badge's button asks for. Until a
 * page has loaded socket.ts and opened a namespace there is no socket, and nothing to reconnect.
 */
import type { Namespace } from './events';

export type TokenGetter = () => string | null | undefined;
/** More handshake `auth` fields, read at every (re)connect (e.g. a visitor's `cartToken`). */
export type AuthExtra = () => Record<string, string | null | undefined>;

const tokenGetters = new Map<Namespace, TokenGetter>();
const authExtras = new Map<Namespace, AuthExtra>();
let reconnector: ((ns: Namespace) => void) | null = null;

/** Where the handshake token of a namespace comes from (null: none; visitors may connect to "/"). */
export function setSocketAuth(ns: Namespace, getter: TokenGetter | null): void {
  if (getter) tokenGetters.set(ns, getter);
  else tokenGetters.delete(ns);
}

/**
 * Extra handshake `auth` fields of a namespace (null: none). Empty values are left out. A change
 * takes effect at the next connect: call `reconnectSocket` when the server must see it now.
 */
export function setSocketAuthExtra(ns: Namespace, extra: AuthExtra | null): void {
  if (extra) authExtras.set(ns, extra);
  else authExtras.delete(ns);
}

/** The handshake `auth` of `ns` now (socket.ts reads it at every connect). */
export function handshakeAuth(ns: Namespace): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(authExtras.get(ns)?.() ?? {})) if (v) out[k] = v;
  const token = tokenGetters.get(ns)?.();
  if (token) out.token = token;
  return out;
}

/** socket.ts installs its reconnect when a namespace is first asked for. */
export function setReconnector(fn: (ns: Namespace) => void): void {
  reconnector = fn;
}

/** Reconnects now (a new token after login or logout, or after the server refused / gave up). */
export function reconnectSocket(ns: Namespace = '/'): void {
  reconnector?.(ns);
}

export function resetHandshake(): void {
  tokenGetters.clear();
  authExtras.clear();
}
