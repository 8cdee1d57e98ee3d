//! Payments' refusals (docs/payments-and-orders.md), in both languages: what the payment
//! service's failures say to the payer, and the ceilings on new attempts (issue 34).

use super::{ApiError, Msg};
use actors::domain::lang::Lang;
use actors::payments::{AttemptRefusal, PayFailure};
use actors::providers::payment::PaymentError;

/// Past the order's ceiling: 409, the order takes no new attempt. Past the user's minute: 429
/// with how long to wait (data `retryAfterSeconds`, the Retry-After header).
pub fn attempt_refused(refusal: AttemptRefusal) -> ApiError {
    let msg = Msg::new(refusal.message(Lang::Zh), refusal.message(Lang::En));
    match refusal {
        AttemptRefusal::OrderCeiling { .. } => ApiError::Conflict(msg),
        AttemptRefusal::TooFrequent {
            retry_after_seconds,
        } => ApiError::RateLimited {
            msg,
            retry_after_seconds,
        },
    }
}

impl From<PayFailure> for ApiError {
    fn from(e: PayFailure) -> ApiError {
        match e {
            PayFailure::NotPayable => {
                ApiError::conflict("订单状态已变化，无法支付", "This order cannot be paid now")
            }
            PayFailure::NotFound => ApiError::not_found("支付记录不存在", "No such payment"),
            PayFailure::AmountMismatch { .. } => {
                ApiError::bad_input("支付金额不符", "The paid amount does not match")
            }
            PayFailure::Provider(PaymentError::Rejected { code, msg }) if code == "01" => {
                ApiError::RefundFailed {
                    content: msg,
                    store_tel: String::new(),
                }
            }
            PayFailure::Provider(PaymentError::Unavailable(_)) | PayFailure::Unavailable => {
                ApiError::Unavailable(Msg::fixed(
                    "支付服务暂不可用，请稍后再试",
                    "The payment service is unavailable, please try again later",
                ))
            }
            // The provider's own words are for our logs, not the customer.
            PayFailure::Provider(e) => {
                tracing::warn!(error = %e, "payment provider refused");
                ApiError::bad_input(
                    "支付失败，请稍后再试或更换支付方式",
                    "Payment failed, please try again or choose another method",
                )
            }
            PayFailure::Order(e) => e.into(),
            PayFailure::Db(e) => e.into(),
            PayFailure::Contended => ApiError::conflict(
                "支付处理中，请稍后再试",
                "The payment is being processed; try again",
            ),
            PayFailure::Unconfirmed(_) => ApiError::conflict(
                "支付结果尚未确认，请稍后再试",
                "The payment is not confirmed yet; try again",
            ),
            PayFailure::Refused(refusal) => attempt_refused(refusal),
        }
    }
}
