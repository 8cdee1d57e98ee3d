/**
 * Server clock synchronisation (spec account §4, ordering §7): the offset is measured with
 * `time:sync` over the "/" socket when it is connected (best of 3 samples by round trip), else
 * with GET /api/v1/system/time (timeout 500 ms, retried with backoff until it succeeds).
 * Every 3 s the local clock is checked against a monotonic expectation; a jump of more than 5 s
 * re-syncs, and so does a periodic timer and every (re)connect of the "/" socket.
 *
 * This module never opens a socket: it uses one only when a feature has opened it.
 */
import { getSocketStatus, socketStatusStore, type TimeSyncAck } from '../socket';
import { getServerTime } from '../system';
import { monotonicNow, setClockOffset } from './offset';

export const CHECK_INTERVAL_MS = 3000;
export const MAX_DRIFT_MS = 5000;
export const RESYNC_INTERVAL_MS = 5 * 60_000;
export const TIME_REQUEST_TIMEOUT_MS = 500;
export const SOCKET_SAMPLES = 3;
export const REST_RETRY_BASE_MS = 500;
export const REST_RETRY_MAX_MS = 30_000;

export type ClockSource = 'socket' | 'rest';

export interface ClockSample {
  /** serverTime − local time at the middle of the round trip. */
  offset: number;
  rtt: number;
}

export interface ClockSyncInfo {
  offset: number;
  source: ClockSource | null;
  rtt: number | null;
  /** Local epoch ms of the last successful sync. */
  syncedAt: number | null;
}

/** offset = serverTime − (clientTime + rtt / 2): the server answered half a round trip after sending. */
export function sampleFrom(clientTime: number, serverTime: number, rtt: number): ClockSample {
  return { offset: serverTime - (clientTime + rtt / 2), rtt };
}

/** The sample with the shortest round trip (the least uncertain), or null. */
export function bestSample<T extends ClockSample>(samples: readonly T[]): T | null {
  let best: T | null = null;
  for (const s of samples) if (best === null || s.rtt < best.rtt) best = s;
  return best;
}

let info: ClockSyncInfo = { offset: 0, source: null, rtt: null, syncedAt: null };
/** Local wall and monotonic time at the last anchor: their difference must stay constant. */
let anchorWall = Date.now();
let anchorMono = monotonicNow();
let lastSyncMono: number | null = null;
let inflight: Promise<number> | null = null;
let controller: AbortController | null = null;

export function clockSyncInfo(): ClockSyncInfo {
  return info;
}

function anchor(): void {
  anchorWall = Date.now();
  anchorMono = monotonicNow();
}

/** How far the local clock moved against the monotonic clock since the last anchor (ms, signed). */
export function localClockDrift(): number {
  return Date.now() - (anchorWall + (monotonicNow() - anchorMono));
}

function abortError(): Error {
  const e = new Error('clock sync stopped');
  e.name = 'AbortError';
  return e;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function socketSample(): Promise<ClockSample | null> {
  // A connected "/" means a page has loaded the socket module (not part of the home page's first
  // load), so this import costs nothing then; otherwise the module is not fetched for the clock.
  if (getSocketStatus('/').status !== 'connected') return null;
  const { emitWithAck, isSocketConnected } = await import('../socket/socket');
  const samples: ClockSample[] = [];
  for (let i = 0; i < SOCKET_SAMPLES; i += 1) {
    if (!isSocketConnected('/')) break;
    const clientTime = Date.now();
    const sentMono = monotonicNow();
    try {
      const ack = await emitWithAck<TimeSyncAck>('/', 'time:sync', { clientTime }, TIME_REQUEST_TIMEOUT_MS);
      const rtt = Math.max(0, monotonicNow() - sentMono);
      if (ack && Number.isFinite(ack.serverTime)) samples.push(sampleFrom(clientTime, ack.serverTime, rtt));
    } catch {
      // Timed out: try the next sample.
    }
  }
  return bestSample(samples);
}

interface Measured {
  sample: ClockSample;
  source: ClockSource;
}

async function restSample(signal: AbortSignal): Promise<Measured> {
  for (let attempt = 0; ; attempt += 1) {
    if (signal.aborted) throw abortError();
    const clientTime = Date.now();
    const sentMono = monotonicNow();
    try {
      const { serverTime } = await getServerTime(signal);
      const rtt = Math.max(0, monotonicNow() - sentMono);
      if (Number.isFinite(serverTime)) return { sample: sampleFrom(clientTime, serverTime, rtt), source: 'rest' };
    } catch {
      if (signal.aborted) throw abortError();
    }
    await sleep(Math.min(REST_RETRY_BASE_MS * 2 ** attempt, REST_RETRY_MAX_MS), signal);
    // The socket may have come up meanwhile: it measures better.
    const viaSocket = await socketSample();
    if (viaSocket) return { sample: viaSocket, source: 'socket' };
  }
}

async function measure(signal: AbortSignal): Promise<Measured> {
  const viaSocket = await socketSample();
  if (viaSocket) return { sample: viaSocket, source: 'socket' };
  return restSample(signal);
}

/**
 * Measures the offset and adopts it; resolves with it. Concurrent calls share one measurement.
 * Rejects only when stopped (`stopClock`).
 */
export function syncClock(): Promise<number> {
  if (inflight) return inflight;
  controller ??= new AbortController();
  const signal = controller.signal;
  const run = measure(signal).then(({ sample, source }) => {
    const offset = Math.round(sample.offset);
    setClockOffset(offset);
    anchor();
    lastSyncMono = monotonicNow();
    info = { offset, source, rtt: sample.rtt, syncedAt: Date.now() };
    return offset;
  });
  inflight = run.finally(() => {
    inflight = null;
  });
  return inflight;
}

/**
 * One check (every 3 s): the local clock moved more than 5 s against the monotonic clock (the user
 * changed it, NTP stepped it, or the device slept) → re-sync; a sync older than the resync
 * interval → re-sync. The offset is not guessed from the drift: after a sleep the monotonic clock
 * may have paused while the wall clock is right, so only a measurement decides.
 */
export function checkClock(): void {
  const drift = localClockDrift();
  if (Math.abs(drift) > MAX_DRIFT_MS) {
    anchor();
    void syncClock().catch(() => undefined);
    return;
  }
  if (lastSyncMono === null || monotonicNow() - lastSyncMono >= RESYNC_INTERVAL_MS) {
    void syncClock().catch(() => undefined);
  }
}

let checkTimer: ReturnType<typeof setInterval> | null = null;
let unsubscribeSocket: (() => void) | null = null;

/** Starts synchronisation: a sync now, the 3 s check loop, and a sync on every "/" connect. Idempotent. */
export function startClock(): () => void {
  if (checkTimer === null) {
    anchor();
    checkTimer = setInterval(checkClock, CHECK_INTERVAL_MS);
    unsubscribeSocket = socketStatusStore.subscribe((s, prev) => {
      if (s['/'].status === 'connected' && prev['/'].status !== 'connected') void syncClock().catch(() => undefined);
    });
    void syncClock().catch(() => undefined);
  }
  return stopClock;
}

/** Stops the loop and any sync in progress (tests; nothing in the app stops it). */
export function stopClock(): void {
  if (checkTimer !== null) clearInterval(checkTimer);
  checkTimer = null;
  unsubscribeSocket?.();
  unsubscribeSocket = null;
  controller?.abort();
  controller = null;
  inflight = null;
}

/** Back to a fresh page (tests). */
export function resetClock(): void {
  stopClock();
  setClockOffset(0);
  info = { offset: 0, source: null, rtt: null, syncedAt: null };
  lastSyncMono = null;
  anchor();
}
