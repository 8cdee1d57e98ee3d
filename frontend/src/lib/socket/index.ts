export {
  getSocket,
  peekSocket,
  isSocketConnected,
  closeSocket,
  onResync,
  subscribe,
  emit,
  emitWithAck,
  resetSockets,
  loadSocketClient,
  SocketTimeoutError,
  SOCKET_PATH,
  SOCKET_OPTIONS,
  DEFAULT_ACK_TIMEOUT_MS,
} from './socket';
export type { ResyncReason, ResyncListener } from './socket';
export { setSocketAuth, setSocketAuthExtra, reconnectSocket, type TokenGetter, type AuthExtra } from './handshake';
export { useSocketStatus, getSocketStatus, socketStatusStore } from './status';
export type { SocketStatus, OfflineReason, NamespaceStatus } from './status';
export { NAMESPACES } from './events';
export type {
  Namespace,
  ServerEvents,
  ServerPayload,
  OrderProgressEvent,
  PaymentResultEvent,
  StoreUpdateEvent,
  CartUpdatedEvent,
  TimeSyncRequest,
  TimeSyncAck,
  OrderWatchRequest,
} from './events';
