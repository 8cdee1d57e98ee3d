import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io, lastSocket, resetFakeSockets } from '@/test/fakeSocket';
import {
  closeSocket,
  emit,
  emitWithAck,
  getSocket,
  getSocketStatus,
  loadSocketClient,
  onResync,
  peekSocket,
  reconnectSocket,
  resetSockets,
  setSocketAuth,
  setSocketAuthExtra,
  SocketTimeoutError,
  subscribe,
} from './index';

vi.mock('socket.io-client', async () => (await import('@/test/fakeSocket')).socketIoMock);

function goOffline(): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  window.dispatchEvent(new Event('offline'));
}

function goOnline(): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
  window.dispatchEvent(new Event('online'));
}

beforeEach(() => {
  resetSockets();
  resetFakeSockets();
});
afterEach(() => {
  resetSockets();
  vi.useRealTimers();
});

describe('getSocket', () => {
  it('creates nothing until asked, then one shared socket per namespace', () => {
    expect(peekSocket('/')).toBeNull();
    expect(getSocketStatus('/').status).toBe('idle');
    const a = getSocket('/');
    const b = getSocket('/');
    const tablet = getSocket('/store');
    expect(a).toBe(b);
    expect(tablet).not.toBe(a);
    expect(io).toHaveBeenCalledTimes(2);
    const [nsp, opts] = io.mock.calls[0] ?? [];
    expect(nsp).toBe('/');
    expect(opts).toMatchObject({ path: '/socket.io/', transports: ['websocket', 'polling'], reconnection: true, autoConnect: false });
    expect(io.mock.calls[1]?.[0]).toBe('/store');
    expect(lastSocket('/').connectCalls).toBe(1);
    expect(peekSocket('/')).toBe(a);
  });

  it('reads the handshake token from the getter at every connect', () => {
    let token: string | null = null;
    getSocket('/store', () => token);
    const s = lastSocket('/store');
    expect(s.handshakeAuth()).toEqual({});
    token = 'staff-1';
    expect(s.handshakeAuth()).toEqual({ token: 'staff-1' });
    setSocketAuth('/store', () => 'staff-2');
    expect(s.handshakeAuth()).toEqual({ token: 'staff-2' });
  });

  it('adds the extra handshake fields (a visitor cart token), leaving empty ones out', () => {
    let cartToken: string | null = null;
    setSocketAuthExtra('/', () => ({ cartToken }));
    getSocket('/', () => null);
    const s = lastSocket('/');
    expect(s.handshakeAuth()).toEqual({});
    cartToken = 'c_1';
    expect(s.handshakeAuth()).toEqual({ cartToken: 'c_1' });
    setSocketAuth('/', () => 'user-1');
    expect(s.handshakeAuth()).toEqual({ cartToken: 'c_1', token: 'user-1' });
    setSocketAuthExtra('/', null);
    expect(s.handshakeAuth()).toEqual({ token: 'user-1' });
  });
});

describe('status', () => {
  it('goes connecting → connected → reconnecting → connected, and idle when closed', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-01T12:00:00Z'));
    getSocket('/');
    const s = lastSocket('/');
    expect(getSocketStatus('/').status).toBe('connecting');
    s.serverConnect();
    expect(getSocketStatus('/')).toMatchObject({ status: 'connected', lastConnectedAt: Date.parse('2025-03-01T12:00:00Z') });
    s.drop('ping timeout');
    expect(getSocketStatus('/').status).toBe('reconnecting');
    s.connectError('xhr poll error');
    expect(getSocketStatus('/')).toMatchObject({ status: 'reconnecting', lastError: 'xhr poll error' });
    s.serverConnect();
    expect(getSocketStatus('/').status).toBe('connected');
    closeSocket('/');
    expect(getSocketStatus('/').status).toBe('idle');
    expect(getSocketStatus('/store').status).toBe('idle');
  });

  it('is offline (refused) when the server refuses the handshake, until reconnectSocket', () => {
    getSocket('/store');
    const s = lastSocket('/store');
    s.connectError('invalid token', { refused: true });
    expect(getSocketStatus('/store')).toMatchObject({ status: 'offline', reason: 'refused', lastError: 'invalid token' });
    getSocket('/store');
    expect(s.connectCalls).toBe(1);
    reconnectSocket('/store');
    expect(s.connectCalls).toBe(2);
    expect(getSocketStatus('/store').status).toBe('connecting');
  });

  it('treats a server-side disconnect as refused', () => {
    getSocket('/');
    const s = lastSocket('/');
    s.serverConnect();
    s.drop('io server disconnect');
    expect(getSocketStatus('/')).toMatchObject({ status: 'offline', reason: 'refused' });
  });

  it('follows the browser offline and online events', () => {
    getSocket('/');
    const s = lastSocket('/');
    s.serverConnect();
    goOffline();
    expect(getSocketStatus('/')).toMatchObject({ status: 'offline', reason: 'network' });
    s.drop('transport close');
    s.connectError('websocket error');
    expect(getSocketStatus('/')).toMatchObject({ status: 'offline', reason: 'network' });
    s.active = false;
    goOnline();
    expect(getSocketStatus('/').status).toBe('reconnecting');
    expect(s.connectCalls).toBe(2);
    s.serverConnect();
    expect(getSocketStatus('/').status).toBe('connected');
  });

  it('leaves namespaces nobody opened alone when the browser goes offline', () => {
    goOffline();
    expect(getSocketStatus('/').status).toBe('idle');
    expect(io).not.toHaveBeenCalled();
  });
});

describe('onResync', () => {
  it('runs on the first connect, and after a reconnect only when not recovered', () => {
    const heard: string[] = [];
    const off = onResync('/', ({ reason }) => heard.push(reason));
    const other = vi.fn();
    onResync('/store', other);
    getSocket('/');
    const s = lastSocket('/');
    s.serverConnect();
    expect(heard).toEqual(['initial']);
    s.drop();
    s.serverConnect({ recovered: true });
    expect(heard).toEqual(['initial']);
    s.drop();
    s.serverConnect({ recovered: false });
    expect(heard).toEqual(['initial', 'not-recovered']);
    off();
    s.drop();
    s.serverConnect({ recovered: false });
    expect(heard).toHaveLength(2);
    expect(other).not.toHaveBeenCalled();
  });

  it('keeps calling the other listeners when one throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const second = vi.fn();
    onResync('/', () => {
      throw new Error('boom');
    });
    onResync('/', second);
    getSocket('/');
    lastSocket('/').serverConnect();
    expect(second).toHaveBeenCalledWith({ namespace: '/', reason: 'initial' });
    expect(error).toHaveBeenCalled();
  });
});

describe('subscribe', () => {
  it('delivers server events until unsubscribed', () => {
    const seen: number[] = [];
    const off = subscribe('/', 'order:progress', (p) => seen.push(p.seq));
    const s = lastSocket('/');
    s.serverEmit('order:progress', { orderNo: 'A1', progress: 2, state: 'baking', at: 1, eta: 2, seq: 7 });
    off();
    s.serverEmit('order:progress', { orderNo: 'A1', progress: 3, state: 'out', at: 1, eta: 2, seq: 8 });
    expect(seen).toEqual([7]);
    expect(s.listenerCount('order:progress')).toBe(0);
  });
});

describe('emitWithAck', () => {
  it('resolves with the acknowledgement', async () => {
    getSocket('/');
    const s = lastSocket('/');
    s.onEmit = (e) => e.ack?.({ clientTime: 1, serverTime: 2 });
    await expect(emitWithAck('/', 'time:sync', { clientTime: 1 }, 500)).resolves.toEqual({ clientTime: 1, serverTime: 2 });
    expect(s.emitted[0]).toMatchObject({ event: 'time:sync', payload: { clientTime: 1 } });
  });

  it('rejects with a SocketTimeoutError when no ack arrives in time, and ignores a late one', async () => {
    vi.useFakeTimers();
    getSocket('/');
    const s = lastSocket('/');
    const p = emitWithAck('/', 'order:watch', { orderNo: 'A1' }, 800);
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(799);
    let settled = false;
    void p.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await caught;
    expect(err).toBeInstanceOf(SocketTimeoutError);
    expect(err).toMatchObject({ event: 'order:watch', timeoutMs: 800 });
    s.emitted[0]?.ack?.({ late: true });
  });
});

describe('before socket.io-client has come', () => {
  beforeEach(() => {
    resetSockets({ client: true });
    resetFakeSockets();
  });
  afterEach(async () => {
    // The other tests expect the client at hand, as setup.ts leaves it.
    await loadSocketClient();
  });

  it('subscribe and emit wait for it, in order, and the namespace opens once', async () => {
    const seen: unknown[] = [];
    subscribe('/', 'order:progress', (p) => seen.push(p));
    emit('/', 'order:watch', { orderNo: 'A1' });
    const ack = emitWithAck<{ ok: boolean }>('/', 'time:sync', { t0: 1 });
    const dropped = subscribe('/', 'cart:updated', () => seen.push('never'));
    dropped();
    expect(peekSocket('/')).toBeNull();
    expect(getSocket('/')).toBeNull();
    expect(getSocketStatus('/').status).toBe('connecting');
    expect(io).not.toHaveBeenCalled();

    await loadSocketClient();
    expect(io).toHaveBeenCalledTimes(1);
    const s = lastSocket('/');
    expect(peekSocket('/')).toBe(s);
    expect(s.connectCalls).toBe(1);
    expect(s.emitted.map((e) => e.event)).toEqual(['order:watch', 'time:sync']);
    expect(s.listenerCount('order:progress')).toBe(1);
    expect(s.listenerCount('cart:updated')).toBe(0);
    s.emitted[1]?.ack?.({ ok: true });
    await expect(ack).resolves.toEqual({ ok: true });
    s.fire('order:progress', { orderNo: 'A1' });
    expect(seen).toEqual([{ orderNo: 'A1' }]);
  });

  it('a namespace closed before the client came stays closed', async () => {
    getSocket('/store');
    closeSocket('/store');
    expect(getSocketStatus('/store').status).toBe('idle');
    await loadSocketClient();
    expect(io).not.toHaveBeenCalled();
    expect(peekSocket('/store')).toBeNull();
  });
});
