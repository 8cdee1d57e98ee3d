//! How an order is shown beyond its row: the tablet's card (`TabletOrder`, also the payload of
//! `order:new` and `order:updated`), its steps and its ETA.

use crate::db::orders::{OrderEvent, OrderRow};
use crate::domain::accounts::phone::Phone;
use crate::domain::catalogue::{Bilingual, Store, DELIVERY};
use crate::domain::lang::Lang;
use crate::domain::money::{yuan, Fen};
use crate::domain::ordering::arrival::{arrival, Arrival};
use crate::domain::ordering::eta::{eta, Promise};
use crate::domain::ordering::kitchen::{from_line_doc, KitchenLine};
use crate::domain::ordering::order_machine::{
    apply, state, step_label, Actor, Command, OrderState, STEPS,
};
use crate::domain::ordering::remark::split_contactless;
use crate::domain::pricing::breakdown::{
    Breakdown, BreakdownView, DiscountEntry, DiscountLevel, ListLine,
};
use serde::Serialize;
use serde_json::Value;

/// When an online order was paid: the history's paid move.
pub fn paid_at(row: &OrderRow, history: &[OrderEvent]) -> Option<i64> {
    (row.payment_type == "online")
        .then(|| {
            history
                .iter()
                .find(|e| e.state == state::PAID)
                .map(|e| e.at)
        })
        .flatten()
}

/// Why the store refused the order, as its staff wrote it (none when they wrote nothing).
pub fn refusal_reason(row: &OrderRow, history: &[OrderEvent]) -> Option<String> {
    (row.state == state::REFUSED_BY_STORE)
        .then(|| {
            history
                .iter()
                .rev()
                .find(|e| e.state == state::REFUSED_BY_STORE)
                .and_then(|e| e.note.clone())
        })
        .flatten()
        .filter(|n| !n.trim().is_empty())
}

/// Whether the customer may still cancel the order now (the machine's own answer).
pub fn can_cancel(row: &OrderRow, now: i64) -> bool {
    let current = OrderState {
        state: row.state,
        progress: row.progress,
        last_move_at_ms: row.updated_at,
    };
    apply(&current, Actor::Customer, &Command::CustomerCancel, now).is_ok()
}

/// The invoice the customer asked for, from the order's `doc.invoice` (checkout records it
/// whenever `isNeedInvoice` is set). Orders from before invoices were recorded kept only
/// "requested": those show with every field null.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    /// personal or company.
    pub kind: Option<String>,
    pub title: Option<String>,
    pub tax_no: Option<String>,
    pub email: Option<String>,
}

/// An order as a store tablet lists it: `GET /tablet/orders`, the history, and the payload of
/// `order:new` and `order:updated`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabletOrder {
    pub order_no: String,
    pub state: u8,
    pub progress: u8,
    pub order_type: u8,
    pub order_time: i64,
    pub is_book_order: bool,
    /// When the order reached the store (paid, or submitted as cash on delivery).
    pub paid_at: Option<i64>,
    /// When it entered its current stage.
    pub stage_since: i64,
    pub seq: i64,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub order_amount: Fen,
    /// online or offline (cash on delivery).
    pub payment_type: String,
    pub lines: Vec<KitchenLine>,
    /// The customer's remark, without the contactless note (that is `contactless`).
    pub remark: String,
    pub contactless: bool,
    /// Cash on delivery: what the rider collects; null when paid online.
    #[serde(with = "yuan::option")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>))]
    pub cash_to_collect: Option<Fen>,
    /// Present when the customer asked for an invoice.
    pub invoice: Option<InvoiceView>,
    /// The store's name in the store's language (the kitchen ticket's header).
    pub store_name: String,
    /// A closed order: who closed it (customer, store, system) and when; `closeNote` is a
    /// refusal's reason.
    pub closed_by: Option<String>,
    pub closed_at: Option<i64>,
    pub close_note: Option<String>,
    pub tableware: u32,
    pub desk_no: Option<String>,
    pub receiver_name: String,
    pub receiver_mobile: String,
    /// Delivery only: the address as the rider reads it.
    pub address: Option<String>,
    /// The promise: the order time for bookings, else submit + the store's time.
    pub promised_by: i64,
    /// The arrival every screen shows (`domain::arrival`), stamped when the card is handed out.
    pub arrival: Option<Arrival>,
    /// The order's `(progress, at)` history, which the arrival reads.
    #[serde(skip)]
    pub stages: Vec<(u8, i64)>,
    /// The amounts as the customer agreed to them at submit.
    pub breakdown: BreakdownView,
    /// 优先制作: the customer's member level gave priority making when they ordered (decided
    /// at submit and kept on the order); the queue lists it first in its stage.
    pub priority: bool,
}

/// The breakdown frozen at submit (`doc.breakdown`). Orders placed before it was kept get one
/// rebuilt from their lines and the rules they recorded (order level, no lines named), which
/// adds up the same way since it comes from the same row.
pub fn order_breakdown(row: &OrderRow) -> Breakdown {
    if let Some(b) = row
        .doc
        .get("breakdown")
        .and_then(|b| serde_json::from_value::<Breakdown>(b.clone()).ok())
    {
        return b;
    }
    let lines = row
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| ListLine {
            line_id: l
                .doc
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("line{i}"), String::from),
            product_code: l.product_code.clone(),
            name: Bilingual {
                cn: text(&l.doc, "prodName"),
                en: text(&l.doc, "prodNameEn"),
            },
            spec: Bilingual::default(),
            unit_price: l.unit_price,
            quantity: l.quantity,
            amount: l.count_price,
        })
        .collect();
    let discounts = row
        .doc
        .get("rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|r| DiscountEntry {
            rule_id: text(r, "ruleId"),
            name: Bilingual {
                cn: text(r, "ruleName"),
                en: text(r, "ruleName"),
            },
            rule_type: text(r, "ruleType"),
            level: DiscountLevel::Order,
            amount: r
                .get("discountAmount")
                .and_then(Value::as_f64)
                .and_then(Fen::from_yuan)
                .unwrap_or(Fen::ZERO),
            line_ids: Vec::new(),
            coupon_code: None,
        })
        .collect();
    Breakdown {
        lines,
        discounts,
        product_amount: row.product_amount,
        discount_amount: row.discount_amount,
        delivery_fee: row.delivery_fee,
        delivery_fee_waived: Fen::ZERO,
        points_used: 0,
        points_deduction: Fen::ZERO,
        coupon_amount: Fen::ZERO,
        coupon_delivery_waived: Fen::ZERO,
        payable: row.order_amount,
    }
}

fn text(doc: &Value, key: &str) -> String {
    doc.get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

pub fn invoice(doc: &Value) -> Option<InvoiceView> {
    let details = doc.get("invoice").filter(|v| v.is_object());
    let asked = doc.get("isNeedInvoice").and_then(Value::as_bool) == Some(true);
    if !asked && details.is_none() {
        return None;
    }
    let field = |key: &str| {
        details
            .and_then(|d| d.get(key))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    Some(InvoiceView {
        kind: field("kind"),
        title: field("title"),
        tax_no: field("taxNo"),
        email: field("email"),
    })
}

/// When each progress code was first entered (the ETA and the steps read it).
pub fn stage_history(history: &[OrderEvent]) -> Vec<(u8, i64)> {
    history.iter().map(|e| (e.progress, e.at)).collect()
}

/// `store`: the order's store as it is now (busy lengthens the promise).
pub fn promise(row: &OrderRow, store: Option<&Store>) -> Promise {
    match store {
        Some(store) => Promise::for_store(store, row.order_type, row.is_book, row.order_time),
        None => Promise {
            order_type: row.order_type,
            is_book: row.is_book,
            order_time_ms: row.order_time,
            delivery_min: 30,
            estimate_min: 15,
        },
    }
}

/// The arrival every screen shows (`domain::arrival`) for this order now.
pub fn order_arrival(
    row: &OrderRow,
    history: &[OrderEvent],
    store: Option<&Store>,
    now: i64,
) -> Option<Arrival> {
    arrival(
        &promise(row, store),
        row.progress,
        &stage_history(history),
        now,
    )
}

/// Sets the card's arrival for `now` (cards are kept in the StoreActor's queue; the arrival
/// moves on with time, so it is stamped when the card is handed out).
pub fn stamp_arrival(card: &mut TabletOrder, store: Option<&Store>, now: i64) {
    let promise = match store {
        Some(store) => {
            Promise::for_store(store, card.order_type, card.is_book_order, card.promised_by)
        }
        None => Promise {
            order_type: card.order_type,
            is_book: card.is_book_order,
            order_time_ms: card.promised_by,
            delivery_min: 30,
            estimate_min: 15,
        },
    };
    card.arrival = arrival(&promise, card.progress, &card.stages, now);
}

pub fn order_eta(
    row: &OrderRow,
    history: &[OrderEvent],
    store: Option<&Store>,
    now: i64,
) -> Option<i64> {
    eta(
        &promise(row, store),
        row.progress,
        &stage_history(history),
        now,
    )
}

/// When the order reached the store: the first history row awaiting acceptance.
pub fn reached_store_at(history: &[OrderEvent]) -> Option<i64> {
    history
        .iter()
        .find(|e| e.progress == 0 && (e.state == 6 || e.state == 7))
        .map(|e| e.at)
}

pub fn tablet_order(row: &OrderRow, history: &[OrderEvent]) -> TabletOrder {
    let doc = &row.doc;
    let stage_since = history
        .iter()
        .rev()
        .find(|e| e.progress == row.progress)
        .map_or(row.updated_at, |e| e.at);
    let address = (row.order_type == DELIVERY).then(|| {
        let a = doc.get("address").cloned().unwrap_or_default();
        format!("{} {}", text(&a, "baseAddress"), text(&a, "houseNumber"))
            .trim()
            .to_string()
    });
    let full_remark = text(doc, "remark");
    let (contactless, remark) = split_contactless(&full_remark);
    let closing = crate::domain::ordering::order_machine::is_closed(row.state)
        .then(|| history.last())
        .flatten();
    TabletOrder {
        order_no: row.order_no.clone(),
        state: row.state,
        progress: row.progress,
        order_type: row.order_type,
        order_time: row.order_time,
        is_book_order: row.is_book,
        paid_at: reached_store_at(history),
        stage_since,
        seq: row.seq,
        order_amount: row.order_amount,
        payment_type: row.payment_type.clone(),
        lines: row.lines.iter().map(|l| from_line_doc(&l.doc)).collect(),
        remark: remark.trim().to_string(),
        contactless,
        cash_to_collect: (row.payment_type == "offline").then_some(row.order_amount),
        invoice: invoice(doc),
        store_name: doc
            .get("storeName")
            .map(|n| match n {
                Value::String(s) => s.clone(),
                n => text(n, "cn"),
            })
            .unwrap_or_default(),
        closed_by: closing.map(|e| e.actor.clone()),
        closed_at: closing.map(|e| e.at),
        // Only a refusal's note is a reason someone wrote; other closing notes name the move.
        close_note: closing
            .filter(|_| {
                row.state == crate::domain::ordering::order_machine::state::REFUSED_BY_STORE
            })
            .and_then(|e| e.note.clone())
            .filter(|n| !n.is_empty()),
        tableware: doc.get("tableware").and_then(Value::as_u64).unwrap_or(0) as u32,
        desk_no: doc.get("deskNo").and_then(Value::as_str).map(String::from),
        receiver_name: text(doc, "receiverName"),
        receiver_mobile: Phone::parse(&text(doc, "receiverMobile"))
            .map(|p| p.masked())
            .unwrap_or_default(),
        address,
        promised_by: row.order_time,
        arrival: None,
        stages: stage_history(history),
        breakdown: BreakdownView::from(&order_breakdown(row)),
        priority: doc
            .get("priority")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    }
}

/// One step of the status page.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub progress: u8,
    pub label: &'static str,
    pub at: Option<i64>,
    pub done: bool,
    pub current: bool,
}

/// The status page's steps (accept, make, oven, quality check, dispatch or ready, delivered or
/// completed) with the time each was reached.
pub fn steps(row: &OrderRow, history: &[OrderEvent], lang: Lang) -> Vec<Step> {
    let reached = |p: u8| history.iter().find(|e| e.progress == p).map(|e| e.at);
    let in_flow = STEPS.contains(&row.progress) || row.progress == 4;
    let current = if row.progress == 4 { 10 } else { row.progress };
    STEPS
        .iter()
        .map(|&p| {
            let at = reached(p).or(if p == 10 { reached(4) } else { None });
            Step {
                progress: p,
                label: step_label(p, row.order_type, lang),
                at,
                done: in_flow && p <= current,
                current: in_flow && p == current,
            }
        })
        .collect()
}
