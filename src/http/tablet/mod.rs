//! The store tablet's API: staff login (store code, staff code, PIN), the store's live queue,
//! and the moves staff make: accept, refuse (a paid order is refunded), advance, undo. A staff
//! token reaches only its store's orders (403 otherwise, and nothing changes).

pub mod history;
pub mod pin;
pub mod store;

use crate::http::accounts::credentials::{password_error, pin_throttle_error};
use crate::http::edge::client_ip::client_ip;
use crate::http::edge::context::pick;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, NoData, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::params;
use crate::http::edge::staff_session::StaffAuth;
use crate::state::AppState;
use actix_web::{get, post, web, HttpRequest};
use actors::accounts::passwords::{self, LoginKey};
use actors::accounts::secrets::Token;
use actors::db::staff::StaffRepo;
use actors::domain::catalogue::Store;
use actors::domain::lang::Lang;
use actors::domain::money::Fen;
use actors::domain::ordering::order_machine::{state as s, Actor as Mover, Command};
use actors::domain::payments::state::PaymentState;
use actors::domain::stores::hours::start_of_china_day;
use actors::orders::view::{stamp_arrival, tablet_order, TabletOrder};
use actors::orders::OrderFailure;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletLoginBody {
    store_code: String,
    staff_code: String,
    pin: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletLoginDto {
    /// Bearer token for the tablet endpoints and the /store namespace (auth `{token}`).
    pub token: String,
    pub expires_at: i64,
    pub store_code: String,
    pub store_name: String,
    pub staff_name: String,
}

fn wrong_pin() -> ApiError {
    ApiError::BadInput(Msg::fixed(
        "门店、工号或PIN错误",
        "Wrong store, staff code or PIN",
    ))
}

/// Logs a tablet in. Within 15 minutes, 5 wrong PINs for a staff code from one client address
/// lock that staff code for that address, and 30 for the whole store from all addresses lock
/// the store's PIN logins (429 with the seconds left); tablets already logged in stay so.
#[utoipa::path(tag = "tablet", request_body = TabletLoginBody,
    responses((status = 200, body = Envelope<TabletLoginDto>), (status = 400), (status = 429)))]
#[post("/tablet/login")]
pub async fn login(
    state: web::Data<AppState>,
    ctx: Ctx,
    req: HttpRequest,
    body: web::Json<TabletLoginBody>,
) -> ApiResult<Reply<TabletLoginDto>> {
    let store_code = params::code("storeCode", &body.store_code).map_err(|_| wrong_pin())?;
    let staff_code = params::code("staffCode", &body.staff_code).map_err(|_| wrong_pin())?;
    let pin = body.pin.trim();
    if pin.is_empty() || pin.len() > 32 {
        return Err(wrong_pin());
    }
    let now = state.clock.now_ms();
    let throttle = state.login_throttle();
    let key = LoginKey::staff(&store_code, &staff_code, &client_ip(&req));
    let _attempt = throttle
        .attempt(&key, now)
        .await
        .map_err(pin_throttle_error)?;
    let repo = StaffRepo::new(state.db.clone());
    let staff = repo.find(&store_code, &staff_code).await?;
    let ok = passwords::verify(pin.to_string(), staff.as_ref().map(|s| s.pin_hash.clone()))
        .await
        .map_err(password_error)?;
    let Some(staff) = staff.filter(|_| ok) else {
        return Err(wrong_pin());
    };
    throttle.succeeded(&key).await?;
    let token = Token::generate();
    let expires_at = repo.create_session(&token.hash(), &staff, now).await?;
    let snapshot = state.catalogue.get().await;
    let store_name = snapshot
        .store(&staff.store_code)
        .map(|s| pick(&s.name, ctx.lang))
        .unwrap_or_default();
    tracing::info!(store = %staff.store_code, staff = %staff.staff_code, "tablet logged in");
    Ok(Reply::new(TabletLoginDto {
        token: token.expose().to_string(),
        expires_at,
        store_code: staff.store_code,
        store_name,
        staff_name: staff.name,
    }))
}

/// Ends the tablet's session; its sockets are disconnected on every node.
#[utoipa::path(tag = "tablet",
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 401)))]
#[post("/tablet/logout")]
pub async fn logout(state: web::Data<AppState>, staff: StaffAuth) -> ApiResult<Reply<()>> {
    state
        .staff_sessions()
        .logout(&staff.session, &staff.token_hash)
        .await?;
    Ok(Reply::new(()))
}

impl From<OrderFailure> for ApiError {
    fn from(e: OrderFailure) -> ApiError {
        match e {
            OrderFailure::NotFound => ApiError::not_found("订单不存在", "No such order"),
            OrderFailure::Refused(m) => {
                ApiError::conflict(m.message(Lang::Zh), m.message(Lang::En))
            }
            OrderFailure::Db(e) => e.into(),
            OrderFailure::Contended | OrderFailure::Unavailable => ApiError::conflict(
                "订单正在处理，请重试",
                "The order is being updated; please try again",
            ),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct QueueQuery {
    /// active (default): awaiting acceptance and in production; today: also today's closed ones.
    scope: Option<String>,
}

/// The store as customers meet it now (busy is slower): what the cards' arrivals are
/// computed from. The catalogue's when the board cannot be read.
pub async fn live_store(state: &AppState, code: &str) -> Option<Store> {
    let snapshot = state.catalogue.get().await;
    let listed = snapshot.store(code)?;
    Some(match state.stores.effective(listed).await {
        Ok((shown, _)) => shown,
        Err(_) => listed.clone(),
    })
}

/// Each card's arrival as of now (the queue's cards are kept; the arrival moves on).
pub fn stamp_all<'a>(
    cards: impl Iterator<Item = &'a mut TabletOrder>,
    store: Option<&Store>,
    now: i64,
) {
    for card in cards {
        stamp_arrival(card, store, now);
    }
}

/// The store's live queue: priority orders (优先制作) first, then oldest first.
#[utoipa::path(tag = "tablet", params(QueueQuery),
    responses((status = 200, body = Envelope<Vec<TabletOrder>>), (status = 401)))]
#[get("/tablet/orders")]
pub async fn queue(
    state: web::Data<AppState>,
    staff: StaffAuth,
    query: web::Query<QueueQuery>,
) -> ApiResult<Reply<Vec<TabletOrder>>> {
    let today = match query.scope.as_deref().unwrap_or("active") {
        "active" => false,
        "today" => true,
        _ => {
            return Err(ApiError::bad_input(
                "scope 不正确",
                "scope must be active or today",
            ))
        }
    };
    // The live queue from the store's actor (checked against the database's versions).
    let mut list: Vec<(i64, i64, TabletOrder)> = state
        .stores
        .queue(staff.store_code())
        .await?
        .into_iter()
        .map(|e| (e.created_at, e.id, e.card))
        .collect();
    if today {
        list.extend(closed_today(&state, staff.store_code()).await?);
        list.sort_by_key(|(created_at, id, card)| {
            actors::stores::queue::queue_rank(card.priority, *created_at, *id)
        });
    }
    let store = live_store(&state, staff.store_code()).await;
    stamp_all(
        list.iter_mut().map(|(_, _, card)| card),
        store.as_ref(),
        state.clock.now_ms(),
    );
    Ok(Reply::new(
        list.into_iter().map(|(_, _, card)| card).collect(),
    ))
}

/// Today's (China day) closed orders that had reached the store, with their queue order.
async fn closed_today(
    state: &AppState,
    store_code: &str,
) -> ApiResult<Vec<(i64, i64, TabletOrder)>> {
    let repo = state.orders.repo();
    let states = [s::COMPLETED, s::REFUSED_BY_STORE, s::CANCELLED_BY_CUSTOMER];
    let start_of_day = start_of_china_day(state.clock.now_ms());
    let mut list = Vec::new();
    for order_no in repo.store_queue(store_code, &states).await? {
        let (Some(row), history) = (repo.find(&order_no).await?, repo.history(&order_no).await?)
        else {
            continue;
        };
        // Closed ones only today, and only those that had reached the store.
        if row.updated_at < start_of_day
            || actors::orders::view::reached_store_at(&history).is_none()
        {
            continue;
        }
        list.push((row.created_at, row.id, tablet_order(&row, &history)));
    }
    Ok(list)
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletMoveDto {
    pub order: TabletOrder,
    /// Refusing a paid order refunds it; null when no refund was due.
    pub refund: Option<RefundAfterRefusal>,
}

/// What became of the refund a refusal started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RefundAfterRefusal {
    /// The provider refunded it.
    Refunded,
    /// The provider could not make it now: the server retries it.
    Owed,
    /// Refused by the provider: the customer service follows up.
    Failed,
}

async fn store_move(
    state: &AppState,
    staff: &StaffAuth,
    order_no: &str,
    command: Command,
) -> ApiResult<Reply<TabletMoveDto>> {
    let order_no = params::code("orderNo", order_no)?;
    let repo = state.orders.repo();
    let row = repo
        .find(&order_no)
        .await?
        .ok_or_else(|| ApiError::not_found("订单不存在", "No such order"))?;
    // Another store's order: refused before anything is touched.
    staff.check_store(&row.store_code)?;
    let done = state
        .orders
        .make_move(&order_no, Mover::Store, command, Fen::ZERO)
        .await?;
    let mut refund = None;
    if done.transition.refund {
        // Like a customer's cancel: a cashier tab still open takes no money for a refused order.
        if let Err(e) = state.payments.close_open_attempts(&order_no).await {
            tracing::warn!(error = %e, order_no, "open attempts left to their expiry");
        }
        refund = Some(match state.payments.refund_order(&order_no).await {
            Ok(_) => {
                let rows = state.payments.repo().for_order(&order_no).await?;
                if rows.iter().any(|p| p.state == PaymentState::Refunding) {
                    RefundAfterRefusal::Owed
                } else {
                    RefundAfterRefusal::Refunded
                }
            }
            Err(e) => {
                tracing::error!(error = %e, order_no, "refund after refusal failed");
                RefundAfterRefusal::Failed
            }
        });
    }
    let row = repo
        .find(&order_no)
        .await?
        .ok_or_else(|| ApiError::not_found("订单不存在", "No such order"))?;
    let history = repo.history(&order_no).await?;
    let mut order = tablet_order(&row, &history);
    let store = live_store(state, &row.store_code).await;
    stamp_arrival(&mut order, store.as_ref(), state.clock.now_ms());
    Ok(Reply::new(TabletMoveDto { order, refund }))
}

/// Accepts an order awaiting acceptance.
#[utoipa::path(tag = "tablet", params(("orderNo" = String, Path)),
    responses((status = 200, body = Envelope<TabletMoveDto>), (status = 403), (status = 409)))]
#[post("/tablet/orders/{orderNo}/accept")]
pub async fn accept(
    state: web::Data<AppState>,
    staff: StaffAuth,
    path: web::Path<String>,
) -> ApiResult<Reply<TabletMoveDto>> {
    store_move(&state, &staff, &path, Command::Accept).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefuseBody {
    reason: String,
}

/// Refuses an order awaiting acceptance, with a reason; a paid order is refunded.
#[utoipa::path(tag = "tablet", params(("orderNo" = String, Path)), request_body = RefuseBody,
    responses((status = 200, body = Envelope<TabletMoveDto>), (status = 403), (status = 409)))]
#[post("/tablet/orders/{orderNo}/refuse")]
pub async fn refuse(
    state: web::Data<AppState>,
    staff: StaffAuth,
    path: web::Path<String>,
    body: web::Json<RefuseBody>,
) -> ApiResult<Reply<TabletMoveDto>> {
    // The customer reads the reason: hidden characters go.
    let reason: String =
        actors::domain::accounts::validators::strip_hidden(body.into_inner().reason.trim())
            .chars()
            .take(100)
            .collect();
    store_move(&state, &staff, &path, Command::Refuse { reason }).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StageBody {
    /// The progress the tablet showed; a stale one is refused (someone moved the order first).
    from: u8,
}

/// Moves an accepted order to its next stage (making, oven, quality check, dispatch or ready,
/// completed).
#[utoipa::path(tag = "tablet", params(("orderNo" = String, Path)), request_body = StageBody,
    responses((status = 200, body = Envelope<TabletMoveDto>), (status = 403), (status = 409)))]
#[post("/tablet/orders/{orderNo}/advance")]
pub async fn advance(
    state: web::Data<AppState>,
    staff: StaffAuth,
    path: web::Path<String>,
    body: web::Json<StageBody>,
) -> ApiResult<Reply<TabletMoveDto>> {
    store_move(&state, &staff, &path, Command::Advance { from: body.from }).await
}

/// Takes back the last step, within two minutes.
#[utoipa::path(tag = "tablet", params(("orderNo" = String, Path)), request_body = StageBody,
    responses((status = 200, body = Envelope<TabletMoveDto>), (status = 403), (status = 409)))]
#[post("/tablet/orders/{orderNo}/undo")]
pub async fn undo(
    state: web::Data<AppState>,
    staff: StaffAuth,
    path: web::Path<String>,
    body: web::Json<StageBody>,
) -> ApiResult<Reply<TabletMoveDto>> {
    store_move(&state, &staff, &path, Command::Undo { from: body.from }).await
}
