//! Order type and time (orderReservation and the booking picker), scan-to-order, and the
//! order a customer just placed (detail; payments and tracking extend it).

pub mod actions;
pub mod detail;
pub mod detail_dto;
pub mod views;
pub mod watch;

use crate::http::cart::dto::CartDto;
use crate::http::cart::owner::CartOwner;
use crate::http::cart::{
    add_lines, check_item, orderable_store, update_and_render, AddItem, SelectionIn,
};
use crate::http::edge::context::pick;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{get, post, web};
use actors::carts::Mutation;
use actors::db::orders::OrderRepo;
use actors::domain::cart::{Cart, Desk};
use actors::domain::catalogue::DINE_IN;
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::order_status::{list_filter, state_label};
use actors::domain::ordering::order_time::{asap_time, booking_days, check_booking};
use actors::domain::ordering::scan_order::{self, SCAN_INFO_LIFETIME_MS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// Spec §5: reservation requests repeated within 380 ms are refused.
pub const RESERVATION_REPEAT_MS: i64 = 380;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReservationBody {
    order_type: u8,
    /// Same as orderType (the spec sends both).
    #[allow(dead_code)]
    service_method: Option<u8>,
    /// Epoch ms; required for a booking.
    order_time: Option<i64>,
    store_code: String,
    #[serde(default)]
    is_book_order: bool,
}

/// Sets the cart's store, order type and time (orderReservation): not booked, the time is now
/// plus the store's delivery gap, or its ask gap rounded up to 5 minutes; booked, it must be
/// within bookDays, outside exclusion days and inside business hours. Changing the order type
/// re-prices the cart. A repeat within 380 ms answers 429.
#[utoipa::path(path = "/orders/reservation", tag = "orders", request_body = ReservationBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 429)))]
#[post("/reservation")]
pub async fn reservation(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<ReservationBody>,
) -> ApiResult<Reply<CartDto>> {
    let now = state.clock.now_ms();
    if !state
        .reservation_throttle
        .allow(&owner.key.storage_key(), now, RESERVATION_REPEAT_MS)
    {
        return Err(ApiError::TooFrequent);
    }
    let snapshot = state.catalogue.get().await;
    let code = params::code("storeCode", &body.store_code)?;
    let store = orderable_store(&state, &snapshot, &code).await?;
    let order_type = body.order_type;
    if !store.service_methods.contains(&order_type) {
        return Err(ApiError::bad_input(
            "该门店不支持此服务方式",
            "This store does not offer that order type",
        ));
    }
    let current = state.carts.read(&owner.key).await?;
    let scanned = order_type == DINE_IN
        && current
            .cart
            .valid_desk(now)
            .is_some_and(|d| d.store_code == store.store_code);
    let (time, is_book) = if body.is_book_order {
        let at = body
            .order_time
            .ok_or_else(|| ApiError::bad_input("请选择预约时间", "Choose a time to book"))?;
        check_booking(&store, order_type, at, now)
            .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))?;
        (at, true)
    } else if scanned {
        // Scan-to-order: the table is served now.
        (now, false)
    } else {
        (asap_time(&store, order_type, now), false)
    };
    let store_code = store.store_code.clone();
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        cart.store_code = Some(store_code.clone());
        cart.set_order_type(order_type);
        cart.order_time = Some(time);
        cart.is_book = is_book;
        Ok(true)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct SlotsQuery {
    store_code: String,
    order_type: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookingDayDto {
    /// "2026-11-24".
    pub date: String,
    /// 今天 / 明天 / 11月26日, or Today / Tomorrow / 26 Nov.
    pub label: String,
    pub slots: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlotsDto {
    /// The soonest time without booking (epoch ms).
    pub asap: i64,
    /// Empty when the store takes no bookings.
    pub days: Vec<BookingDayDto>,
}

/// The booking picker: the store's bookable days and their 15-minute slots.
#[utoipa::path(path = "/orders/reservation/slots", tag = "orders", params(SlotsQuery),
    responses((status = 200, body = Envelope<SlotsDto>), (status = 400), (status = 404)))]
#[get("/reservation/slots")]
pub async fn slots(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<SlotsQuery>,
) -> ApiResult<Reply<SlotsDto>> {
    let now = state.clock.now_ms();
    let snapshot = state.catalogue.get().await;
    let store = orderable_store(
        &state,
        &snapshot,
        &params::code("storeCode", &query.store_code)?,
    )
    .await?;
    let order_type = params::order_type(query.order_type.as_deref())?;
    let today = actors::domain::stores::hours::china_time(now).date_naive();
    let days = booking_days(&store, order_type, now)
        .into_iter()
        .map(|d| {
            let offset = (d.date - today).num_days();
            let label = match (offset, ctx.lang) {
                (0, Lang::Zh) => "今天".to_string(),
                (1, Lang::Zh) => "明天".to_string(),
                (2, Lang::Zh) => "后天".to_string(),
                (_, Lang::Zh) => d.date.format("%-m月%-d日").to_string(),
                (0, Lang::En) => "Today".to_string(),
                (1, Lang::En) => "Tomorrow".to_string(),
                (_, Lang::En) => d.date.format("%-d %b").to_string(),
            };
            BookingDayDto {
                date: d.date.format("%Y-%m-%d").to_string(),
                label,
                slots: d.slots,
            }
        })
        .collect();
    Ok(Reply::new(SlotsDto {
        asap: asap_time(&store, order_type, now),
        days,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScanBody {
    store_name: String,
    store_code: String,
    desk_no: String,
    sign: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScanDto {
    pub store_code: String,
    pub store_name: String,
    pub desk_no: String,
    /// The scan is honoured until then (3600 s).
    pub expires_at: i64,
    pub cart: CartDto,
}

fn bad_table() -> ApiError {
    ApiError::bad_input("无效的桌台二维码", "This table code is not valid")
}

/// Scan-to-order: checks a table QR link's sign, then sets the cart to that store, dine-in, at
/// that desk, for 3600 seconds.
#[utoipa::path(path = "/orders/scan", tag = "orders", request_body = ScanBody,
    responses((status = 200, body = Envelope<ScanDto>), (status = 400)))]
#[post("/scan")]
pub async fn scan(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<ScanBody>,
) -> ApiResult<Reply<ScanDto>> {
    let body = body.into_inner();
    if !scan_order::valid_desk_no(&body.desk_no)
        || !scan_order::verify(
            &state.table_secret,
            &body.store_name,
            &body.store_code,
            &body.desk_no,
            &body.sign,
        )
    {
        return Err(bad_table());
    }
    let snapshot = state.catalogue.get().await;
    let store = orderable_store(&state, &snapshot, &body.store_code)
        .await
        .map_err(|_| bad_table())?;
    if !store.service_methods.contains(&DINE_IN) {
        return Err(ApiError::bad_input(
            "该门店不提供堂食",
            "This store does not offer dine-in",
        ));
    }
    let now = state.clock.now_ms();
    let desk = Desk {
        store_code: store.store_code.clone(),
        desk_no: body.desk_no.clone(),
        expires_at: now + SCAN_INFO_LIFETIME_MS,
    };
    let expires_at = desk.expires_at;
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        cart.store_code = Some(desk.store_code.clone());
        cart.set_order_type(DINE_IN);
        cart.order_time = Some(now);
        cart.is_book = false;
        cart.desk = Some(desk.clone());
        Ok(true)
    });
    let cart = update_and_render(&state, &ctx, &owner, mutation)
        .await?
        .into_data();
    let dto = ScanDto {
        store_code: store.store_code.clone(),
        store_name: pick(&store.name, ctx.lang),
        desk_no: body.desk_no,
        expires_at,
        cart,
    };
    Ok(reply_with_token(&owner, dto))
}

fn reply_with_token<T: Serialize>(owner: &CartOwner, data: T) -> Reply<T> {
    let r = Reply::new(data);
    match (owner.issued, owner.token()) {
        (true, Some(token)) => r.with_header(crate::http::cart::owner::CART_TOKEN_HEADER, token),
        _ => r,
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TableLinkDto {
    pub url: String,
    pub store_name: String,
    pub store_code: String,
    pub desk_no: String,
    pub sign: String,
}

/// The link a table's QR code holds (base URL, then /menu?storeName…&sign=…).
pub fn table_link(
    secret: &[u8],
    base_url: &str,
    store_name: &str,
    store_code: &str,
    desk_no: &str,
) -> TableLinkDto {
    let sign = scan_order::sign(secret, store_name, store_code, desk_no);
    TableLinkDto {
        url: scan_order::table_link(base_url, store_name, store_code, desk_no, &sign),
        store_name: store_name.into(),
        store_code: store_code.into(),
        desk_no: desk_no.into(),
        sign,
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct TableLinkQuery {
    store_code: String,
    desk_no: String,
}

/// A valid table link (sandbox only, like the SMS outbox): what staff will print later.
#[utoipa::path(tag = "dev", params(TableLinkQuery),
    responses((status = 200, body = Envelope<TableLinkDto>), (status = 400), (status = 404)))]
#[get("/dev/table-link")]
pub async fn dev_table_link(
    state: web::Data<AppState>,
    req: actix_web::HttpRequest,
    query: web::Query<TableLinkQuery>,
) -> ApiResult<Reply<TableLinkDto>> {
    if state.sms_outbox.is_none() {
        return Err(ApiError::not_found("接口不存在", "No such endpoint"));
    }
    if !scan_order::valid_desk_no(&query.desk_no) {
        return Err(ApiError::bad_input(
            "桌号格式不正确",
            "deskNo: 1-16 letters, digits or '-'",
        ));
    }
    let snapshot = state.catalogue.get().await;
    let store = orderable_store(
        &state,
        &snapshot,
        &params::code("storeCode", &query.store_code)?,
    )
    .await?;
    let info = req.connection_info();
    let base = format!("{}://{}", info.scheme(), info.host());
    Ok(Reply::new(table_link(
        &state.table_secret,
        &base,
        &store.name.cn,
        &store.store_code,
        &query.desk_no,
    )))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct ListQuery {
    /// all (default), unpaid, active, completed, cancelled, or a state code.
    state: Option<String>,
    /// From 1; 10 orders a page.
    page: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderItemDto {
    pub name: String,
    pub quantity: u32,
    pub image_url: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderSummaryDto {
    pub order_no: String,
    pub state: u8,
    pub state_label: &'static str,
    pub progress: u8,
    pub order_type: u8,
    pub order_time: i64,
    pub store_code: String,
    pub store_name: String,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    pub items: Vec<OrderItemDto>,
    pub item_count: u32,
    pub created_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderPageDto {
    pub list: Vec<OrderSummaryDto>,
    pub page: u32,
    pub page_size: u32,
    pub total: i64,
    pub has_more: bool,
}

const ORDERS_PAGE_SIZE: u32 = 10;

fn bilingual_text(value: Option<&Value>, lang: Lang) -> String {
    let cn = value
        .and_then(|v| v.get("cn"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let en = value
        .and_then(|v| v.get("en"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if lang == Lang::En && !en.is_empty() {
        en.to_string()
    } else {
        cn.to_string()
    }
}

/// The customer's orders, newest first, by state (queryOrderByPage), with display labels.
#[utoipa::path(path = "/orders", tag = "orders", params(ListQuery),
    responses((status = 200, body = Envelope<OrderPageDto>), (status = 400), (status = 401)))]
#[get("")]
pub async fn list(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    query: web::Query<ListQuery>,
) -> ApiResult<Reply<OrderPageDto>> {
    let filter = list_filter(query.state.as_deref().unwrap_or("").trim()).ok_or_else(|| {
        ApiError::bad_input(
            "订单状态不正确",
            "state must be all, unpaid, active, completed, cancelled or a state code",
        )
    })?;
    let page = params::page(query.page.as_deref())?;
    let offset = i64::from((page - 1) * ORDERS_PAGE_SIZE);
    let (rows, total) = OrderRepo::new(state.db.clone())
        .list_for_user(
            user.user_id,
            filter.as_deref(),
            offset,
            i64::from(ORDERS_PAGE_SIZE),
        )
        .await?;
    let list = rows
        .into_iter()
        .map(|o| {
            let items: Vec<OrderItemDto> = o
                .doc
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|i| OrderItemDto {
                    name: bilingual_text(i.get("name"), ctx.lang),
                    quantity: i.get("quantity").and_then(Value::as_u64).unwrap_or(0) as u32,
                    image_url: i
                        .get("imageUrl")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                })
                .collect();
            OrderSummaryDto {
                state_label: state_label(o.state, ctx.lang),
                store_name: bilingual_text(o.doc.get("storeName"), ctx.lang),
                item_count: items.iter().map(|i| i.quantity).sum(),
                items,
                order_no: o.order_no,
                state: o.state,
                progress: o.progress,
                order_type: o.order_type,
                order_time: o.order_time,
                store_code: o.store_code,
                order_amount: o.order_amount,
                created_at: o.created_at,
            }
        })
        .collect();
    Ok(Reply::new(OrderPageDto {
        list,
        page,
        page_size: ORDERS_PAGE_SIZE,
        total,
        has_more: offset + i64::from(ORDERS_PAGE_SIZE) < total,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReorderDto {
    pub cart: CartDto,
    /// Products of the order that cannot be ordered now (gone, off time, sold out).
    pub skipped: Vec<String>,
}

/// Order again (oneMoreOrder): the order's items go into the cart at its store and order type,
/// each as it was configured; what cannot be ordered now is skipped and named. The app then
/// goes to /order/submit.
#[utoipa::path(path = "/orders/{orderNo}/reorder", tag = "orders", params(("orderNo" = String, Path)),
    responses((status = 200, body = Envelope<ReorderDto>), (status = 400), (status = 404)))]
#[post("/{orderNo}/reorder")]
pub async fn reorder(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    path: web::Path<String>,
) -> ApiResult<Reply<ReorderDto>> {
    let order_no = params::code("orderNo", &path)?;
    let order = OrderRepo::new(state.db.clone())
        .find(&order_no)
        .await?
        .filter(|o| o.user_id == user.user_id)
        .ok_or_else(|| ApiError::not_found("订单不存在", "No such order"))?;
    let snapshot = state.catalogue.get().await;
    let store = orderable_store(&state, &snapshot, &order.store_code).await?;
    let order_type = actors::domain::cart::adding::order_type_for_add(
        None,
        &store.service_methods,
        order.order_type,
    )?;
    let now = state.clock.now_ms();
    let owner = CartOwner {
        key: actors::carts::CartKey::User(user.user_id),
        issued: false,
    };
    let current = state.carts.read(&owner.key).await?;
    crate::http::cart::check_store_takes(&store, &current.cart, order_type, now)?;
    let sold_out = state.stores.live(&store.store_code).await?.sold_out;
    let rules = actors::domain::catalogue::effective::RuleContext {
        at: actors::domain::stores::hours::china_time(now),
        store_code: &store.store_code,
        store_group: &store.group_code,
        order_type,
    };
    let mut lines = Vec::new();
    let mut skipped = Vec::new();
    for line in &order.lines {
        let selection = line
            .doc
            .get("selection")
            .cloned()
            .and_then(|s| serde_json::from_value(s).ok())
            .unwrap_or_default();
        let item = AddItem {
            product_code: line.product_code.clone(),
            quantity: Some(line.quantity),
            selection: Some(SelectionIn {
                selection,
                quantity: Some(line.quantity),
            }),
        };
        match check_item(&snapshot, &rules, &sold_out, item) {
            Ok(l) => lines.push(l),
            Err(_) => skipped.push(line.product_code.clone()),
        }
    }
    if lines.is_empty() {
        return Err(ApiError::cart(
            "订单中的商品现在都无法购买",
            "None of this order's items can be ordered now",
        ));
    }
    let mutation = add_lines(store.store_code.clone(), order_type, lines, now);
    let cart = update_and_render(&state, &ctx, &owner, mutation)
        .await?
        .into_data();
    Ok(Reply::new(ReorderDto { cart, skipped }))
}
