/**
 * The order feature: /order/status (the order followed live), /order (list), /order/info,
 * /order/oneMoreOrder, /order/comment.
 */
export { OrderStatusPage, type OrderStatusPageProps, type OrderPaymentView } from './components/OrderStatusPage';
export { OrderListPage } from './components/OrderListPage';
export { OrderInfoPage } from './components/OrderInfoPage';
export { ReorderPage, type ReorderResult } from './components/ReorderPage';
export { CommentPage } from './components/CommentPage';
export { RefundFailedDialog, refundFailure, REFUND_FAILED } from './components/RefundFailedDialog';
export { getOrder, listOrders, cancelOrder, refundOrder, reorder, commentOrder, watchOrder, type WatchAck } from './api/order';
export { useOrderTracker, type OrderTracker } from './hooks/useOrderTracker';
export { orderStateLabel, orderStateTone, stepLabelKey, ORDER_FILTERS, isClosedState, isCancelledState, isUnpaidState } from './labels';
export {
  STEP_CODES,
  stageOf,
  stepIndex,
  stepsAt,
  stepsOf,
  emptySteps,
  applyProgress,
  judgeSeq,
  onProgress,
  onSnapshot,
  EMPTY_TRACKER,
  type TrackerState,
  type SeqVerdict,
} from './tracking';
export { COMMENT_MAX, commentProblem } from './comment';
