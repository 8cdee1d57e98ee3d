/**
 * The payment feature: the channel's methods, POST /payments and the hand-over to the provider,
 * the pay-in-progress record (30 min) and the return to /order/status (spec ordering §4 payment
 * flow; docs/payments-and-orders.md).
 */
export { PAY_METHODS, methodAllowed, payMethodsFor, onlineMethodsFor } from './methods';
export { createPayment, getPayment, getPaymentInProgress } from './api/payments';
export { handoffOf, performHandoff, safeUrl, type Handoff, type HandoffEnv } from './handoff';
export { PAY_RECORD_KEY, PAY_RECORD_TTL_MS, PAY_RESUME_DELAY_MS, isRecordLive, readPayRecord, type PayRecord } from './record';
export { recordOfCreated, recordOfServer, savePayRecord, clearPayRecord } from './recordWriters';
export { statusPath } from './paths';
export { usePay, PAY_ERROR_TOAST_MS, type PayFlow, type UsePayOptions } from './hooks/usePay';
export { usePayResume } from './hooks/usePayResume';
export { usePendingPayment } from './hooks/usePendingPayment';
export { usePaymentWatch, phaseOf, PAYMENT_POLL_MS, type PayPhase, type PaymentWatch } from './hooks/usePaymentWatch';
export { PayHost, PayingMask } from './components/PayHost';
