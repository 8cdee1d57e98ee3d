/**
 * A stand-in for socket.io-client in unit tests: `vi.mock('socket.io-client', () => socketIoMock)`.
 * Each `io()` call creates a FakeSocket the test then drives from the "server" side
 * (serverConnect, drop, connectError…) and whose emits it inspects.
 */
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();

  on(event: string, fn: Listener): this {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(fn);
    return this;
  }

  off(event: string, fn: Listener): this {
    this.listeners.get(event)?.delete(fn);
    return this;
  }

  removeAllListeners(): this {
    this.listeners.clear();
    return this;
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** Fires a local event (what socket.io-client's emitReserved / a server packet does). */
  fire(event: string, ...args: unknown[]): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) fn(...args);
  }
}

export interface Emitted {
  event: string;
  payload: unknown;
  ack?: (answer: unknown) => void;
}

export interface FakeSocketOptions {
  path?: string;
  transports?: string[];
  autoConnect?: boolean;
  auth?: (cb: (data: Record<string, unknown>) => void) => void;
  [key: string]: unknown;
}

export class FakeSocket extends Emitter {
  readonly io = new Emitter();
  connected = false;
  active = false;
  recovered = false;
  connectCalls = 0;
  readonly emitted: Emitted[] = [];
  /** The test's "server": sees every emit and may answer its ack (e.g. time:sync). */
  onEmit: ((e: Emitted) => void) | null = null;
  readonly nsp: string;
  readonly opts: FakeSocketOptions;

  constructor(nsp: string, opts: FakeSocketOptions) {
    super();
    this.nsp = nsp;
    this.opts = opts;
  }

  connect(): this {
    this.active = true;
    this.connectCalls += 1;
    return this;
  }

  disconnect(): this {
    const was = this.connected;
    this.active = false;
    this.connected = false;
    if (was) this.fire('disconnect', 'io client disconnect');
    return this;
  }

  emit(event: string, payload?: unknown, ack?: (answer: unknown) => void): this {
    const e = { event, payload, ack };
    this.emitted.push(e);
    this.onEmit?.(e);
    return this;
  }

  /** The handshake auth the client would send now. */
  handshakeAuth(): Record<string, unknown> {
    let data: Record<string, unknown> = {};
    this.opts.auth?.((d) => {
      data = d;
    });
    return data;
  }

  serverConnect({ recovered = false }: { recovered?: boolean } = {}): void {
    this.connected = true;
    this.active = true;
    this.recovered = recovered;
    this.fire('connect');
  }

  /** The connection dropped (the client keeps trying: active stays true). */
  drop(reason = 'transport close'): void {
    this.connected = false;
    this.fire('disconnect', reason);
  }

  /** A failed attempt; `refused`: the server's CONNECT_ERROR (the client stops). */
  connectError(message: string, { refused = false }: { refused?: boolean } = {}): void {
    if (refused) this.active = false;
    this.fire('connect_error', new Error(message));
  }

  /** A server → client event. */
  serverEmit(event: string, payload: unknown): void {
    this.fire(event, payload);
  }
}

export const sockets: FakeSocket[] = [];

export const io = vi.fn((nsp: string, opts: FakeSocketOptions) => {
  const socket = new FakeSocket(nsp, opts);
  sockets.push(socket);
  return socket;
});

export function lastSocket(nsp = '/'): FakeSocket {
  const found = [...sockets].reverse().find((s) => s.nsp === nsp);
  if (!found) throw new Error(`no socket for ${nsp}`);
  return found;
}

export function resetFakeSockets(): void {
  sockets.length = 0;
  io.mockClear();
}

export const socketIoMock = { io, default: io };
