/**
 * The app's notion of "now". A placeholder over Date.now with an offset hook, so the server clock
 * (GET /system/time, time:sync) can be adopted later without touching callers.
 */
let offsetMs = 0;

export function now(): number {
  return Date.now() + offsetMs;
}

/** Adopt the server clock: offset = serverTime - local time at receipt. */
export function setClockOffset(ms: number): void {
  offsetMs = Number.isFinite(ms) ? ms : 0;
}

export function clockOffset(): number {
  return offsetMs;
}
