//! The order detail's JSON shape (orderDetail), and its assembly from what the detail is
//! built from: amounts, lines, history, steps, the ETA, the payments, what can be done.

//! One order as the customer (or a holder of its view token) sees it: amounts, lines,
//! history, the steps with their times, the ETA, the payment, and what can be done with it
//! (cancel, refund, comment). `order:watch` answers the same snapshot.

use crate::http::cart::dto::{AppliedRuleDto, CartItemDto};
use crate::http::orders::views::OrderSource;
use crate::state::AppState;
use actors::db::orders::OrderRow;
use actors::domain::accounts::phone::Phone;
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::arrival::Arrival;
use actors::domain::ordering::order_machine::step_label;
use actors::domain::ordering::order_status::state_label;
use actors::domain::ordering::remark::split_contactless;
use actors::domain::ordering::view_token::view_token;
use actors::domain::payments::state::PaymentState;
use actors::domain::pricing::breakdown::BreakdownView;
use actors::orders::view::{
    can_cancel, invoice, order_arrival, order_breakdown, order_eta, paid_at, refusal_reason, steps,
    InvoiceView, Step,
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

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
pub fn refund_state(state: PaymentState, refund_error: Option<&str>) -> Option<String> {
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
pub fn line_options(order: &OrderRow, lang: Lang) -> Vec<LineOptionsDto> {
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

pub fn bilingual(v: Option<&Value>, lang: Lang) -> String {
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
    let full_remark = text("remark");
    let (contactless, remark_text) = split_contactless(&full_remark);
    let remark_text = remark_text.trim().to_string();
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
        paid_at: paid_at(order, history),
        refusal_reason: refusal_reason(order, history),
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
        can_cancel: can_cancel(order, now),
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
