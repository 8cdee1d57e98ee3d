/**
 * Where to go back after logging in (spec account §2): a visit to a page that needs login
 * remembers its path and query for 10 seconds; /index is never remembered. The 10 s is only the
 * memory before the login pages are reached: once they are, the target is held (this tab's
 * session) until the login completes, however long the SMS code takes, and dropped when the
 * customer goes anywhere else instead.
 */
import { sessionStore, storage } from '@/lib/storage';

export const REDIRECT_TTL_S = 10;
const KEY = 'login:redirect';
const HELD = 'login:held';
const NEVER = ['/index', '/login', '/register', '/resetPassword'];
/** The pages a login goes through (login, sign-up on the fly, forgotten password). */
const AUTH_PAGES = ['/login', '/register', '/resetPassword'];

export function rememberRedirect(pathWithQuery: string): void {
  const path = pathWithQuery.split('?')[0] ?? '';
  if (!path.startsWith('/') || NEVER.includes(path)) return;
  storage.set(KEY, pathWithQuery, REDIRECT_TTL_S);
}

/**
 * Called on every page change: on a login page the remembered target (if still within its 10 s)
 * becomes held; on any other page a held target is dropped, so an abandoned login does not send a
 * later one back to an old checkout.
 */
export function settleRedirect(pathname: string): void {
  if (!AUTH_PAGES.includes(pathname)) {
    sessionStore.remove(HELD);
    return;
  }
  const fresh = storage.get<string>(KEY);
  if (typeof fresh !== 'string') return;
  sessionStore.set(HELD, fresh);
  storage.remove(KEY);
}

function current(): string | null {
  const fresh = storage.get<string>(KEY);
  if (typeof fresh === 'string') return fresh;
  const held = sessionStore.get<string>(HELD);
  return typeof held === 'string' ? held : null;
}

/** The target (once): remembered within 10 s, or held by the login pages; else null. */
export function takeRedirect(): string | null {
  const target = current();
  storage.remove(KEY);
  sessionStore.remove(HELD);
  return target;
}

/** The target without using it up. */
export function peekRedirect(): string | null {
  return current();
}
