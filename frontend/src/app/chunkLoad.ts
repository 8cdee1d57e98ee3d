/**
 * Loading a route's chunk (spec ordering §8: a chunk-load failure has a 120 s timeout; account §8:
 * a chunk-loading failure reloads the page).
 *
 * A failed dynamic import is most often a dropped connection or a deploy that replaced the hashed
 * files under a page that was already open. The first is cured by trying again, the second only by
 * a fresh index.html. So: try, retry twice after a short pause, and if the chunk still does not come,
 * reload the page once. A reload that happened less than 120 s ago did not help, and another would
 * only loop: then the failure is shown, with a button the user presses to reload.
 *
 * A load that hangs is not waited for forever: 120 s after the first try it counts as failed,
 * whatever try is under way, and no further try is made.
 */

/** The whole time a chunk may take, tries and pauses included (spec ordering §8). */
export const CHUNK_TIMEOUT_MS = 120_000;
/** No automatic reload within this long of the last one. */
export const RELOAD_GUARD_MS = 120_000;
/** The pauses before the second and the third try. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1500];
export const RELOAD_KEY = 'pz:chunk-reload-at';

/** Thrown (to the route's error boundary) when a chunk cannot be had and a reload would loop. */
export class ChunkLoadError extends Error {
  readonly timedOut: boolean;
  constructor(cause: unknown, timedOut: boolean) {
    super(timedOut ? 'chunk load timed out' : `chunk load failed: ${String(cause)}`, { cause });
    this.name = 'ChunkLoadError';
    this.timedOut = timedOut;
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

export interface ChunkLoadDeps {
  /** Device time (epoch ms): the guard is compared across a reload, so not the server clock. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  setTimer: (fn: () => void, ms: number) => () => void;
  reload: () => void;
  /** sessionStorage, or null where it is unavailable (then a reload is never tried: it could loop). */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const browserDeps: ChunkLoadDeps = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  setTimer: (fn, ms) => {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
  reload: () => window.location.reload(),
  get storage() {
    return sessionStorageOrNull();
  },
};

/** Whether an automatic reload may happen now; when it may, it is recorded (one per guard window). */
export function claimReload(deps: Pick<ChunkLoadDeps, 'now' | 'storage'>): boolean {
  const { storage } = deps;
  if (!storage) return false;
  const now = deps.now();
  try {
    const last = Number(storage.getItem(RELOAD_KEY));
    // A time in the future (a clock set back) is not trusted to guard anything.
    if (Number.isFinite(last) && last > 0 && last <= now && now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(RELOAD_KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

class Timeout extends Error {}

const ignore = (): void => undefined;

/** Tries `load` up to 1 + RETRY_DELAYS_MS.length times within CHUNK_TIMEOUT_MS; the last error or a Timeout. */
async function tryLoad<T>(load: () => Promise<T>, deps: ChunkLoadDeps): Promise<T> {
  let cancel = ignore;
  const deadline = new Promise<never>((_, reject) => {
    cancel = deps.setTimer(() => reject(new Timeout()), CHUNK_TIMEOUT_MS);
  });
  // The deadline may fire while nobody awaits it (during a pause); it must not surface as unhandled.
  deadline.catch(ignore);
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await Promise.race([load(), deadline]);
      } catch (error) {
        if (error instanceof Timeout || attempt >= RETRY_DELAYS_MS.length) throw error;
      }
      await Promise.race([deps.sleep(RETRY_DELAYS_MS[attempt] ?? 0), deadline]);
    }
  } finally {
    cancel();
  }
}

/**
 * The chunk from `load`, retried; when it cannot be had, the page reloads (and this never settles:
 * the loading screen stays until the page goes) or, within the guard window, a ChunkLoadError.
 */
export async function loadChunk<T>(load: () => Promise<T>, deps: ChunkLoadDeps = browserDeps): Promise<T> {
  try {
    return await tryLoad(load, deps);
  } catch (error) {
    const failure = new ChunkLoadError(error, error instanceof Timeout);
    if (claimReload(deps)) {
      deps.reload();
      return new Promise<T>(ignore);
    }
    throw failure;
  }
}
