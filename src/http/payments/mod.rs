//! Payments (spec §4 payment flow, §7 create calls; docs/payments-and-orders.md): create an
//! attempt with the channel's method, the pay-in-progress record, the status (asking the
//! provider while pending), and the provider's signed notify.

pub mod sandbox;

use crate::http::edge::client_ip::client_ip;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::idempotency::{Begun, Idempotency};
use crate::http::edge::params;
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use actors::db::orders::{OrderRepo, OrderRow};
use actors::db::payments::PaymentRow;
use actors::domain::catalogue::DELIVERY;
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::order_machine::state as s;
use actors::domain::payments::return_path::ReturnPath;
use actors::domain::payments::settlement::RefundReason;
use actors::payments::{PayFailure, PayRequest, PAYMENT_LIFETIME_MS};
use actors::providers::payment::{encode_component, PayInstructions, PayMethod};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePaymentBody {
    order_no: String,
    #[schema(value_type = actors::providers::payment::PayMethod)]
    method: String,
    /// Where the browser comes back to: a path of this site (`/order/status?…`). Default, and
    /// for anything else (an absolute URL, `//host`, a backslash, an encoded trick):
    /// /order/status?orderNo=….
    return_url: Option<String>,
    open_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentCreatedDto {
    pub payment_id: Option<String>,
    pub order_no: String,
    pub order_id: i64,
    pub order_type: u8,
    pub method: String,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub pay_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub already_pay_amount: Fen,
    pub html: Option<String>,
    pub url: Option<String>,
    pub pay_info: Option<String>,
    pub sign_info: Option<String>,
    pub tn: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub union_pay_paras: Option<serde_json::Value>,
    pub expires_at: Option<i64>,
}

impl PaymentCreatedDto {
    /// What is left to pay on `order` with `method`, before an attempt exists.
    fn for_order(order: &OrderRow, method: PayMethod) -> PaymentCreatedDto {
        PaymentCreatedDto {
            payment_id: None,
            order_no: order.order_no.clone(),
            order_id: order.id,
            order_type: order.order_type,
            method: method.as_str().into(),
            pay_amount: order.order_amount - order.paid_amount,
            order_amount: order.order_amount,
            already_pay_amount: order.paid_amount,
            html: None,
            url: None,
            pay_info: None,
            sign_info: None,
            tn: None,
            union_pay_paras: None,
            expires_at: None,
        }
    }

    /// The attempt opened and what the payer's client does with it.
    fn with_attempt(
        self,
        payment: &PaymentRow,
        instructions: PayInstructions,
    ) -> PaymentCreatedDto {
        PaymentCreatedDto {
            payment_id: Some(payment.payment_id.clone()),
            pay_amount: payment.amount,
            html: instructions.html,
            url: instructions.url,
            pay_info: instructions.pay_info,
            sign_info: instructions.sign_info,
            tn: instructions.tn,
            union_pay_paras: instructions.union_pay_paras,
            expires_at: Some(payment.expires_at),
            ..self
        }
    }
}

/// Where the browser comes back to: a path of this site ([`ReturnPath`]), never an open
/// redirect. Anything else (an absolute URL, even of this site, `//host`, a backslash, an
/// encoded trick) gets the order's status page instead of a 400: the return address only says
/// where the payer lands afterwards, and that page is always right, so a client sending a
/// form we do not take must not stop a customer from paying. The refusal is logged.
fn return_url(given: Option<&str>, order_no: &str) -> String {
    let default = || format!("/order/status?orderNo={}", encode_component(order_no));
    match given {
        None | Some("") => default(),
        Some(text) => match ReturnPath::parse(text) {
            Ok(path) => path.as_str().to_owned(),
            Err(why) => {
                tracing::warn!(order_no, %why, given = %text.escape_debug(), "return URL refused: the status page instead");
                default()
            }
        },
    }
}

/// Creates a payment attempt for an unpaid order with a method of the user's channel, or hands
/// out again the order's attempt of that method still open (same paymentId and instructions, no
/// second trade). `offline` turns an unpaid delivery order into cash on delivery (no provider).
/// A repeat of the Idempotency-Key while the first is at work, on any node, waits for its
/// answer (409 if that takes over 10 s). New attempts have ceilings
/// (`[payment] max_attempts_per_order`, `max_attempts_per_user_minute`): past the order's, 409;
/// past the user's minute, 429 with retryAfterSeconds.
#[utoipa::path(tag = "payments", request_body = CreatePaymentBody,
    params(("Idempotency-Key" = Option<String>, Header)),
    responses((status = 200, body = Envelope<PaymentCreatedDto>), (status = 400), (status = 409), (status = 429)))]
#[post("/payments")]
pub async fn create(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    req: HttpRequest,
    raw: web::Json<serde_json::Value>,
) -> ApiResult<HttpResponse> {
    let raw = raw.into_inner();
    let body: CreatePaymentBody = serde_json::from_value(raw.clone())
        .map_err(|e| crate::http::edge::extractor_errors::body_error(&e))?;
    let idem = Idempotency::of(&req, format!("pay:{}", user.user_id), &raw)?;
    // A twin with the same key (a double tap, a retry racing the first try) waits here for
    // this request's answer, on any node.
    let claim = match idem.begin(&state).await? {
        Begun::Replay(response) => return Ok(response),
        Begun::Work(claim) => claim,
    };
    match pay(&state, &ctx, user.user_id, &req, &body).await {
        Ok(dto) => {
            claim.answer(&state, &idem.answer(&dto)).await;
            Ok(answer(&dto))
        }
        Err(e) => {
            claim.release().await;
            Err(e)
        }
    }
}

/// The work of a pay request: the method checked against the channel, the user's order, then
/// an attempt (the open one of the method again, or a new one within the ceilings).
async fn pay(
    state: &AppState,
    ctx: &Ctx,
    user_id: i64,
    req: &HttpRequest,
    body: &CreatePaymentBody,
) -> ApiResult<PaymentCreatedDto> {
    let method = PayMethod::parse(body.method.trim())
        .ok_or_else(|| ApiError::bad_input("支付方式不正确", "Unknown payment method"))?;
    if !method.allowed_in(ctx.channel) {
        return Err(ApiError::bad_input(
            "当前渠道不支持该支付方式",
            "That payment method is not available here",
        ));
    }
    let order_no = params::code("orderNo", &body.order_no)?;
    let orders = OrderRepo::new(state.db.clone());
    let order = orders
        .find_head(&order_no)
        .await?
        .filter(|o| o.user_id == user_id)
        .ok_or_else(|| ApiError::not_found("订单不存在", "No such order"))?;
    let mut dto = PaymentCreatedDto::for_order(&order, method);
    if method == PayMethod::Offline {
        // Cash on delivery is chosen at submit; here it is only confirmed for such an order.
        if order.state != s::CASH_ON_DELIVERY || order.order_type != DELIVERY {
            return Err(ApiError::bad_input(
                "货到付款需在提交外送订单时选择",
                "Pay on delivery is chosen when submitting a delivery order",
            ));
        }
        dto.pay_amount = Fen::ZERO;
        return Ok(dto);
    }
    let request = PayRequest {
        notify_url: format!(
            "{}/api/v1/payments/notify/{}",
            state.notify_base_url,
            state.payments.provider().name()
        ),
        return_url: return_url(body.return_url.as_deref(), &order.order_no),
        client_ip: client_ip(req),
        open_id: body.open_id.clone(),
    };
    let (payment, instructions) = state.payments.create(&order, method, request).await?;
    Ok(dto.with_attempt(&payment, instructions))
}

fn answer<T: Serialize>(data: &T) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(Envelope {
            err_code: "00".into(),
            err_msg: String::new(),
            data,
        })
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InProgressDto {
    /// What is to pay (spec "money").
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub money: Fen,
    pub order_no: String,
    pub order_id: i64,
    #[schema(value_type = Option<Object>)]
    pub pay_info: Option<serde_json::Value>,
    pub order_type: u8,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub already_pay_amount: Fen,
    pub payment_id: String,
    pub method: String,
    pub expires_at: i64,
}

/// The user's pending payment (the pay-in-progress record), at most 30 minutes old.
#[utoipa::path(tag = "payments", responses((status = 200, body = Envelope<Option<InProgressDto>>), (status = 401)))]
#[get("/payments/in-progress")]
pub async fn in_progress(
    state: web::Data<AppState>,
    user: AuthUser,
) -> ApiResult<Reply<Option<InProgressDto>>> {
    let now = state.clock.now_ms();
    let Some(p) = state
        .payments
        .repo()
        .pending_for_user(user.user_id, now - PAYMENT_LIFETIME_MS)
        .await?
        .filter(|p| p.expires_at > now)
    else {
        return Ok(Reply::new(None));
    };
    let order = OrderRepo::new(state.db.clone()).find(&p.order_no).await?;
    let Some(order) = order else {
        return Ok(Reply::new(None));
    };
    Ok(Reply::new(Some(InProgressDto {
        money: p.amount,
        order_no: order.order_no,
        order_id: order.id,
        pay_info: p.instructions.clone(),
        order_type: order.order_type,
        order_amount: order.order_amount,
        already_pay_amount: order.paid_amount,
        payment_id: p.payment_id,
        method: p.method,
        expires_at: p.expires_at,
    })))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentDto {
    pub payment_id: String,
    pub order_no: String,
    /// created, pending, paid, failed, closed, refunding (the refund is owed and retried),
    /// refunded.
    pub state: String,
    pub method: String,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub amount: Fen,
    pub fail_reason: Option<String>,
    /// Why a refunding or refunded attempt gives its money back (duplicate payment, order
    /// cancelled, refused by the store …), in the caller's language.
    pub refund_reason: Option<String>,
    pub expires_at: i64,
}

impl PaymentDto {
    fn new(p: PaymentRow, lang: Lang) -> PaymentDto {
        PaymentDto {
            payment_id: p.payment_id,
            order_no: p.order_no,
            state: p.state.as_str().to_string(),
            method: p.method,
            amount: p.amount,
            fail_reason: p.fail_reason.map(|r| fail_reason_text(&r, lang)),
            refund_reason: refund_reason_text(p.refund_reason.as_deref(), lang),
            expires_at: p.expires_at,
        }
    }
}

/// Why a payment's money goes back, in the payer's language.
pub fn refund_reason_text(code: Option<&str>, lang: Lang) -> Option<String> {
    code.map(|c| match RefundReason::parse(c) {
        Some(r) => r.message(lang).to_string(),
        None => c.to_string(),
    })
}

/// Why a payment did not go through, in the payer's language: the reasons our own code records
/// are known; a provider's own words (already meant for the payer) pass through as they came.
fn fail_reason_text(reason: &str, lang: Lang) -> String {
    let (zh, en) = match reason {
        "cancelled by the payer" => ("您已取消支付", "You cancelled the payment"),
        "declined by the payer" | "failed at the provider" => (
            "支付未成功，请重新支付",
            "The payment did not go through; please try again",
        ),
        "expired" => (
            "支付超时，订单已取消",
            "The payment timed out; the order was cancelled",
        ),
        "order_cancelled" => (
            "订单已取消，支付已关闭",
            "The order was cancelled; this payment is closed",
        ),
        other => return other.to_string(),
    };
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
    .to_string()
}

/// A payment's state; while pending the provider is asked, so the answer is never stuck
/// waiting for a notify.
#[utoipa::path(tag = "payments", params(("paymentId" = String, Path)),
    responses((status = 200, body = Envelope<PaymentDto>), (status = 401), (status = 404)))]
#[get("/payments/{paymentId}")]
pub async fn status(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    path: web::Path<String>,
) -> ApiResult<Reply<PaymentDto>> {
    let id = params::code("paymentId", &path)?;
    let owned = state
        .payments
        .repo()
        .get(&id)
        .await?
        .filter(|p| p.user_id == user.user_id);
    if owned.is_none() {
        return Err(ApiError::not_found("支付记录不存在", "No such payment"));
    }
    let payment = state.payments.refresh(&id).await?;
    Ok(Reply::new(PaymentDto::new(payment, ctx.lang)))
}

/// The provider's asynchronous notify: signature first (a bad one changes nothing), then the
/// provider is asked whether it is so (only what its query confirms is applied), then the
/// payment and the order, once however often it comes. Answers what the provider expects; a
/// notify for a payment we never issued is refused and logged.
#[utoipa::path(tag = "payments", params(("provider" = String, Path)),
    request_body(content = String, content_type = "application/x-www-form-urlencoded", description = "the provider's signed form"),
    responses((status = 200, description = "the provider's ack text"), (status = 400)))]
#[post("/payments/notify/{provider}")]
pub async fn notify(
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let provider = state.payments.provider();
    let refuse = |code: StatusCode, why: &str| {
        HttpResponse::build(code)
            .content_type("text/plain")
            .body(format!("fail: {why}"))
    };
    if path.as_str() != provider.name() {
        return refuse(StatusCode::NOT_FOUND, "unknown provider");
    }
    let notify = match provider.verify_notify(&body) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "payment notify refused");
            return refuse(StatusCode::BAD_REQUEST, "bad signature or body");
        }
    };
    match state
        .payments
        .on_notify(
            &notify.payment_id,
            &notify.trade_no,
            notify.status,
            notify.amount,
        )
        .await
    {
        Ok(settled) => {
            tracing::info!(payment = %notify.payment_id, ?settled, "payment notify applied");
            HttpResponse::Ok()
                .content_type("text/plain")
                .body(provider.notify_ack())
        }
        Err(PayFailure::NotFound) => {
            tracing::warn!(payment = %notify.payment_id, trade_no = %notify.trade_no,
                "payment notify for a payment id we never issued: refused");
            refuse(StatusCode::BAD_REQUEST, "unknown payment")
        }
        Err(e @ PayFailure::AmountMismatch { .. }) => {
            tracing::warn!(error = %e, payment = %notify.payment_id, "payment notify refused");
            refuse(StatusCode::BAD_REQUEST, "does not match a payment")
        }
        // The provider's query says otherwise (logged by the service): nothing changed, and
        // the provider repeats the notify later.
        Err(e @ PayFailure::Unconfirmed(_)) => {
            tracing::warn!(error = %e, payment = %notify.payment_id, "payment notify not confirmed");
            refuse(StatusCode::CONFLICT, "not confirmed by the provider")
        }
        // Ours to fix: the provider retries later.
        Err(e) => {
            tracing::error!(error = %e, payment = %notify.payment_id, "payment notify failed");
            refuse(StatusCode::INTERNAL_SERVER_ERROR, "try again")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_reasons_are_told_in_the_payers_language() {
        for (reason, lang, text) in [
            ("cancelled by the payer", Lang::Zh, "您已取消支付"),
            (
                "cancelled by the payer",
                Lang::En,
                "You cancelled the payment",
            ),
            ("declined by the payer", Lang::Zh, "支付未成功，请重新支付"),
            (
                "failed at the provider",
                Lang::En,
                "The payment did not go through; please try again",
            ),
            ("expired", Lang::Zh, "支付超时，订单已取消"),
            ("order_cancelled", Lang::Zh, "订单已取消，支付已关闭"),
            (
                "order_cancelled",
                Lang::En,
                "The order was cancelled; this payment is closed",
            ),
            ("余额不足", Lang::En, "余额不足"),
        ] {
            assert_eq!(fail_reason_text(reason, lang), text, "{reason} in {lang:?}");
        }
    }
}
