/**
 * The app's notion of "now": the local clock plus the offset measured against the server
 * (see sync.ts). A leaf module with no imports, so storage, i18n and the api client can use it
 * without an import cycle.
 */
let offsetMs = 0;
const listeners = new Set<(offsetMs: number) => void>();

/** The server's time, in epoch ms: Date.now() + the measured offset. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}

/** The same as serverNow (the name older callers use). */
export const now = serverNow;

/** Adopt the server clock: offset = server time − local time (a non-finite value resets it). */
export function setClockOffset(ms: number): void {
  const next = Number.isFinite(ms) ? ms : 0;
  if (next === offsetMs) return;
  offsetMs = next;
  for (const listener of listeners) listener(next);
}

export function clockOffset(): number {
  return offsetMs;
}

/** Hears every change of the offset (hooks re-render at once after a resync); returns the remover. */
export function onClockOffset(listener: (offsetMs: number) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A monotonic milliseconds counter (performance.now), unaffected by changes of the local clock. */
export function monotonicNow(): number {
  return typeof performance !== 'undefined' && typeof performance.now === 'function' ? performance.now() : Date.now();
}
