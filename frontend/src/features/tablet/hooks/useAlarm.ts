import { useEffect, useState } from 'react';
import { ringDue, shouldRing } from '../alarm';
import { beep, enableSound, onSoundState, soundState, type SoundState } from '../sound';
import type { TabletOrder } from '../types';

declare global {
  interface Window {
    /** Read by the browser test: headless Chromium has no speakers to listen to. */
    __tabletAlarm?: { ringing: boolean; rings: number; sound: SoundState };
  }
}

/** Polled often enough that a beep is never late by much; ringDue spaces them 2 s apart. */
const POLL_MS = 250;
let rings = 0;

function publish(ringing: boolean): void {
  window.__tabletAlarm = { ringing, rings, sound: soundState() };
}

/**
 * Rings while any order awaits acceptance: a beep pattern at once, then every 2 s, until the
 * last new order is accepted or refused (here or on another tablet). A ring counts even when the
 * browser still blocks the sound: the flashing card and the banner carry the alarm then.
 */
export function useAlarm(orders: TabletOrder[]): { ringing: boolean; rings: number } {
  const ringing = shouldRing(orders);
  const [count, setCount] = useState(rings);
  useEffect(() => {
    publish(ringing);
    if (!ringing) return undefined;
    let last: number | null = null;
    const tick = () => {
      const nowMs = Date.now();
      if (!ringDue(true, last, nowMs)) return;
      last = nowMs;
      beep();
      rings += 1;
      setCount(rings);
      publish(true);
    };
    tick();
    const timer = setInterval(tick, POLL_MS);
    return () => {
      clearInterval(timer);
      publish(false);
    };
  }, [ringing]);
  return { ringing, rings: count };
}

/**
 * Whether the tablet can make a sound; any tap on the page enables it (the crew's first "accept"
 * does), the banner's button is the explicit way.
 */
export function useSound(): { state: SoundState; enable: () => void } {
  const [state, setState] = useState<SoundState>(soundState);
  useEffect(() => {
    const off = onSoundState(setState);
    const onGesture = () => {
      if (soundState() === 'blocked') void enableSound();
    };
    document.addEventListener('pointerdown', onGesture, true);
    document.addEventListener('keydown', onGesture, true);
    return () => {
      off();
      document.removeEventListener('pointerdown', onGesture, true);
      document.removeEventListener('keydown', onGesture, true);
    };
  }, []);
  return { state, enable: () => void enableSound().then(setState) };
}
