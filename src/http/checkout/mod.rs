//! Submit (POST /orders): the server prices the cart again, checks the store, time, address
//! and receiver, and turns the cart into an order in one transaction. The client's amounts are
//! only compared: any difference is errCode -6 with the fresh cart, and nothing is created.

use crate::http::cart::dto::{CartContext, CartDto};
use crate::http::cart::owner::CartOwner;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::Envelope;
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::idempotency::Idempotency;
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{post, web, HttpRequest, HttpResponse};
use actors::carts::pricing::cart_time;
use actors::carts::CartKey;
use actors::checkout::{
    CartPresenter, CheckoutError, OrderParts, RecordAnswer, Shown, SubmitOrder, Submitted,
};
use actors::domain::catalogue::Bilingual;
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::checkout::ClientAmounts;
use actors::domain::ordering::invoice::{Invoice, InvoiceError, InvoiceInput};
use actors::domain::ordering::order_status::PaymentType;
use actors::domain::ordering::remark::Remark;
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

fn amount(field: &'static str, value: f64) -> ApiResult<Fen> {
    Fen::from_yuan(value).ok_or_else(|| {
        ApiError::bad_input(
            format!("{field} 金额格式不正确"),
            format!("{field} must be an amount with at most 2 decimals"),
        )
    })
}

impl SubmitBody {
    /// The submit as checked values: what does not depend on the cart or the store.
    fn parse(&self, user: &AuthUser, ctx: &Ctx) -> ApiResult<SubmitOrder> {
        let payment = PaymentType::parse(&self.payment_type).ok_or_else(|| {
            ApiError::bad_input("请选择支付方式", "paymentType must be online or offline")
        })?;
        let remark = Remark::parse(&self.remark, self.contactless)
            .map_err(|e| ApiError::bad_input(e.message(Lang::Zh), e.message(Lang::En)))?;
        Ok(SubmitOrder {
            user_id: user.user_id,
            channel: ctx.channel,
            order_type: self.order_type,
            payment,
            consign_address_id: self.consign_address_id,
            receiver_name: self.receiver_name.clone(),
            receiver_mobile: self.receiver_mobile.clone(),
            remark,
            tableware: self.tableware,
            invoice: invoice_of(self)?,
            client: ClientAmounts {
                products: amount("orderProductAmount", self.order_product_amount)?,
                activity: amount("activityAmount", self.activity_amount)?,
                freight: amount("freightAmount", self.freight_amount)?,
                total: amount("orderAmount", self.order_amount)?,
            },
            points: self.points_deductions,
            os_coupons: self.os_coupons.clone(),
        })
    }
}

impl From<Submitted> for SubmitDto {
    fn from(s: Submitted) -> SubmitDto {
        SubmitDto {
            order_no: s.order_no,
            order_id: s.order_id,
            order_amount: s.order_amount,
            payable: s.payable,
            payment_type: s.payment.as_str().into(),
            state: s.state,
            order_type: s.order_type,
            order_time: s.order_time,
        }
    }
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
    let order = body.parse(&user, &ctx)?;
    let owner = CartOwner {
        key: CartKey::User(user.user_id),
        issued: false,
    };
    let presenter = Presenter {
        ctx: &ctx,
        owner: &owner,
    };
    let checkout = state.checkout();
    for round in 0..3 {
        let record = idem.key.clone().map(|key| {
            let (scope, idem) = (idem.scope.clone(), idem.clone());
            let answer: RecordAnswer =
                Box::new(move |done: &Submitted| idem.answer(SubmitDto::from(done.clone())));
            (scope, key, answer)
        });
        let e = match checkout.submit(&order, &presenter, record).await {
            Ok(done) => {
                return Ok(HttpResponse::Ok()
                    .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
                    .json(Envelope {
                        err_code: "00".into(),
                        err_msg: String::new(),
                        data: SubmitDto::from(done),
                    }))
            }
            Err(e) => e,
        };
        // A concurrent duplicate with the same key may have just created the order (and
        // emptied the cart): answer what it answered.
        if let Some(response) = idem.recorded(&state).await? {
            return Ok(response);
        }
        match e {
            // Another tab changed the cart between pricing and writing, or the order's number
            // was another order's: price and write again (another number is drawn).
            CheckoutError::Stale | CheckoutError::NumberTaken if round < 2 => continue,
            CheckoutError::CouponTaken { code, name } => {
                return Err(coupon_taken(&state, &ctx, &owner, &code, name).await)
            }
            other => return Err(other.into()),
        }
    }
    Err(CheckoutError::Stale.into())
}

/// The cart and its lines in the request's language, as the cart routes show them.
struct Presenter<'a> {
    ctx: &'a Ctx,
    owner: &'a CartOwner,
}

impl Presenter<'_> {
    fn dto(&self, shown: &Shown<'_>) -> CartDto {
        let mut cart = shown.stored.cart.clone();
        cart.order_time = Some(cart_time(&cart, shown.now));
        CartDto::new(
            shown.priced,
            &CartContext {
                cart: &cart,
                version: shown.stored.version,
                cart_token: self.owner.token(),
                snapshot: shown.snapshot,
                lang: self.ctx.lang,
                now: shown.now,
            },
        )
        .with_store(shown.store, shown.priced, self.ctx.lang, shown.now)
    }
}

impl CartPresenter for Presenter<'_> {
    fn cart(&self, shown: &Shown<'_>) -> serde_json::Value {
        serde_json::to_value(self.dto(shown)).unwrap_or_default()
    }

    fn order_parts(&self, shown: &Shown<'_>) -> OrderParts {
        let dto = self.dto(shown);
        fn json(v: &impl serde::Serialize) -> serde_json::Value {
            serde_json::to_value(v).unwrap_or_default()
        }
        OrderParts {
            lines: dto.items.iter().map(json).collect(),
            coupon_items: dto.coupon_items.iter().map(json).collect(),
            rules: json(&dto.order_ref_rules),
        }
    }
}

/// A coupon of the order was taken meanwhile: -6 with the cart priced afresh without it, the
/// message naming it.
async fn coupon_taken(
    state: &AppState,
    ctx: &Ctx,
    owner: &CartOwner,
    code: &str,
    name: Option<Bilingual>,
) -> ApiError {
    let names = name
        .map(|n| Msg::new(n.cn.clone(), Lang::En.pick(&n).to_string()))
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
    ApiError::CouponTaken { names, cart: fresh }
}
