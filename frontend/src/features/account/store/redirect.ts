/**
 * Where to go back after logging in (spec account §2): a visit to a page that needs login
 * remembers its path and query for 10 seconds; /index is never remembered.
 */
import { storage } from '@/lib/storage';

export const REDIRECT_TTL_S = 10;
const KEY = 'login:redirect';
const NEVER = ['/index', '/login', '/register', '/resetPassword'];

export function rememberRedirect(pathWithQuery: string): void {
  const path = pathWithQuery.split('?')[0] ?? '';
  if (!path.startsWith('/') || NEVER.includes(path)) return;
  storage.set(KEY, pathWithQuery, REDIRECT_TTL_S);
}

/** The remembered target (once), or null when none or older than 10 s. */
export function takeRedirect(): string | null {
  const target = storage.get<string>(KEY);
  storage.remove(KEY);
  return typeof target === 'string' ? target : null;
}

/** The remembered target without using it up. */
export function peekRedirect(): string | null {
  const target = storage.get<string>(KEY);
  return typeof target === 'string' ? target : null;
}
