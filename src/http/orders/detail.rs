//! One order as the customer (or a holder of its view token) sees it: amounts, lines,
//! history, the steps with their times, the ETA, the payment, and what can be done with it
//! (cancel, refund, comment). `order:watch` answers the same snapshot.

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::Envelope;
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::reply_cache::{CachedReply, SharedJson};
use crate::http::edge::session::AuthUser;
use crate::http::orders::detail_dto::{render, CommentDto, OrderDetailDto};
use crate::http::orders::views::OrderSource;
use crate::state::AppState;
use actix_web::web;
use actors::db::comments::CommentRepo;
use actors::db::orders::{OrderRepo, OrderRow};
use actors::domain::lang::Lang;
use actors::domain::ordering::view_token::verify;
use serde::Deserialize;
use std::sync::Arc;
use utoipa::IntoParams;

pub async fn comment_of(state: &AppState, order_no: &str) -> ApiResult<Option<CommentDto>> {
    let kept = CommentRepo::new(state.db.clone()).find(order_no).await?;
    Ok(kept.map(|c| CommentDto {
        rating: c.rating,
        text: c.text,
        at: c.at,
    }))
}

/// The detail of an order already found (and allowed), read afresh.
pub async fn build(state: &AppState, order: OrderRow, lang: Lang) -> ApiResult<OrderDetailDto> {
    let source = load_source(state, order).await?;
    let board = state.stores.board_of(&source.order.store_code).await?;
    Ok(render(state, &source, lang, state.clock.now_ms(), &board).await)
}

/// What the detail is built from, read from the database.
pub async fn load_source(state: &AppState, order: OrderRow) -> ApiResult<OrderSource> {
    let history = OrderRepo::new(state.db.clone())
        .history(&order.order_no)
        .await?;
    let payments = state.payments.repo().for_order(&order.order_no).await?;
    let kept_comment = comment_of(state, &order.order_no).await?;
    Ok(OrderSource {
        order,
        history,
        payments,
        comment: kept_comment,
    })
}

/// The order if this caller may see it: its owner, or anyone with its view token.
pub async fn find_allowed(
    state: &AppState,
    order_no: &str,
    user_id: Option<i64>,
    token: Option<&str>,
) -> ApiResult<OrderRow> {
    let order = OrderRepo::new(state.db.clone())
        .find(order_no)
        .await?
        .ok_or_else(|| ApiError::not_found("订单不存在", "No such order"))?;
    let owner = user_id == Some(order.user_id);
    let holder = token.is_some_and(|t| verify(&state.table_secret, order_no, t));
    if owner || holder {
        Ok(order)
    } else {
        Err(ApiError::not_found("订单不存在", "No such order"))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct DetailQuery {
    view_token: Option<String>,
}

/// The order (orderDetail): for its owner, or with its view token. Read from memory while
/// nothing about the order changed (`order_views`).
#[utoipa::path(get, path = "/orders/{orderNo}", tag = "orders", params(("orderNo" = String, Path), DetailQuery),
    responses((status = 200, body = Envelope<OrderDetailDto>), (status = 404)))]
pub async fn detail(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: Option<AuthUser>,
    path: web::Path<String>,
    query: web::Query<DetailQuery>,
) -> ApiResult<CachedReply> {
    let order_no = params::code("orderNo", &path)?;
    if user.is_none() && query.view_token.is_none() {
        return Err(ApiError::LoginRequired);
    }
    let now = state.clock.now_ms();
    let entry = view_of(&state, &order_no, now).await?;
    if !may_read(
        &state,
        &entry,
        user.map(|u| u.user_id),
        query.view_token.as_deref(),
    ) {
        return Err(no_such_order());
    }
    Ok(CachedReply::new(
        written(&state, &entry, ctx.lang, now).await?,
    ))
}

/// The order as this node holds it (`order_views`): loaded from the database only when an
/// event about it came since it was last read, or it is older than its max age.
pub async fn view_of(
    state: &AppState,
    order_no: &str,
    now: i64,
) -> ApiResult<Arc<crate::http::orders::views::Entry>> {
    if let Some(entry) = state.order_views.fresh(order_no, now) {
        return Ok(entry);
    }
    let epoch = state.order_views.epoch();
    let order = OrderRepo::new(state.db.clone())
        .find(order_no)
        .await?
        .ok_or_else(no_such_order)?;
    let source = load_source(state, order).await?;
    Ok(state.order_views.keep(source, now, epoch))
}

/// Its owner, or whoever holds its view token (a table's or a shared link's).
pub fn may_read(
    state: &AppState,
    entry: &crate::http::orders::views::Entry,
    user_id: Option<i64>,
    view_token: Option<&str>,
) -> bool {
    let order = &entry.source.order;
    user_id == Some(order.user_id)
        || view_token.is_some_and(|t| verify(&state.table_secret, &order.order_no, t))
}

/// The detail in `lang` as of now, written once per language and second.
pub async fn written(
    state: &AppState,
    entry: &crate::http::orders::views::Entry,
    lang: Lang,
    now: i64,
) -> ApiResult<SharedJson> {
    let board = state
        .stores
        .board_of(&entry.source.order.store_code)
        .await?;
    if let Some(json) = entry.written(lang, now, &board) {
        return Ok(json);
    }
    let json = SharedJson::of(&render(state, &entry.source, lang, now, &board).await)?;
    entry.keep_written(lang, now, &board, json.clone());
    Ok(json)
}

pub fn no_such_order() -> ApiError {
    ApiError::not_found("订单不存在", "No such order")
}
