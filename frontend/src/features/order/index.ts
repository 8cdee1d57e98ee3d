/** The order feature: the order status page (the payments issue extends it). */
export { OrderStatusPage, type OrderStatusPageProps } from './components/OrderStatusPage';
export { getOrder } from './api/order';
export { orderStateLabel, orderStateTone } from './labels';
