/**
 * The alarm's sound, made with the Web Audio API (no file to load or fail). Browsers keep an
 * AudioContext suspended until a user gesture on the page, so the context is created early and
 * resumed on the first tap; `state` tells the screen whether to ask for that tap.
 */
export type SoundState = 'unsupported' | 'blocked' | 'running';

type Listener = (state: SoundState) => void;

function contextClass(): typeof AudioContext | null {
  if (typeof window === 'undefined') return null;
  const w = window as typeof window & { webkitAudioContext?: typeof AudioContext };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

let ctx: AudioContext | null = null;
const listeners = new Set<Listener>();

function ensure(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor = contextClass();
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  ctx.addEventListener?.('statechange', () => {
    const s = soundState();
    for (const l of [...listeners]) l(s);
  });
  return ctx;
}

export function soundState(): SoundState {
  const c = ensure();
  if (!c) return 'unsupported';
  return c.state === 'running' ? 'running' : 'blocked';
}

export function onSoundState(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Call from a user gesture: lets the context play. */
export async function enableSound(): Promise<SoundState> {
  const c = ensure();
  if (!c) return 'unsupported';
  try {
    await c.resume();
  } catch {
    // Still blocked: the banner stays.
  }
  const s = soundState();
  for (const l of [...listeners]) l(s);
  return s;
}

/** Three short, high beeps: loud enough over a kitchen, short enough to repeat every 2 s. */
export function beep(): boolean {
  const c = ensure();
  if (!c || c.state !== 'running') return false;
  const start = c.currentTime + 0.02;
  for (let i = 0; i < 3; i += 1) {
    const at = start + i * 0.22;
    const osc = c.createOscillator();
    const gain = c.createGain();
    osc.type = 'square';
    osc.frequency.setValueAtTime(i === 2 ? 1320 : 988, at);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.35, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    osc.connect(gain).connect(c.destination);
    osc.start(at);
    osc.stop(at + 0.18);
  }
  return true;
}
