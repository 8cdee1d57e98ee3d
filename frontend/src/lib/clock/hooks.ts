import { useEffect, useState } from 'react';
import { onClockOffset, serverNow } from './offset';

/** The server's time, re-read every `intervalMs` and at once when a resync moves the offset. */
export function useServerNow(intervalMs = 1000): number {
  const [nowMs, setNowMs] = useState(serverNow);
  useEffect(() => {
    const tick = () => setNowMs(serverNow());
    tick();
    const timer = setInterval(tick, Math.max(16, intervalMs));
    const off = onClockOffset(tick);
    return () => {
      clearInterval(timer);
      off();
    };
  }, [intervalMs]);
  return nowMs;
}

export interface Countdown {
  /** Milliseconds to the target on the server clock (0 when reached or no target). */
  msLeft: number;
  /** Whole seconds left, rounded up (what a "59 s" label shows). */
  secondsLeft: number;
  /** The target was reached (false while there is no target). */
  done: boolean;
}

/**
 * A countdown to `targetMs` (server epoch ms, e.g. an order's eta or a payment deadline), measured
 * on the server clock: a wrong or changed local clock does not shift it. Ticks every `intervalMs`
 * until the target is reached; null means no countdown.
 */
export function useCountdown(targetMs: number | null | undefined, intervalMs = 1000): Countdown {
  const target = targetMs ?? null;
  const [state, setState] = useState(() => ({ target, nowMs: serverNow() }));
  // A new target is measured against a fresh "now" in this very render (no frame with a stale now).
  let nowMs = state.nowMs;
  if (state.target !== target) {
    nowMs = serverNow();
    setState({ target, nowMs });
  }
  useEffect(() => {
    const setNowMs = (t: number) => setState({ target, nowMs: t });
    if (target === null) return undefined;
    let timer: ReturnType<typeof setInterval> | null = null;
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const tick = () => {
      const t = serverNow();
      setNowMs(t);
      if (t >= target) stop();
    };
    tick();
    if (serverNow() < target) timer = setInterval(tick, Math.max(16, intervalMs));
    const off = onClockOffset(() => {
      tick();
      if (timer === null && serverNow() < target) timer = setInterval(tick, Math.max(16, intervalMs));
    });
    return () => {
      stop();
      off();
    };
  }, [target, intervalMs]);
  if (target === null) return { msLeft: 0, secondsLeft: 0, done: false };
  const msLeft = Math.max(0, target - nowMs);
  return { msLeft, secondsLeft: Math.ceil(msLeft / 1000), done: msLeft === 0 };
}
