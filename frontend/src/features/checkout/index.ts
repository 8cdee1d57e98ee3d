/** The checkout feature: /order/submit (order type, address, time, notes, payment, amounts, submit). */
export { CheckoutPage, AMOUNTS_CHANGED, type CheckoutPageProps } from './components/CheckoutPage';
export { TimePicker, type TimePickerProps } from './components/TimePicker';
export { getReservationSlots, submitOrder } from './api/checkout';
export { buildOrder, cleanRemark, paymentTypesFor, IdempotencyKeys, REMARK_MAX, TABLEWARE_MAX, type CheckoutChoices } from './submit';
