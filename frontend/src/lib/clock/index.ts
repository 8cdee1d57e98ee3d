/**
 * The app's clock: `serverNow()` is the server's time (local clock + measured offset). Every
 * countdown and expiry check of the app reads it (useCountdown, useServerNow, storage expiry).
 */
export { serverNow, now, setClockOffset, clockOffset, onClockOffset, monotonicNow } from './offset';
export {
  syncClock,
  startClock,
  stopClock,
  resetClock,
  checkClock,
  clockSyncInfo,
  localClockDrift,
  sampleFrom,
  bestSample,
  CHECK_INTERVAL_MS,
  MAX_DRIFT_MS,
  RESYNC_INTERVAL_MS,
  TIME_REQUEST_TIMEOUT_MS,
  SOCKET_SAMPLES,
  REST_RETRY_BASE_MS,
  REST_RETRY_MAX_MS,
} from './sync';
export type { ClockSample, ClockSource, ClockSyncInfo } from './sync';
export { useServerNow, useCountdown } from './hooks';
export type { Countdown } from './hooks';
