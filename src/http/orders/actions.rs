//! What a customer does with an order: cancel it (a paid one is refunded), ask for the
//! refund again, comment on it once it is completed.

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::session::AuthUser;
use crate::http::orders::detail::{build, find_allowed};
use crate::http::orders::detail_dto::{CommentDto, OrderDetailDto};
use crate::state::AppState;
use actix_web::{post, web};
use actors::db::comments::CommentRepo;
use actors::db::orders::OrderRow;
use actors::domain::money::Fen;
use actors::domain::ordering::comment::{Comment, CommentRefusal};
use actors::domain::ordering::order_machine::{state as s, Actor as Mover, Command};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct CancelBody {
    #[serde(default)]
    reason: Option<String>,
}

async fn owned(state: &AppState, user: &AuthUser, order_no: &str) -> ApiResult<OrderRow> {
    let order_no = params::code("orderNo", order_no)?;
    find_allowed(state, &order_no, Some(user.user_id), None).await
}

/// Refunds what was paid for the order; a refusal by the provider is errCode 01 with the
/// store's phone for the alert.
async fn refund(state: &AppState, order: &OrderRow) -> ApiResult<()> {
    match state.payments.refund_order(&order.order_no).await {
        Ok(_) => Ok(()),
        Err(e) => {
            let content = e.to_string();
            tracing::error!(error = %content, order_no = %order.order_no, "refund failed");
            Err(ApiError::RefundFailed {
                content,
                store_tel: order
                    .doc
                    .get("storeTel")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            })
        }
    }
}

/// Cancels the order (cancelOrder): the customer, before the store accepted it. A paid order is
/// refunded.
#[utoipa::path(path = "/orders/{orderNo}/cancel", tag = "orders", params(("orderNo" = String, Path)), request_body = CancelBody,
    responses((status = 200, body = Envelope<OrderDetailDto>), (status = 409), (status = 502)))]
#[post("/{orderNo}/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    path: web::Path<String>,
    body: Option<web::Json<CancelBody>>,
) -> ApiResult<Reply<OrderDetailDto>> {
    let order = owned(&state, &user, &path).await?;
    let _reason = body.and_then(|b| b.into_inner().reason);
    let done = state
        .orders
        .make_move(
            &order.order_no,
            Mover::Customer,
            Command::CustomerCancel,
            Fen::ZERO,
        )
        .await?;
    // An attempt still open (a cashier tab left behind) is closed at the provider, so the
    // cancelled order takes no more money; one paid meanwhile is refunded by the refund below.
    if let Err(e) = state.payments.close_open_attempts(&order.order_no).await {
        tracing::warn!(error = %e, order_no = %order.order_no, "open attempts left to their expiry");
    }
    // Its coupons come back (the order hook did it unless that failed: then once more here,
    // and a failure is 退券失败 with the store's phone), then the money.
    crate::http::loyalty::coupons::ensure_given_back(&state, &order, "cancelled").await?;
    if done.transition.refund {
        refund(&state, &order).await?;
    }
    let order = owned(&state, &user, &path).await?;
    Ok(Reply::new(build(&state, order, ctx.lang).await?))
}

/// Retries the refund of a refused or cancelled paid order (the spec's refund call).
#[utoipa::path(path = "/orders/{orderNo}/refund", tag = "orders", params(("orderNo" = String, Path)),
    responses((status = 200, body = Envelope<OrderDetailDto>), (status = 409), (status = 502)))]
#[post("/{orderNo}/refund")]
pub async fn refund_again(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    path: web::Path<String>,
) -> ApiResult<Reply<OrderDetailDto>> {
    let order = owned(&state, &user, &path).await?;
    if !matches!(
        order.state,
        s::REFUSED_BY_STORE | s::CANCELLED_BY_CUSTOMER | s::EXPIRED_UNPAID
    ) {
        return Err(ApiError::conflict(
            "订单未取消，无需退款",
            "Only a cancelled order is refunded",
        ));
    }
    crate::http::loyalty::coupons::ensure_given_back(&state, &order, "refund").await?;
    refund(&state, &order).await?;
    let order = owned(&state, &user, &path).await?;
    Ok(Reply::new(build(&state, order, ctx.lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CommentBody {
    rating: u8,
    #[serde(default)]
    text: String,
}

/// A comment on a completed order: a rating of 1 to 5 and up to 200 characters, once.
#[utoipa::path(path = "/orders/{orderNo}/comment", tag = "orders", params(("orderNo" = String, Path)), request_body = CommentBody,
    responses((status = 200, body = Envelope<CommentDto>), (status = 400), (status = 409)))]
#[post("/{orderNo}/comment")]
pub async fn comment(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    body: web::Json<CommentBody>,
) -> ApiResult<Reply<CommentDto>> {
    let order = owned(&state, &user, &path).await?;
    let kept = Comment::parse(order.state, body.rating, &body.text)?;
    let now = state.clock.now_ms();
    if !CommentRepo::new(state.db.clone())
        .add(&order.order_no, user.user_id, &kept, now)
        .await?
    {
        return Err(CommentRefusal::AlreadyRated.into());
    }
    state.order_changed(&order.order_no).await;
    Ok(Reply::new(CommentDto {
        rating: kept.rating,
        text: kept.text,
        at: now,
    }))
}
