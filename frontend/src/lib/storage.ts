/**
 * localStorage with expiry. Values are stored as `{v, e}` (value, expiry epoch ms or null) under a
 * common prefix; an expired entry reads as null and is removed. Expired entries are swept at start-up
 * (spec account §9). All access is guarded: private modes and full quotas must not break the app.
 */
import { now } from './clock/offset';

const PREFIX = 'pz:';

interface Entry<T> {
  v: T;
  e: number | null;
}

function backend(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

function read<T>(store: Storage | null, key: string): T | null {
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(PREFIX + key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const entry = JSON.parse(raw) as Entry<T>;
    if (entry === null || typeof entry !== 'object' || !('v' in entry)) return null;
    if (entry.e !== null && entry.e <= now()) {
      store.removeItem(PREFIX + key);
      return null;
    }
    return entry.v;
  } catch {
    store.removeItem(PREFIX + key);
    return null;
  }
}

function write<T>(store: Storage | null, key: string, value: T, ttlSeconds?: number): void {
  if (!store) return;
  const entry: Entry<T> = { v: value, e: ttlSeconds === undefined ? null : now() + ttlSeconds * 1000 };
  try {
    store.setItem(PREFIX + key, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: the value simply is not remembered.
  }
}

function makeStorage(kind: 'local' | 'session') {
  return {
    get<T>(key: string): T | null {
      return read<T>(backend(kind), key);
    },
    /** `ttlSeconds` omitted: kept until removed. */
    set<T>(key: string, value: T, ttlSeconds?: number): void {
      write(backend(kind), key, value, ttlSeconds);
    },
    remove(key: string): void {
      try {
        backend(kind)?.removeItem(PREFIX + key);
      } catch {
        // ignore
      }
    },
    /** Removes every entry of the app except the `keep` keys (a 407 clears local storage). */
    clear(keep: string[] = []): void {
      const store = backend(kind);
      if (!store) return;
      const keys: string[] = [];
      for (let i = 0; i < store.length; i += 1) {
        const k = store.key(i);
        if (k?.startsWith(PREFIX) && !keep.includes(k.slice(PREFIX.length))) keys.push(k);
      }
      for (const k of keys) store.removeItem(k);
    },
    /** Removes every expired entry; returns how many. */
    sweepExpired(): number {
      const store = backend(kind);
      if (!store) return 0;
      const keys: string[] = [];
      for (let i = 0; i < store.length; i += 1) {
        const k = store.key(i);
        if (k?.startsWith(PREFIX)) keys.push(k.slice(PREFIX.length));
      }
      let removed = 0;
      for (const k of keys) {
        const before = store.getItem(PREFIX + k);
        if (read(store, k) === null && before !== null) removed += 1;
      }
      return removed;
    },
  };
}

export const storage = makeStorage('local');
export const sessionStore = makeStorage('session');
