//! One order as the customer (or a holder of its view token) sees it: amounts, lines,
//! history, the steps with their times, the ETA, the payment, and what can be done with it
//! (cancel, refund, comment). `order:watch` answers the same snapshot.

use crate::http::cart::dto::{AppliedRuleDto, CartItemDto};
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::reply_cache::{CachedReply, SharedJson};
use crate::http::edge::session::AuthUser;
use crate::http::orders::views::OrderSource;
use crate::state::AppState;
use actix_web::{post, web};
use actors::db::orders::{OrderRepo, OrderRow};
use actors::domain::accounts::phone::Phone;
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::arrival::Arrival;
use actors::domain::ordering::order_machine::{
    state as s, step_label, Actor as Mover, Command, OrderState,
};
use actors::domain::ordering::order_status::state_label;
use actors::domain::ordering::remark::CONTACTLESS_PREFIX;
use actors::domain::ordering::view_token::{verify, view_token};
use actors::domain::payments::state::PaymentState;
use actors::domain::pricing::breakdown::BreakdownView;
use actors::orders::view::{
    invoice, order_arrival, order_breakdown, order_eta, steps, InvoiceView, Step,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryDto {
    pub seq: i64,
    pub state: u8,
    pub progress: u8,
    /// system, customer or store.
    pub actor: String,
    pub note: Option<String>,
    pub at: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderPaymentDto {
    pub payment_id: String,
    /// created, pending, paid, failed, closed, refunding, refunded.
    pub state: String,
    pub method: String,
    #[serde(with = "actors::domain::money::yuan")]
    #[schema(value_type = f64)]
    pub amount: actors::domain::money::Fen,
    /// Why a refunding or refunded attempt gives its money back, in the caller's language.
    pub refund_reason: Option<String>,
    /// Where the money going back stands: `refunding` (owed, the server asks the provider until
    /// it is made; nothing for the customer to do), `failed` (still owed, but the provider refused
    /// the last try: the customer may call the store), `refunded`; null when nothing goes back.
    pub refund_state: Option<String>,
}

/// The refund's state of one attempt (see [`OrderPaymentDto::refund_state`]).
fn refund_state(state: PaymentState, refund_error: Option<&str>) -> Option<String> {
    match state {
        PaymentState::Refunded => Some("refunded"),
        PaymentState::Refunding if refund_error.is_some_and(|e| !e.is_empty()) => Some("failed"),
        PaymentState::Refunding => Some("refunding"),
        _ => None,
    }
    .map(String::from)
}

/// One order line's options in the caller's language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineOptionsDto {
    pub line_id: String,
    pub options: Vec<String>,
}

/// The options of each line in `lang`, from the kitchen's lines frozen at submit (`kitchen` in
/// Chinese, `kitchenEn` in English).
fn line_options(order: &OrderRow, lang: Lang) -> Vec<LineOptionsDto> {
    let key = match lang {
        Lang::Zh => "kitchen",
        Lang::En => "kitchenEn",
    };
    order
        .lines
        .iter()
        .filter_map(|l| {
            let line_id = l.doc.get("id").and_then(Value::as_str)?.to_string();
            let kitchen = serde_json::from_value::<actors::domain::ordering::kitchen::KitchenLine>(
                l.doc.get(key)?.clone(),
            )
            .ok()?;
            Some(LineOptionsDto {
                line_id,
                options: actors::domain::ordering::kitchen::summary(&kitchen, lang),
            })
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentDto {
    pub rating: u8,
    pub text: String,
    pub at: i64,
}

/// The delivery address as frozen on the order at submit (the order keeps it as written then).
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // Describes the JSON the order keeps; never built.
pub struct OrderAddressDoc {
    id: i64,
    base_address: String,
    house_number: String,
    /// GCJ-02, as text.
    lat: String,
    lng: String,
    city_name: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetailDto {
    pub order_no: String,
    pub order_id: i64,
    pub state: u8,
    pub state_label: &'static str,
    pub progress: u8,
    /// The current step in the order type's words.
    pub progress_label: &'static str,
    pub order_type: u8,
    pub order_time: i64,
    pub is_book_order: bool,
    pub store_code: String,
    pub store_name: String,
    pub store_tel: String,
    pub payment_type: String,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_product_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub activity_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub freight_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub paid_amount: Fen,
    /// Points spent on the order (0: none) and what they paid (yuan).
    pub points_deductions: i64,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub points_amount: Fen,
    /// What the order's coupons took off the products (yuan), and the delivery fee a coupon
    /// waived; the breakdown has each coupon's entry.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub coupon_discounts_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub coupon_delivery_fee: Fen,
    pub receiver_name: String,
    /// Masked: 139****5678.
    pub receiver_mobile: String,
    /// The delivery address; null for pickup and dine-in.
    #[schema(value_type = Option<OrderAddressDoc>)]
    pub address: Value,
    pub desk_no: Option<String>,
    /// The remark as kept on the order (with the store's contactless note in front when asked).
    pub remark: String,
    /// A contactless delivery was asked for.
    pub contactless: bool,
    /// The customer's own words of the remark, without the contactless note (the app words that
    /// note in the reader's language).
    pub remark_text: String,
    /// When the payment settled the order (null: not paid online, or not yet).
    pub paid_at: Option<i64>,
    /// A refused order: the reason the store gave (as the store wrote it).
    pub refusal_reason: Option<String>,
    pub tableware: u32,
    pub is_need_invoice: bool,
    /// The invoice's details when one was asked for (every field null on orders from before
    /// they were recorded).
    pub invoice: Option<InvoiceView>,
    /// The cart's lines as they were priced at submit.
    #[schema(value_type = Vec<CartItemDto>)]
    pub lines: Vec<Value>,
    /// Each line's options (size, crust, sauce, extras, toppings taken off, a combo's items) in
    /// the caller's language, by line id; empty for lines kept before both languages were.
    pub line_options: Vec<LineOptionsDto>,
    /// The promotions applied at submit.
    #[schema(value_type = Vec<AppliedRuleDto>)]
    pub rules: Value,
    /// The amounts frozen at submit: lines at list price, discounts, fee, payable.
    pub breakdown: BreakdownView,
    pub created_at: i64,
    /// Every transition with its time, oldest first.
    pub history: Vec<HistoryDto>,
    /// The last transition's number; `order:progress` events continue from it.
    pub seq: i64,
    pub eta: Option<i64>,
    /// When it arrives or is ready, as every screen shows it (booked time, delivered at…).
    pub arrival: Option<Arrival>,
    pub steps: Vec<Step>,
    pub can_cancel: bool,
    /// Lets someone without the customer's login follow this order (`order:watch`).
    pub view_token: String,
    pub payment: Option<OrderPaymentDto>,
    /// Every payment attempt of the order, oldest first: a duplicate shows refunded here with
    /// its reason.
    pub payments: Vec<OrderPaymentDto>,
    pub comment: Option<CommentDto>,
}

fn bilingual(v: Option<&Value>, lang: Lang) -> String {
    let cn = v
        .and_then(|v| v.get("cn"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let en = v
        .and_then(|v| v.get("en"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if lang == Lang::En && !en.is_empty() {
        en
    } else {
        cn
    }
    .to_string()
}

pub async fn comment_of(state: &AppState, order_no: &str) -> ApiResult<Option<CommentDto>> {
    let row =
        sqlx::query("SELECT rating, body, created_at FROM order_comments WHERE order_no = $1")
            .bind(order_no)
            .fetch_optional(state.db.pool())
            .await
            .map_err(actors::db::DbError::from)?;
    Ok(row.map(|r| CommentDto {
        rating: r.try_get::<i64, _>("rating").unwrap_or(0) as u8,
        text: r.try_get("body").unwrap_or_default(),
        at: r.try_get("created_at").unwrap_or(0),
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

/// The detail from its sources at `now`, the store as its staff set it on `board` (busy is
/// slower): no database.
pub async fn render(
    state: &AppState,
    source: &OrderSource,
    lang: Lang,
    now: i64,
    board: &actors::domain::stores::store_board::Board,
) -> OrderDetailDto {
    let order = &source.order;
    let history = &source.history;
    let snapshot = state.catalogue.get().await;
    let live_store = snapshot
        .store(&order.store_code)
        .map(|listed| actors::domain::stores::store_board::effective_store(listed, &board.live));
    let payments: Vec<OrderPaymentDto> = source
        .payments
        .iter()
        .map(|p| OrderPaymentDto {
            refund_reason: crate::http::payments::refund_reason_text(
                p.refund_reason.as_deref(),
                lang,
            ),
            refund_state: refund_state(p.state, p.refund_error.as_deref()),
            payment_id: p.payment_id.clone(),
            state: p.state.as_str().to_string(),
            method: p.method.clone(),
            amount: p.amount,
        })
        .collect();
    // The attempt that settled the order, else the latest one.
    let payment = payments
        .iter()
        .find(|p| order.paid_by.as_deref() == Some(p.payment_id.as_str()))
        .or(payments.last())
        .cloned();
    let doc = &order.doc;
    let text = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let current = OrderState {
        state: order.state,
        progress: order.progress,
        last_move_at_ms: order.updated_at,
    };
    let full_remark = text("remark");
    let (contactless, remark_text) = match full_remark.strip_prefix(CONTACTLESS_PREFIX) {
        Some(rest) => (true, rest.trim().to_string()),
        None => (false, full_remark.clone()),
    };
    let paid_at = (order.payment_type == "online")
        .then(|| history.iter().find(|e| e.state == s::PAID).map(|e| e.at))
        .flatten();
    let refusal_reason = (order.state == s::REFUSED_BY_STORE)
        .then(|| {
            history
                .iter()
                .rev()
                .find(|e| e.state == s::REFUSED_BY_STORE)
                .and_then(|e| e.note.clone())
        })
        .flatten()
        .filter(|n| !n.trim().is_empty());
    let can_cancel = actors::domain::ordering::order_machine::apply(
        &current,
        Mover::Customer,
        &Command::CustomerCancel,
        now,
    )
    .is_ok();
    // Parsed once from the order's document.
    let breakdown = order_breakdown(order);
    OrderDetailDto {
        order_no: order.order_no.clone(),
        order_id: order.id,
        state: order.state,
        state_label: state_label(order.state, lang),
        progress: order.progress,
        progress_label: step_label(order.progress, order.order_type, lang),
        order_type: order.order_type,
        order_time: order.order_time,
        is_book_order: order.is_book,
        store_code: order.store_code.clone(),
        store_name: bilingual(doc.get("storeName"), lang),
        store_tel: text("storeTel"),
        payment_type: order.payment_type.clone(),
        order_product_amount: order.product_amount,
        activity_amount: order.discount_amount,
        freight_amount: order.delivery_fee,
        order_amount: order.order_amount,
        paid_amount: order.paid_amount,
        points_deductions: breakdown.points_used,
        points_amount: breakdown.points_deduction,
        coupon_discounts_amount: breakdown.coupon_amount,
        coupon_delivery_fee: breakdown.coupon_delivery_waived,
        receiver_name: text("receiverName"),
        receiver_mobile: Phone::parse(&text("receiverMobile"))
            .map(|p| p.masked())
            .unwrap_or_default(),
        address: doc.get("address").cloned().unwrap_or_default(),
        desk_no: doc.get("deskNo").and_then(Value::as_str).map(String::from),
        remark: full_remark,
        contactless,
        remark_text,
        paid_at,
        refusal_reason,
        tableware: doc.get("tableware").and_then(Value::as_u64).unwrap_or(0) as u32,
        is_need_invoice: doc
            .get("isNeedInvoice")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        invoice: invoice(doc),
        lines: order.lines.iter().map(|l| l.doc.clone()).collect(),
        line_options: line_options(order, lang),
        rules: doc.get("rules").cloned().unwrap_or_default(),
        breakdown: BreakdownView::from(&breakdown),
        created_at: order.created_at,
        seq: order.seq,
        eta: order_eta(order, history, live_store.as_ref(), now),
        arrival: order_arrival(order, history, live_store.as_ref(), now),
        steps: steps(order, history, lang),
        can_cancel,
        view_token: view_token(&state.table_secret, &order.order_no),
        payment,
        payments,
        comment: source.comment.clone(),
        history: history
            .iter()
            .map(|e| HistoryDto {
                seq: e.seq,
                state: e.state,
                progress: e.progress,
                actor: e.actor.clone(),
                note: e.note.clone(),
                at: e.at,
            })
            .collect(),
    }
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
async fn view_of(
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
fn may_read(
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
async fn written(
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

fn no_such_order() -> ApiError {
    ApiError::not_found("订单不存在", "No such order")
}

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
    if order.state != s::COMPLETED {
        return Err(ApiError::conflict(
            "订单完成后才能评价",
            "Only a completed order can be rated",
        ));
    }
    if !(1..=5).contains(&body.rating) {
        return Err(ApiError::bad_input(
            "评分需在1到5之间",
            "The rating is from 1 to 5",
        ));
    }
    // Staff read it: hidden characters go, as from a remark.
    let text = actors::domain::accounts::validators::strip_hidden(body.text.trim())
        .trim()
        .to_string();
    if text.chars().count() > 200 {
        return Err(ApiError::bad_input(
            "评价最多200个字",
            "A comment has at most 200 characters",
        ));
    }
    let now = state.clock.now_ms();
    let done = sqlx::query(
        "INSERT INTO order_comments (order_no, user_id, rating, body, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (order_no) DO NOTHING",
    )
    .bind(&order.order_no)
    .bind(user.user_id)
    .bind(i64::from(body.rating))
    .bind(&text)
    .bind(now)
    .execute(state.db.pool())
    .await
    .map_err(actors::db::DbError::from)?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "该订单已评价",
            "This order has been rated already",
        ));
    }
    state.order_changed(&order.order_no).await;
    Ok(Reply::new(CommentDto {
        rating: body.rating,
        text,
        at: now,
    }))
}

/// `order:watch` on the real-time gateway reads orders through the same rules as the REST
/// detail: the owner (by session token) or a view token holder, and the same snapshot.
pub struct WatchOrders(pub AppState);

/// What `order:watch` reads: the same view and bytes as GET /orders/{orderNo}, so a page that
/// watches an order costs no database read while nothing about the order changed.
impl crate::realtime::gateway::OrderWatch for WatchOrders {
    fn allowed(
        &self,
        order_no: String,
        user_token: Option<String>,
        view_token: Option<String>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>> {
        let state = self.0.clone();
        Box::pin(async move {
            let now = state.clock.now_ms();
            let user_id = match user_token {
                Some(t) => state
                    .sessions()
                    .resolve(&actors::accounts::secrets::Token::from_client(&t), now)
                    .await
                    .ok()
                    .map(|s| s.user_id),
                None => None,
            };
            view_of(&state, &order_no, now)
                .await
                .is_ok_and(|entry| may_read(&state, &entry, user_id, view_token.as_deref()))
        })
    }

    fn snapshot(
        &self,
        order_no: String,
        lang: Lang,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Value>> + Send>> {
        let state = self.0.clone();
        Box::pin(async move {
            // Read after the socket joined the order's room: an event forgets the view before
            // it goes out, so this is the order as of that event or later (the client drops
            // events whose seq the snapshot already has).
            let now = state.clock.now_ms();
            let entry = view_of(&state, &order_no, now).await.ok()?;
            let json = written(&state, &entry, lang, now).await.ok()?;
            serde_json::from_slice(json.as_bytes()).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{refund_state, PaymentState};

    #[test]
    fn refund_states() {
        let cases = [
            (PaymentState::Paid, None, None),
            (PaymentState::Refunding, None, Some("refunding")),
            (PaymentState::Refunding, Some(""), Some("refunding")),
            (
                PaymentState::Refunding,
                Some("provider said no"),
                Some("failed"),
            ),
            (
                PaymentState::Refunded,
                Some("old failure"),
                Some("refunded"),
            ),
            (PaymentState::Closed, None, None),
        ];
        for (state, error, want) in cases {
            assert_eq!(
                refund_state(state, error).as_deref(),
                want,
                "{state} {error:?}"
            );
        }
    }
}
