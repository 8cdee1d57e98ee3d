//! Submit (POST /orders): the server prices the cart again, checks the store, time, address
//! and receiver, and turns the cart into an order in one transaction. The client's amounts are
//! only compared: any difference is errCode -6 with the fresh cart, and nothing is created.

use crate::http::cart::coupons::{held_for, Held};
use crate::http::cart::dto::CartItemDto;
use crate::http::cart::owner::CartOwner;
use crate::http::cart::{check_submittable, orderable_board, priced_with, render_with};
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::Envelope;
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::idempotency::Idempotency;
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{post, web, HttpRequest, HttpResponse};
use actors::carts::{CartFailure, CartKey, Checkout, IdempotentAnswer};
use actors::db::addresses::AddressRepo;
use actors::db::orders::{NewOrder, NewOrderLine};
use actors::db::users::UserRepo;
use actors::domain::accounts::phone::Phone;
use actors::domain::catalogue::{LngLat, DELIVERY, DINE_IN};
use actors::domain::geo::address::{is_illegal, ContactName};
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::invoice::{Invoice, InvoiceError, InvoiceInput};
use actors::domain::ordering::order_status::PaymentType;
use actors::domain::ordering::order_time::{asap_time, check_taking};
use actors::domain::ordering::remark::Remark;
use actors::domain::stores::hours::china_time;
use actors::domain::stores::store_rules::delivers_to;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitBody {
    pub order_type: u8,
    #[serde(default)]
    pub is_book_order: bool,
    /// Informational: the server uses the cart's booked time, or now + the store's gap.
    pub planned_deliver_time: Option<i64>,
    pub consign_address_id: Option<i64>,
    pub receiver_name: Option<String>,
    pub receiver_mobile: Option<String>,
    pub desk_no: Option<String>,
    #[serde(default)]
    pub remark: String,
    #[serde(default)]
    pub contactless: bool,
    #[serde(default)]
    pub tableware: u32,
    #[serde(default)]
    pub is_need_invoice: bool,
    /// Required when `isNeedInvoice` is true; ignored otherwise.
    pub invoice: Option<InvoiceBody>,
    /// online or offline (cash on delivery, delivery only).
    pub payment_type: String,
    pub order_product_amount: f64,
    pub activity_amount: f64,
    pub freight_amount: f64,
    pub order_amount: f64,
    pub shopping_car_version: Option<i64>,
    /// Points to spend on this order (members; 0 or absent: none). Held at submit, captured
    /// at payment, given back if the order closes unpaid. `orderAmount` may be sent before or
    /// after the points.
    #[serde(default)]
    pub points_deductions: i64,
    /// The coupons the customer saw applied (the cart's `osCoupons`); must be the cart's
    /// applied set now, else errCode -6 with the fresh cart. Absent: none.
    #[serde(default)]
    pub os_coupons: Vec<String>,
}

/// The invoice as typed: `kind` personal or company; `title` 1–100 characters; `taxNo` 15, 18
/// or 20 digits or capital letters, required for a company; `email` where the e-invoice goes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceBody {
    pub kind: String,
    #[serde(default)]
    pub title: String,
    pub tax_no: Option<String>,
    #[serde(default)]
    pub email: String,
}

/// The invoice to keep on the order: none unless asked for, and then a valid one.
fn invoice_of(body: &SubmitBody) -> ApiResult<Option<Invoice>> {
    if !body.is_need_invoice {
        return Ok(None);
    }
    let typed = body.invoice.as_ref().ok_or(InvoiceError::Missing);
    typed
        .and_then(|i| {
            Invoice::parse(InvoiceInput {
                kind: &i.kind,
                title: &i.title,
                tax_no: i.tax_no.as_deref(),
                email: &i.email,
            })
        })
        .map(Some)
        .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitDto {
    pub order_no: String,
    pub order_id: i64,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    /// What is still to pay online (0 for cash on delivery).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub payable: Fen,
    pub payment_type: String,
    pub state: u8,
    pub order_type: u8,
    pub order_time: i64,
}

const MAX_TABLEWARE: u32 = 20;
fn new_order_no(now: i64) -> String {
    let digits: u32 = uuid::Uuid::new_v4().as_u128() as u32 % 1_000_000;
    format!("{}{digits:06}", china_time(now).format("%y%m%d%H%M%S"))
}

fn amount(field: &'static str, value: f64) -> ApiResult<Fen> {
    Fen::from_yuan(value).ok_or_else(|| {
        ApiError::bad_input(
            format!("{field} 金额格式不正确"),
            format!("{field} must be an amount with at most 2 decimals"),
        )
    })
}

/// Submits the cart as an order. Login required; Idempotency-Key honoured for 24 hours.
#[utoipa::path(path = "/orders", tag = "orders", request_body = SubmitBody,
    params(("Idempotency-Key" = Option<String>, Header)),
    responses((status = 200, body = Envelope<SubmitDto>), (status = 400), (status = 401), (status = 404), (status = 409)))]
#[post("")]
pub async fn submit(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: AuthUser,
    req: HttpRequest,
    raw: web::Json<serde_json::Value>,
) -> ApiResult<HttpResponse> {
    let raw = raw.into_inner();
    let body: SubmitBody = serde_json::from_value(raw.clone())
        .map_err(|e| crate::http::edge::extractor_errors::body_error(&e))?;
    let idem = Idempotency::of(&req, format!("submit:{}", user.user_id), &raw)?;
    if let Some(response) = idem.recorded(&state).await? {
        return Ok(response);
    }
    for round in 0..3 {
        match attempt(&state, &ctx, &user, &body, &idem).await {
            Ok(response) => return Ok(response),
            Err(e) => {
                // A concurrent duplicate with the same key may have just created the order
                // (and emptied the cart): answer what it answered.
                if let Some(response) = idem.recorded(&state).await? {
                    return Ok(response);
                }
                // Another tab changed the cart between pricing and writing: price again.
                if matches!(e, ApiError::Conflict(_)) && round < 2 {
                    continue;
                }
                return Err(e);
            }
        }
    }
    Err(ApiError::conflict(
        "购物车已更新，请重试",
        "Your cart changed meanwhile; please try again",
    ))
}

async fn attempt(
    state: &AppState,
    ctx: &Ctx,
    user: &AuthUser,
    body: &SubmitBody,
    idem: &Idempotency,
) -> ApiResult<HttpResponse> {
    let now = state.clock.now_ms();
    let owner = CartOwner {
        key: CartKey::User(user.user_id),
        issued: false,
    };
    let snapshot = state.catalogue.get().await;
    let stored = state.carts.read(&owner.key).await?;
    let cart = &stored.cart;
    // The store's live state is read once: the checks, the cart shown and the amounts frozen
    // all see the same sold-out list.
    let board = orderable_board(state, &snapshot, cart.store_code.as_deref().unwrap_or("")).await?;
    let store = &board.0;
    let order_type = body.order_type;
    if order_type != cart.order_type {
        return Err(ApiError::bad_input(
            "服务方式已变更，请重新确认",
            "The order type changed; please check your order again",
        ));
    }
    if !store.service_methods.contains(&order_type) {
        return Err(ApiError::bad_input(
            "该门店不支持此服务方式",
            "This store does not offer that order type",
        ));
    }
    let desk = cart
        .valid_desk(now)
        .filter(|d| d.store_code == store.store_code)
        .cloned();
    // A closed store, or one outside its hours, takes bookings for a slot it takes, and
    // nothing else (the store's status is about now, the booking about its time).
    let booked_at = cart.is_book.then(|| cart.order_time.unwrap_or(0));
    check_taking(store, order_type, booked_at, now)
        .map_err(|e| ApiError::bad_input(e.message(store, Lang::Zh), e.message(store, Lang::En)))?;
    let order_time = if let Some(at) = booked_at {
        at
    } else {
        if order_type == DINE_IN && desk.is_some() {
            now
        } else {
            asap_time(store, order_type, now)
        }
    };
    let payment = PaymentType::parse(&body.payment_type).ok_or_else(|| {
        ApiError::bad_input("请选择支付方式", "paymentType must be online or offline")
    })?;
    if payment == PaymentType::Offline && order_type != DELIVERY {
        return Err(ApiError::bad_input(
            "货到付款仅限外送订单",
            "Pay on delivery is for delivery orders only",
        ));
    }
    if body.tableware > MAX_TABLEWARE {
        return Err(ApiError::bad_input(
            "餐具数量不正确",
            "Tableware must be between 0 and 20",
        ));
    }
    let remark = Remark::parse(&body.remark, body.contactless)
        .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))?;
    let invoice = invoice_of(body)?;

    // Where it goes and who receives it.
    let profile = UserRepo::new(state.db.clone()).get(user.user_id).await?;
    let mut address_doc = serde_json::Value::Null;
    let (mut name, mut mobile) = (
        profile
            .as_ref()
            .and_then(|u| u.name.clone())
            .unwrap_or_default(),
        profile
            .as_ref()
            .and_then(|u| u.phone.clone())
            .unwrap_or_default(),
    );
    if order_type == DELIVERY {
        let id = body.consign_address_id.ok_or_else(|| {
            ApiError::bad_input("请选择收货地址", "Please choose a delivery address")
        })?;
        let address = AddressRepo::new(state.db.clone())
            .get(user.user_id, id)
            .await?
            .ok_or_else(|| ApiError::not_found("地址不存在", "No such address"))?;
        let point = (!is_illegal(Some(&address.lat)))
            .then(|| {
                Some(LngLat {
                    lat: address.lat.parse().ok()?,
                    lng: address.lng.parse().ok()?,
                })
            })
            .flatten()
            .ok_or(ApiError::OutOfArea)?;
        if !delivers_to(store, point) {
            return Err(ApiError::OutOfArea);
        }
        name = address.name.clone();
        mobile = address.phone.clone();
        address_doc = serde_json::json!({
            "id": address.id, "baseAddress": address.base_address, "houseNumber": address.house_number,
            "lat": address.lat, "lng": address.lng, "cityName": address.city_name,
        });
    }
    if let Some(n) = body
        .receiver_name
        .as_deref()
        .filter(|n| !n.trim().is_empty())
    {
        name = n.to_string();
    }
    if let Some(m) = body
        .receiver_mobile
        .as_deref()
        .filter(|m| !m.trim().is_empty())
    {
        mobile = m.to_string();
    }
    let name = if name.trim().is_empty() && order_type != DELIVERY {
        String::new()
    } else {
        ContactName::parse(&name)
            .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))?
            .as_str()
            .to_string()
    };
    let mobile = Phone::parse(&mobile)
        .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))?;

    // The amounts: the server's, compared with what the customer saw.
    let held = held_for(state, ctx.channel, user.user_id).await?;
    let dto = render_with(
        state,
        ctx,
        &snapshot,
        &owner,
        &stored,
        &board,
        held.as_ref(),
    );
    check_submittable(&dto)?;
    // Sold out since the customer last looked (the store's "86"): say which, with the cart
    // as it is now, rather than silently ordering the rest.
    if !dto.sale_out_items_from_shopping_car.is_empty() {
        let gone = &dto.sale_out_items_from_shopping_car;
        let names = |name: fn(&CartItemDto) -> &str, sep| {
            gone.iter().map(name).collect::<Vec<_>>().join(sep)
        };
        return Err(ApiError::SoldOut {
            names: Msg::new(
                names(|i| &i.prod_name, "、"),
                names(|i| &i.prod_name_en, ", "),
            ),
            cart: serde_json::to_value(&dto).unwrap_or_default(),
        });
    }
    // Below the store's delivery minimum (起送): say how much is missing.
    if dto.min_delivery_gap > Fen::ZERO {
        let (gap, min) = (dto.min_delivery_gap, dto.min_delivery_amount);
        return Err(ApiError::bad_input(
            format!("还差¥{gap}起送（本店外送¥{min}起送），请再选些商品"),
            format!("Add ¥{gap} more for delivery: this store delivers orders from ¥{min}"),
        ));
    }
    let (product_amount, discount, fee, total, lines, rules, items, breakdown) = priced_with(
        state,
        &snapshot,
        cart,
        &board,
        held.as_ref(),
        |priced, _| {
            let mut lines: Vec<NewOrderLine> = priced
                .valid_lines()
                .zip(dto.items.iter())
                .map(|(l, item)| NewOrderLine {
                    product_code: l.line.product_code.clone(),
                    quantity: l.line.quantity,
                    unit_price: l.unit,
                    count_price: l.count,
                    discount: l.discount,
                    doc: line_doc(item, l, &snapshot),
                })
                .collect();
            // Coupon items are lines the kitchen makes: at list price, the coupon's discount
            // on them (the breakdown's entry).
            lines.extend(dto.coupon_items.iter().filter_map(|item| {
                let product = snapshot.product(&item.product_code)?;
                Some(NewOrderLine {
                    product_code: item.product_code.clone(),
                    quantity: 1,
                    unit_price: item.original_price,
                    count_price: item.original_price,
                    discount: item.original_price - item.unit_price,
                    doc: coupon_item_doc(item, product, &snapshot),
                })
            }));
            let rules = serde_json::to_value(&dto.order_ref_rules).unwrap_or_default();
            // What the order list shows without reading every line.
            let items: Vec<serde_json::Value> = priced
            .valid_lines()
            .filter_map(|l| l.product.map(|p| (p, l.line.quantity)))
            .map(|(p, quantity)| serde_json::json!({"name": p.name, "quantity": quantity, "imageUrl": p.image_url1}))
            .collect();

            (
                priced.price_of_product + priced.coupon_items_list,
                priced.discount,
                priced.delivery_fee_after,
                priced.order_amount,
                lines,
                rules,
                items,
                priced.breakdown.clone(),
            )
        },
    );
    let client = (
        amount("orderProductAmount", body.order_product_amount)?,
        amount("activityAmount", body.activity_amount)?,
        amount("freightAmount", body.freight_amount)?,
        amount("orderAmount", body.order_amount)?,
    );
    // Points: the server recomputes what they are worth and whether the member may use them.
    let (points, points_amount) =
        points_for(state, user.user_id, body.points_deductions, total).await?;
    let client_total_ok = client.3 == total || (points > 0 && client.3 == total - points_amount);
    let mut sent_coupons = body.os_coupons.clone();
    sent_coupons.sort();
    sent_coupons.dedup();
    let mut applied_coupons = dto.os_coupons.clone();
    applied_coupons.sort();
    if (client.0, client.1, client.2) != (product_amount, discount, fee)
        || !client_total_ok
        || sent_coupons != applied_coupons
    {
        return Err(ApiError::AmountsChanged(
            serde_json::to_value(&dto).unwrap_or_default(),
        ));
    }

    let breakdown = breakdown.with_points(points, points_amount);
    let total = total - points_amount;
    // What the order page and the tablet will show must add up to what is charged.
    if let Some(wrong) = breakdown.inconsistency() {
        return Err(ApiError::internal(anyhow::anyhow!(
            "breakdown does not add up: {wrong}"
        )));
    }
    let order_no = new_order_no(now);
    let order = NewOrder {
        order_no: order_no.clone(),
        user_id: user.user_id,
        store_code: store.store_code.clone(),
        order_type,
        state: payment.initial_state(),
        progress: payment.initial_progress(),
        payment_type: payment.as_str().into(),
        is_book: cart.is_book,
        order_time,
        product_amount,
        discount_amount: discount,
        delivery_fee: fee,
        order_amount: total,
        doc: serde_json::json!({
            "storeName": store.name, "storeAddress": store.address, "storeTel": store.store_tel,
            "address": address_doc, "receiverName": name, "receiverMobile": mobile.as_str(),
            "deskNo": if order_type == DINE_IN { desk.as_ref().map(|d| d.desk_no.clone()) } else { None },
            "remark": remark.as_str(), "tableware": body.tableware, "isNeedInvoice": invoice.is_some(),
            "invoice": invoice,
            "rules": rules, "items": items,
            "pointsDeductions": points, "pointsAmount": points_amount.yuan(),
            "coupons": dto.os_coupons, "couponDiscountsAmount": dto.coupon_discounts_amount.yuan(),
            "couponDeliveryFee": dto.coupon_delivery_fee.yuan(),
            "breakdown": serde_json::to_value(&breakdown).unwrap_or_default(),
        }),
        lines,
        created_at: now,
    };
    let answer = SubmitDto {
        order_no,
        order_id: 0,
        order_amount: total,
        payable: if payment == PaymentType::Online {
            total
        } else {
            Fen::ZERO
        },
        payment_type: payment.as_str().into(),
        state: order.state,
        order_type,
        order_time,
    };
    let mut emptied = cart.clone();
    emptied.clear();
    emptied.chosen_rules.clear();
    emptied.chosen_coupons = None;
    let recorded_answer: Option<(String, String, IdempotentAnswer)> = idem.key.clone().map(|key| {
        let (idem, mut answer) = (idem.clone(), answer.clone());
        let scope = idem.scope.clone();
        let f: IdempotentAnswer = Box::new(move |order_id| {
            answer.order_id = order_id;
            idem.answer(answer)
        });
        (scope, key, f)
    });
    let done = state
        .carts
        .checkout(
            &owner.key,
            Checkout {
                read_version: stored.version,
                order,
                emptied,
                idempotency: recorded_answer,
                points_hold: (points > 0).then_some((user.user_id, points)),
                coupons_lock: Some((user.user_id, dto.os_coupons.clone())),
            },
        )
        .await;
    let done = match done {
        Ok(done) => done,
        Err(CartFailure::Stale) => {
            return Err(ApiError::conflict(
                "购物车已更新，请重试",
                "Your cart changed meanwhile; please try again",
            ))
        }
        Err(CartFailure::CouponTaken(code)) => {
            return Err(coupon_taken(state, ctx, &owner, &code, held.as_ref()).await)
        }
        Err(other) => return Err(other.into()),
    };
    tracing::info!(order_no = %answer.order_no, order_id = done.order_id, amount = %total, "order submitted");
    if payment == PaymentType::Offline {
        // Cash on delivery reaches the store's queue at once.
        if let Err(e) = state.orders.announce_new(&answer.order_no).await {
            tracing::warn!(error = %e, "new cash-on-delivery order not announced");
        }
    }
    let mut answer = answer;
    answer.order_id = done.order_id;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(Envelope {
            err_code: "00".into(),
            err_msg: String::new(),
            data: answer,
        }))
}

/// A coupon of the order was taken meanwhile (another order locked it, it expired): -6 with
/// the cart priced afresh without it, the message naming it.
async fn coupon_taken(
    state: &AppState,
    ctx: &Ctx,
    owner: &CartOwner,
    code: &str,
    held: Option<&Held>,
) -> ApiError {
    let name = held
        .and_then(|h| h.coupons.iter().find(|(c, _)| c.coupon_code == code))
        .map(|(_, t)| Msg::new(t.name.cn.clone(), Lang::En.pick(&t.name).to_string()))
        .unwrap_or_else(|| Msg::new(code.to_string(), code.to_string()));
    let snapshot = state.catalogue.get().await;
    let fresh = match state.carts.read(&owner.key).await {
        Ok(stored) => crate::http::cart::render(state, ctx, &snapshot, owner, &stored)
            .await
            .ok()
            .and_then(|dto| serde_json::to_value(dto).ok())
            .unwrap_or_default(),
        Err(_) => serde_json::Value::Null,
    };
    ApiError::CouponTaken {
        names: name,
        cart: fresh,
    }
}

/// A coupon item as the order keeps it: the item as the customer saw it, and the kitchen's
/// reading of the product with its default choices.
fn coupon_item_doc(
    item: &crate::http::cart::coupons_dto::CouponItemDto,
    product: &actors::domain::catalogue::Product,
    snapshot: &actors::catalogue::Snapshot,
) -> serde_json::Value {
    let mut doc = serde_json::to_value(item).unwrap_or_default();
    let lookup = |code: &str| snapshot.product(code);
    let selection =
        actors::domain::cart::item::normalize(product, &Default::default()).unwrap_or_default();
    if let Some(obj) = doc.as_object_mut() {
        obj.insert(
            "id".into(),
            actors::domain::pricing::coupon_pricing::item_line_id(&item.coupon_code).into(),
        );
        obj.insert("prodCode".into(), item.product_code.clone().into());
        obj.insert("countPrice".into(), item.original_price.yuan().into());
        for (key, lang) in [("kitchen", Lang::Zh), ("kitchenEn", Lang::En)] {
            let line = actors::domain::ordering::kitchen::kitchen_line(
                product, &selection, 1, &lookup, lang,
            );
            obj.insert(key.into(), serde_json::to_value(line).unwrap_or_default());
        }
    }
    doc
}

/// The points a submit asks to spend and what they pay, checked against the rule and the
/// member's available points (the hold in the order's transaction is the real guard).
async fn points_for(
    state: &AppState,
    user_id: i64,
    requested: i64,
    total: Fen,
) -> ApiResult<(i64, Fen)> {
    use crate::http::edge::error::loyalty as err;
    use actors::domain::loyalty::{DeductionError, DEDUCTION};
    if requested == 0 {
        return Ok((0, Fen::ZERO));
    }
    if requested < 0 {
        return Err(err::deduction_negative());
    }
    if state.loyalty.members().member(user_id).await?.is_none() {
        return Err(err::deduction_not_member());
    }
    let available = state.loyalty.points().account(user_id).await?.available;
    let points = DEDUCTION
        .check(requested, available, total)
        .map_err(|e| match e {
            DeductionError::Negative => err::deduction_negative(),
            DeductionError::BelowMinimum(min) => err::deduction_below_minimum(min),
            DeductionError::NotEnough(n) => err::not_enough(n),
            DeductionError::OverCap(usable) => err::deduction_over_cap(usable),
        })?;
    Ok((points, DEDUCTION.amount(points)))
}

/// The line as the customer saw it (in the request's language), and what the kitchen makes of
/// it in the store's language (`kitchen`), built from the codes while the menu is at hand.
fn line_doc(
    item: &CartItemDto,
    line: &actors::domain::pricing::cart_pricing::PricedLine,
    snapshot: &actors::catalogue::Snapshot,
) -> serde_json::Value {
    let mut doc = serde_json::to_value(item).unwrap_or_default();
    if let (Some(product), Some(obj)) = (line.product, doc.as_object_mut()) {
        let lookup = |code: &str| snapshot.product(code);
        let kitchen = actors::domain::ordering::kitchen::kitchen_line(
            product,
            &line.line.selection,
            line.line.quantity,
            &lookup,
            Lang::Zh,
        );
        obj.insert(
            "kitchen".into(),
            serde_json::to_value(kitchen).unwrap_or_default(),
        );
        // The same line named in English, so the order pages read in the reader's language
        // whatever language the order was placed in.
        let english = actors::domain::ordering::kitchen::kitchen_line(
            product,
            &line.line.selection,
            line.line.quantity,
            &lookup,
            Lang::En,
        );
        obj.insert(
            "kitchenEn".into(),
            serde_json::to_value(english).unwrap_or_default(),
        );
    }
    doc
}
