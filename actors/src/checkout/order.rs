//! The order a submit writes: its lines with the kitchen's reading of each, its amounts, and
//! the document the order pages and the tablet read back.

use super::{CheckoutError, OrderParts, Shown, SubmitOrder};
use crate::catalogue::Snapshot;
use crate::db::orders::{NewOrder, NewOrderLine};
use crate::domain::cart::item::{normalize, Selection};
use crate::domain::catalogue::{Product, Store, DINE_IN};
use crate::domain::lang::Lang;
use crate::domain::money::Fen;
use crate::domain::ordering::checkout::{self as rules, Receiver, ServerAmounts};
use crate::domain::ordering::kitchen::kitchen_line;
use crate::domain::pricing::breakdown::Breakdown;
use crate::domain::pricing::cart_coupons::CouponItemStatus;
use crate::domain::pricing::coupon_pricing::item_line_id;

/// What the order keeps of the priced cart, owned (the priced cart borrows the menu).
#[derive(Clone)]
pub struct Priced {
    pub amounts: ServerAmounts,
    pub lines: Vec<NewOrderLine>,
    pub rules: serde_json::Value,
    pub items: Vec<serde_json::Value>,
    pub breakdown: Breakdown,
    pub applied_coupons: Vec<String>,
    pub coupon_discount: Fen,
    pub coupon_delivery_fee: Fen,
}

impl Priced {
    pub fn new(shown: &Shown<'_>, parts: OrderParts) -> Priced {
        let priced = shown.priced;
        let mut lines: Vec<NewOrderLine> = priced
            .valid_lines()
            .zip(parts.lines)
            .map(|(l, shown_line)| NewOrderLine {
                product_code: l.line.product_code.clone(),
                quantity: l.line.quantity,
                unit_price: l.unit,
                count_price: l.count,
                discount: l.discount,
                doc: with_kitchen(
                    shown_line,
                    l.product,
                    &l.line.selection,
                    l.line.quantity,
                    shown.snapshot,
                ),
            })
            .collect();
        // Coupon items are lines the kitchen makes: at list price, the coupon's discount on
        // them (the breakdown's entry), with the product's default choices.
        let coupon_items = priced
            .coupon_items
            .iter()
            .filter(|i| i.status == CouponItemStatus::Valid);
        lines.extend(
            coupon_items
                .zip(parts.coupon_items)
                .filter_map(|(item, shown_item)| {
                    let product = shown.snapshot.product(&item.product_code)?;
                    let selection = normalize(product, &Default::default()).unwrap_or_default();
                    let mut doc =
                        with_kitchen(shown_item, Some(product), &selection, 1, shown.snapshot);
                    if let Some(obj) = doc.as_object_mut() {
                        obj.insert("id".into(), item_line_id(&item.coupon_code).into());
                        obj.insert("prodCode".into(), item.product_code.clone().into());
                        obj.insert("countPrice".into(), item.list.yuan().into());
                    }
                    Some(NewOrderLine {
                        product_code: item.product_code.clone(),
                        quantity: 1,
                        unit_price: item.list,
                        count_price: item.list,
                        discount: item.list - item.price,
                        doc,
                    })
                }),
        );
        Priced {
            amounts: ServerAmounts::of(priced),
            lines,
            rules: parts.rules,
            items: rules::list_items(priced),
            breakdown: priced.breakdown.clone(),
            applied_coupons: priced.applied_coupons.clone(),
            coupon_discount: priced.coupon_discount,
            coupon_delivery_fee: priced.coupon_delivery_fee,
        }
    }
}

/// The line as the customer saw it, and what the kitchen makes of it in the store's language
/// (`kitchen`) and in English (`kitchenEn`, so the order pages read in the reader's language
/// whatever language the order was placed in), built from the codes while the menu is at hand.
fn with_kitchen(
    mut doc: serde_json::Value,
    product: Option<&Product>,
    selection: &Selection,
    quantity: u32,
    snapshot: &Snapshot,
) -> serde_json::Value {
    if let (Some(product), Some(obj)) = (product, doc.as_object_mut()) {
        let lookup = |code: &str| snapshot.product(code);
        for (key, lang) in [("kitchen", Lang::Zh), ("kitchenEn", Lang::En)] {
            let line = kitchen_line(product, selection, quantity, &lookup, lang);
            obj.insert(key.into(), serde_json::to_value(line).unwrap_or_default());
        }
    }
    doc
}

/// Everything a new order is made of.
pub struct Parts<'a> {
    pub order_no: String,
    pub order: &'a SubmitOrder,
    pub store: &'a Store,
    pub desk_no: Option<String>,
    pub receiver: Receiver,
    pub address: serde_json::Value,
    pub priced: Priced,
    pub points: (i64, Fen),
    pub order_time: i64,
    pub is_book: bool,
    /// 优先制作: the member's level gives priority making (the tablet's queue puts it first).
    pub priority: bool,
    pub now: i64,
}

/// The order to write: the amounts after points, and a breakdown that must add up to them.
pub fn new_order(p: Parts<'_>) -> Result<NewOrder, CheckoutError> {
    let (points, points_amount) = p.points;
    let order = p.order;
    let breakdown = p.priced.breakdown.with_points(points, points_amount);
    let total = p.priced.amounts.total - points_amount;
    // What the order page and the tablet will show must add up to what is charged.
    if let Some(wrong) = breakdown.inconsistency() {
        return Err(CheckoutError::Inconsistent(format!(
            "breakdown does not add up: {wrong}"
        )));
    }
    Ok(NewOrder {
        order_no: p.order_no,
        user_id: order.user_id,
        store_code: p.store.store_code.clone(),
        order_type: order.order_type,
        state: order.payment.initial_state(),
        progress: order.payment.initial_progress(),
        payment_type: order.payment.as_str().into(),
        is_book: p.is_book,
        order_time: p.order_time,
        product_amount: p.priced.amounts.products,
        discount_amount: p.priced.amounts.discount,
        delivery_fee: p.priced.amounts.delivery_fee,
        order_amount: total,
        doc: serde_json::json!({
            "storeName": p.store.name, "storeAddress": p.store.address,
            "storeTel": p.store.store_tel,
            "address": p.address, "receiverName": p.receiver.name,
            "receiverMobile": p.receiver.mobile.as_str(),
            "deskNo": if order.order_type == DINE_IN { p.desk_no } else { None },
            "remark": order.remark.as_str(), "tableware": order.tableware,
            "isNeedInvoice": order.invoice.is_some(), "invoice": order.invoice,
            "rules": p.priced.rules, "items": p.priced.items,
            "pointsDeductions": points, "pointsAmount": points_amount.yuan(),
            "coupons": p.priced.applied_coupons,
            "couponDiscountsAmount": p.priced.coupon_discount.yuan(),
            "couponDeliveryFee": p.priced.coupon_delivery_fee.yuan(),
            "breakdown": serde_json::to_value(&breakdown).unwrap_or_default(),
            "priority": p.priority,
        }),
        lines: p.priced.lines,
        created_at: p.now,
    })
}
