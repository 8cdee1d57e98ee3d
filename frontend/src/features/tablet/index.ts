/**
 * The store tablet: /tablet/login and /tablet, the live order queue of one store for its crew
 * (staff session apart from the customer's, "/store" socket, new-order alarm, store status,
 * sold-out products).
 */
export { TabletLoginPage } from './components/TabletLoginPage';
export { TabletBoard } from './components/TabletBoard';
export { RequireTablet } from './components/RequireTablet';
export { useTabletSession, resetTabletSession, staffToken } from './store/session';
export { useBoard, resetBoard } from './store/board';
export { queueReducer, EMPTY_QUEUE, type QueueState, type QueueAction } from './queue';
export { columnOf, COLUMNS, type ColumnId } from './stages';
export type { TabletOrder, StoreBoard, TabletProduct, TabletLoginReply, StoreStatus } from './types';
