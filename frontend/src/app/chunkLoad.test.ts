import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_TIMEOUT_MS,
  ChunkLoadError,
  RELOAD_GUARD_MS,
  RELOAD_KEY,
  RETRY_DELAYS_MS,
  claimReload,
  loadChunk,
  type ChunkLoadDeps,
} from './chunkLoad';

/** Browser-like deps on fake timers, with a storage and a reload that are watched. */
function fakeDeps(store = new Map<string, string>()) {
  const reload = vi.fn();
  const deps: ChunkLoadDeps = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    setTimer: (fn, ms) => {
      const id = setTimeout(fn, ms);
      return () => clearTimeout(id);
    },
    reload,
    storage: {
      getItem: (k) => store.get(k) ?? null,
      setItem: (k, v) => void store.set(k, v),
    },
  };
  return { deps, reload, store };
}

/** An import that fails its first `failures` calls, then answers the module. */
function flakyImport(failures: number) {
  let calls = 0;
  const load = vi.fn(() => {
    calls += 1;
    return calls <= failures ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve({ Page: 'page' });
  });
  return load;
}

type Outcome = { state: 'pending' } | { state: 'ok'; value: unknown } | { state: 'error'; error: unknown };
function watch(p: Promise<unknown>): { get: () => Outcome } {
  let outcome: Outcome = { state: 'pending' };
  p.then(
    (value) => (outcome = { state: 'ok', value }),
    (error: unknown) => (outcome = { state: 'error', error }),
  );
  return { get: () => outcome };
}

const TOTAL_PAUSES = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('loadChunk', () => {
  // Every number of failures from none to one past the retries, with a fresh and a guarded session.
  for (let failures = 0; failures <= RETRY_DELAYS_MS.length + 1; failures += 1) {
    for (const guarded of [false, true]) {
      it(`${failures} failure(s), ${guarded ? 'reloaded just now' : 'no recent reload'}`, async () => {
        const { deps, reload, store } = fakeDeps();
        if (guarded) store.set(RELOAD_KEY, String(Date.now() - 1000));
        const load = flakyImport(failures);
        const result = watch(loadChunk(load, deps));
        await vi.advanceTimersByTimeAsync(TOTAL_PAUSES + 10);
        const tries = Math.min(failures + 1, RETRY_DELAYS_MS.length + 1);
        expect(load).toHaveBeenCalledTimes(tries);
        if (failures <= RETRY_DELAYS_MS.length) {
          expect(result.get()).toEqual({ state: 'ok', value: { Page: 'page' } });
          expect(reload).not.toHaveBeenCalled();
        } else if (!guarded) {
          // Reloading: the promise stays pending so the loading screen stays until the page goes.
          expect(reload).toHaveBeenCalledTimes(1);
          expect(result.get()).toEqual({ state: 'pending' });
          // Recorded when the last try failed, after the pauses.
          expect(store.get(RELOAD_KEY)).toBe(String(Date.now() - 10));
        } else {
          expect(reload).not.toHaveBeenCalled();
          const outcome = result.get();
          expect(outcome.state).toBe('error');
          expect(outcome.state === 'error' && outcome.error).toBeInstanceOf(ChunkLoadError);
        }
      });
    }
  }

  it('waits the backoff between tries, not less', async () => {
    const { deps } = fakeDeps();
    const load = flakyImport(2);
    const result = watch(loadChunk(load, deps));
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync((RETRY_DELAYS_MS[0] ?? 0) - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync((RETRY_DELAYS_MS[1] ?? 0) - 1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(3);
    expect(result.get().state).toBe('ok');
  });

  it('counts a load that hangs as failed after 120 s, and reloads', async () => {
    const { deps, reload } = fakeDeps();
    const load = vi.fn(() => new Promise<never>(() => undefined));
    const result = watch(loadChunk(load, deps));
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(reload).not.toHaveBeenCalled();
    // A hanging try is not retried: the 120 s are the whole allowance.
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.get().state).toBe('pending');
  });

  it('a hang within the guard window ends in a timed-out ChunkLoadError', async () => {
    const { deps, reload, store } = fakeDeps();
    const result = watch(loadChunk(() => new Promise<never>(() => undefined), deps));
    // Another route's chunk failed and reloaded 60 s into this wait (the guard is read at failure).
    await vi.advanceTimersByTimeAsync(60_000);
    store.set(RELOAD_KEY, String(Date.now()));
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 60_000);
    const outcome = result.get();
    expect(reload).not.toHaveBeenCalled();
    expect(outcome.state === 'error' && outcome.error instanceof ChunkLoadError && outcome.error.timedOut).toBe(true);
  });

  it('the deadline also cuts a retry that hangs after quick failures', async () => {
    const { deps, reload } = fakeDeps();
    let calls = 0;
    const load = vi.fn(() => (++calls === 1 ? Promise.reject(new Error('net')) : new Promise<never>(() => undefined)));
    watch(loadChunk(load, deps));
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('claimReload', () => {
  const cases: { name: string; last: string | null; ago?: number; storage?: boolean; want: boolean }[] = [
    { name: 'never reloaded', last: null, want: true },
    { name: 'reloaded 1 s ago', last: 'ago', ago: 1000, want: false },
    { name: 'reloaded just under the guard', last: 'ago', ago: RELOAD_GUARD_MS - 1, want: false },
    { name: 'reloaded exactly the guard ago', last: 'ago', ago: RELOAD_GUARD_MS, want: true },
    { name: 'reloaded long ago', last: 'ago', ago: 10 * RELOAD_GUARD_MS, want: true },
    { name: 'a time in the future (clock set back)', last: 'ago', ago: -60_000, want: true },
    { name: 'garbage in storage', last: 'soon', want: true },
    { name: 'no sessionStorage at all', last: null, storage: false, want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const store = new Map<string, string>();
      if (c.last === 'ago') store.set(RELOAD_KEY, String(Date.now() - (c.ago ?? 0)));
      else if (c.last !== null) store.set(RELOAD_KEY, c.last);
      const { deps } = fakeDeps(store);
      const claimed = claimReload(c.storage === false ? { ...deps, storage: null } : deps);
      expect(claimed).toBe(c.want);
      if (c.want) expect(store.get(RELOAD_KEY)).toBe(String(Date.now()));
    });
  }

  it('two failures in a row reload once, then show the error', async () => {
    const { deps, reload } = fakeDeps();
    const first = watch(loadChunk(flakyImport(99), deps));
    await vi.advanceTimersByTimeAsync(TOTAL_PAUSES + 10);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(first.get().state).toBe('pending');
    // The "reloaded" page fails again 30 s later: no second reload.
    await vi.advanceTimersByTimeAsync(30_000);
    const second = watch(loadChunk(flakyImport(99), deps));
    await vi.advanceTimersByTimeAsync(TOTAL_PAUSES + 10);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(second.get().state).toBe('error');
  });
});
