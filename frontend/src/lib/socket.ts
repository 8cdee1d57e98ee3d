/**
 * The one Socket.IO connection of the app (namespace "/"), created on first use. Feature stores
 * subscribe to it; nothing connects until a feature asks (order tracking, cart sync: later tasks).
 */
import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;

export function getSocket(): Socket {
  socket ??= io({ path: '/socket.io/', autoConnect: false, transports: ['websocket', 'polling'] });
  return socket;
}
