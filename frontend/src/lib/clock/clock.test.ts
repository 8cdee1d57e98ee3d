import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io, lastSocket, resetFakeSockets, type FakeSocket } from '@/test/fakeSocket';
import { getSocket, resetSockets } from '../socket';
import {
  bestSample,
  clockOffset,
  clockSyncInfo,
  resetClock,
  sampleFrom,
  serverNow,
  setClockOffset,
  startClock,
  syncClock,
  useCountdown,
  useServerNow,
} from './index';

vi.mock('socket.io-client', async () => (await import('@/test/fakeSocket')).socketIoMock);

const T0 = Date.parse('2025-03-01T12:00:00Z');

/** A "/" socket whose server clock is `trueOffset` ahead, answering after the given delays (up, down). */
function timeServer(socket: FakeSocket, trueOffset: number, delays: [number, number][]): void {
  let i = 0;
  socket.onEmit = (e) => {
    if (e.event !== 'time:sync') return;
    const [up, down] = delays[i++ % delays.length] ?? [0, 0];
    const { clientTime } = e.payload as { clientTime: number };
    setTimeout(() => {
      const serverTime = Date.now() + trueOffset;
      setTimeout(() => e.ack?.({ clientTime, serverTime }), down);
    }, up);
  };
}

/** fetch for GET /api/v1/system/time, answering with the scripted outcomes in turn. */
function timeEndpoint(outcomes: ('hang' | 'fail' | number | (() => number))[]) {
  const urls: string[] = [];
  const at: number[] = [];
  let i = 0;
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    at.push(Date.now());
    const outcome = outcomes[Math.min(i++, outcomes.length - 1)] ?? 'fail';
    if (outcome === 'hang') {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (outcome === 'fail') return Promise.resolve(new Response('bad gateway', { status: 502 }));
    const serverTime = typeof outcome === 'function' ? outcome() : Date.now() + outcome;
    return Promise.resolve(
      new Response(JSON.stringify({ errCode: '00', errMsg: '', data: { serverTime } }), { status: 200 }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, urls, at };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  resetSockets();
  resetFakeSockets();
  resetClock();
});
afterEach(() => {
  resetClock();
  resetSockets();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('offset math', () => {
  it('takes the server time at the middle of the round trip', () => {
    expect(sampleFrom(1000, 6000, 200)).toEqual({ offset: 4900, rtt: 200 });
    expect(sampleFrom(1000, 900, 0)).toEqual({ offset: -100, rtt: 0 });
  });

  it('keeps the sample with the shortest round trip', () => {
    expect(bestSample([])).toBeNull();
    expect(bestSample([{ offset: 1, rtt: 300 }, { offset: 2, rtt: 80 }, { offset: 3, rtt: 120 }])).toEqual({ offset: 2, rtt: 80 });
  });

  it('serverNow is the local clock plus the offset', () => {
    setClockOffset(90_000);
    expect(serverNow()).toBe(T0 + 90_000);
    expect(clockOffset()).toBe(90_000);
  });
});

describe('syncClock over the socket', () => {
  it('adopts the best of 3 time:sync samples by round trip', async () => {
    getSocket('/');
    const s = lastSocket('/');
    s.serverConnect();
    // Asymmetric paths mislead; the shortest, symmetric round trip measures the true 10 s.
    timeServer(s, 10_000, [
      [250, 50],
      [50, 50],
      [150, 50],
    ]);
    const p = syncClock();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(p).resolves.toBe(10_000);
    expect(s.emitted.filter((e) => e.event === 'time:sync')).toHaveLength(3);
    expect(clockSyncInfo()).toMatchObject({ source: 'socket', rtt: 100, offset: 10_000 });
    expect(serverNow() - Date.now()).toBe(10_000);
  });

  it('does not open a socket: without a connected "/" socket it asks the REST endpoint', async () => {
    const { urls } = timeEndpoint([4000]);
    const p = syncClock();
    await vi.advanceTimersByTimeAsync(10);
    await expect(p).resolves.toBe(4000);
    expect(urls).toEqual(['/api/v1/system/time']);
    expect(clockSyncInfo().source).toBe('rest');
    expect(io).not.toHaveBeenCalled();
  });

  it('falls back to REST when every time:sync times out', async () => {
    getSocket('/');
    lastSocket('/').serverConnect();
    timeEndpoint([-2000]);
    const p = syncClock();
    await vi.advanceTimersByTimeAsync(3 * 500 + 10);
    await expect(p).resolves.toBe(-2000);
    expect(clockSyncInfo().source).toBe('rest');
  });
});

describe('REST fallback', () => {
  it('times out after 500 ms and retries with backoff until it succeeds', async () => {
    const { at } = timeEndpoint(['hang', 'fail', 'hang', 7000]);
    const p = syncClock();
    // 0: hangs, aborted at 500 → wait 500 → 1000: 502 → wait 1000 → 2000: hangs until 2500 → wait 2000 → 4500: ok.
    await vi.advanceTimersByTimeAsync(4499);
    expect(at.map((t) => t - T0)).toEqual([0, 1000, 2000]);
    await vi.advanceTimersByTimeAsync(10);
    await expect(p).resolves.toBe(7000);
    expect(at.map((t) => t - T0)).toEqual([0, 1000, 2000, 4500]);
  });

  it('shares one measurement between concurrent callers', async () => {
    const { fetchMock } = timeEndpoint([1234]);
    const a = syncClock();
    const b = syncClock();
    await vi.advanceTimersByTimeAsync(10);
    await expect(Promise.all([a, b])).resolves.toEqual([1234, 1234]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('the 3 s check loop', () => {
  it('re-syncs when the local clock jumps more than 5 s, keeping serverNow continuous', async () => {
    // The server's clock runs with real elapsed time, whatever the local wall clock says.
    const perf0 = performance.now();
    const { fetchMock } = timeEndpoint([() => T0 + Math.round(performance.now() - perf0)]);
    startClock();
    await vi.advanceTimersByTimeAsync(10);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(clockOffset()).toBe(0);
    const before = serverNow();

    // The user sets the phone clock back 10 minutes (performance.now does not move).
    vi.setSystemTime(Date.now() - 600_000);
    fetchMock.mockClear();
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10);
    // The resync measured the jump: serverNow continues as if nothing happened.
    expect(Math.abs(serverNow() - (before + 3010))).toBeLessThan(50);
    expect(clockOffset()).toBe(600_000);
    expect(clockSyncInfo().offset).toBe(600_000);
  });

  it('does not re-sync for a drift within 5 s, but does periodically', async () => {
    const { fetchMock } = timeEndpoint([0]);
    startClock();
    await vi.advanceTimersByTimeAsync(10);
    fetchMock.mockClear();
    vi.setSystemTime(Date.now() + 4000);
    await vi.advanceTimersByTimeAsync(9000);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('re-syncs over the socket when the "/" socket connects', async () => {
    const { fetchMock } = timeEndpoint([0]);
    startClock();
    await vi.advanceTimersByTimeAsync(10);
    getSocket('/');
    const s = lastSocket('/');
    timeServer(s, 3000, [[20, 20]]);
    s.serverConnect();
    await vi.advanceTimersByTimeAsync(200);
    expect(clockSyncInfo()).toMatchObject({ source: 'socket', offset: 3000 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('hooks on the server clock', () => {
  it('useCountdown counts to a server-time target although the local clock is an hour off', () => {
    setClockOffset(3_600_000);
    const target = T0 + 3_600_000 + 10_000;
    const { result } = renderHook(() => useCountdown(target));
    expect(result.current).toEqual({ msLeft: 10_000, secondsLeft: 10, done: false });
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.secondsLeft).toBe(7);
    // A resync finds the server 5 s further ahead: the countdown follows at once.
    act(() => setClockOffset(3_605_000));
    expect(result.current.secondsLeft).toBe(2);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toEqual({ msLeft: 0, secondsLeft: 0, done: true });
  });

  it('useCountdown with no target is idle', () => {
    const { result } = renderHook(() => useCountdown(null));
    expect(result.current).toEqual({ msLeft: 0, secondsLeft: 0, done: false });
  });

  it('useServerNow ticks with the server clock', () => {
    setClockOffset(-5000);
    const { result } = renderHook(() => useServerNow(1000));
    expect(result.current).toBe(T0 - 5000);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toBe(T0 - 3000);
    act(() => setClockOffset(0));
    expect(result.current).toBe(T0 + 2000);
  });
});
