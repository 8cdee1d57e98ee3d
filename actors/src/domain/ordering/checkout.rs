//! Submit's decisions (spec ordering §3 submit, §4, §5; docs/cart-and-checkout.md "Submit"):
//! each rule that turns a priced cart into an order is a plain function here, in the order the
//! checkout service (`crate::checkout`) asks them. The service reads the cart, the store's
//! board, the address and the ledgers, and writes the order; nothing here does I/O.

use crate::domain::accounts::phone::{Phone, PhoneError};
use crate::domain::catalogue::{LngLat, Store, DELIVERY, DINE_IN};
use crate::domain::geo::address::{is_illegal, AddressError, ContactName};
use crate::domain::lang::Lang;
use crate::domain::money::Fen;
use crate::domain::ordering::order_status::PaymentType;
use crate::domain::ordering::order_time::{asap_time, check_taking, NotTaking};
use crate::domain::pricing::cart_pricing::{LineStatus, PricedCart};
use crate::domain::stores::hours::china_time;
use crate::domain::stores::store_rules::delivery_minimum_gap;

/// The most sets of tableware one order may ask for.
pub const MAX_TABLEWARE: u32 = 20;

/// Why a submit is refused before anything is written, each with the words the customer reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmitRefusal {
    /// The cart's order type moved since the customer looked at checkout.
    OrderTypeChanged,
    OrderTypeNotOffered,
    CashOnlyForDelivery,
    Tableware,
    NoAddress,
    /// Nothing in the cart at all.
    EmptyCart,
    /// Lines, but none that can be charged (sold out, off time, expired).
    NoValidItems,
    /// Below the store's delivery minimum (起送): what is missing, and the minimum.
    BelowDeliveryMinimum {
        gap: Fen,
        min: Fen,
    },
}

impl SubmitRefusal {
    pub fn message(&self, lang: Lang) -> String {
        let (zh, en) = match self {
            SubmitRefusal::OrderTypeChanged => (
                "服务方式已变更，请重新确认",
                "The order type changed; please check your order again",
            ),
            SubmitRefusal::OrderTypeNotOffered => (
                "该门店不支持此服务方式",
                "This store does not offer that order type",
            ),
            SubmitRefusal::CashOnlyForDelivery => (
                "货到付款仅限外送订单",
                "Pay on delivery is for delivery orders only",
            ),
            SubmitRefusal::Tableware => ("餐具数量不正确", "Tableware must be between 0 and 20"),
            SubmitRefusal::NoAddress => ("请选择收货地址", "Please choose a delivery address"),
            SubmitRefusal::EmptyCart => ("购物车为空，无法结算", "Your cart is empty"),
            SubmitRefusal::NoValidItems => ("购物车中没有有效商品", "Your cart has no valid items"),
            SubmitRefusal::BelowDeliveryMinimum { gap, min } => {
                return match lang {
                    Lang::Zh => format!("还差¥{gap}起送（本店外送¥{min}起送），请再选些商品"),
                    Lang::En => format!(
                        "Add ¥{gap} more for delivery: this store delivers orders from ¥{min}"
                    ),
                }
            }
        };
        match lang {
            Lang::Zh => zh.to_string(),
            Lang::En => en.to_string(),
        }
    }

    /// The refusals about the cart's contents (errCode -20 on the wire), as against the rest
    /// (bad input, 400).
    pub fn is_about_the_cart(&self) -> bool {
        matches!(self, SubmitRefusal::EmptyCart | SubmitRefusal::NoValidItems)
    }
}

/// The order type asked for is the cart's, and the store offers it.
pub fn check_order_type(cart_type: u8, asked: u8, offered: &[u8]) -> Result<(), SubmitRefusal> {
    if asked != cart_type {
        return Err(SubmitRefusal::OrderTypeChanged);
    }
    if !offered.contains(&asked) {
        return Err(SubmitRefusal::OrderTypeNotOffered);
    }
    Ok(())
}

/// When the order is for: the booked slot if the cart has one (a closed store, or one outside
/// its hours, takes bookings for a slot it takes, and nothing else); a dine-in order at a
/// scanned table is for now; anything else as soon as the store can.
pub fn order_time(
    store: &Store,
    order_type: u8,
    booked_at: Option<i64>,
    at_a_table: bool,
    now: i64,
) -> Result<i64, NotTaking> {
    check_taking(store, order_type, booked_at, now)?;
    Ok(match booked_at {
        Some(at) => at,
        None if order_type == DINE_IN && at_a_table => now,
        None => asap_time(store, order_type, now),
    })
}

/// Cash on delivery is for delivery orders only.
pub fn check_payment(payment: PaymentType, order_type: u8) -> Result<(), SubmitRefusal> {
    if payment == PaymentType::Offline && order_type != DELIVERY {
        return Err(SubmitRefusal::CashOnlyForDelivery);
    }
    Ok(())
}

pub fn check_tableware(sets: u32) -> Result<(), SubmitRefusal> {
    if sets > MAX_TABLEWARE {
        return Err(SubmitRefusal::Tableware);
    }
    Ok(())
}

/// An address book entry's point, when its coordinates are usable.
pub fn delivery_point(lat: &str, lng: &str) -> Option<LngLat> {
    if is_illegal(Some(lat)) {
        return None;
    }
    Some(LngLat {
        lat: lat.parse().ok()?,
        lng: lng.parse().ok()?,
    })
}

/// Who receives the order, as the order keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receiver {
    /// Empty for a pickup or dine-in order of a customer without a name.
    pub name: String,
    pub mobile: Phone,
}

/// A receiver's field that does not parse: the field's own error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiverError {
    Name(AddressError),
    Mobile(PhoneError),
}

impl ReceiverError {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ReceiverError::Name(e) => e.message(lang),
            ReceiverError::Mobile(e) => e.message(lang),
        }
    }
}

/// The receiver: the address's contact for a delivery, else the customer's profile; a name or
/// mobile typed at checkout wins over both. A delivery needs a valid name; every order a valid
/// mobile.
pub fn receiver(
    order_type: u8,
    (mut name, mut mobile): (String, String),
    typed_name: Option<&str>,
    typed_mobile: Option<&str>,
) -> Result<Receiver, ReceiverError> {
    if let Some(n) = typed_name.filter(|n| !n.trim().is_empty()) {
        name = n.to_string();
    }
    if let Some(m) = typed_mobile.filter(|m| !m.trim().is_empty()) {
        mobile = m.to_string();
    }
    let name = if name.trim().is_empty() && order_type != DELIVERY {
        String::new()
    } else {
        ContactName::parse(&name)
            .map_err(ReceiverError::Name)?
            .as_str()
            .to_string()
    };
    let mobile = Phone::parse(&mobile).map_err(ReceiverError::Mobile)?;
    Ok(Receiver { name, mobile })
}

/// A cart can be submitted when it has lines and at least one can be charged.
pub fn check_submittable(valid: usize, disabled: usize) -> Result<(), SubmitRefusal> {
    match (valid, disabled) {
        (0, 0) => Err(SubmitRefusal::EmptyCart),
        (0, _) => Err(SubmitRefusal::NoValidItems),
        _ => Ok(()),
    }
}

/// [`check_submittable`] of a priced cart.
pub fn check_priced_submittable(priced: &PricedCart) -> Result<(), SubmitRefusal> {
    let valid = priced.valid_lines().count();
    check_submittable(valid, priced.lines.len() - valid)
}

/// The products sold out since the customer last looked (the store's "86"), named in Chinese
/// and in English, when there are any: the customer is told which rather than silently
/// ordering the rest.
pub fn sold_out_names(priced: &PricedCart) -> Option<(String, String)> {
    let gone: Vec<_> = priced
        .lines
        .iter()
        .filter(|l| l.status == LineStatus::SoldOut)
        .collect();
    if gone.is_empty() {
        return None;
    }
    let names = |name: fn(&crate::domain::catalogue::Bilingual) -> &str, sep| {
        gone.iter()
            .map(|l| l.product.map(|p| name(&p.name)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(sep)
    };
    Some((names(|n| &n.cn, "、"), names(|n| &n.en, ", ")))
}

/// Below the store's delivery minimum: how much is missing.
pub fn check_delivery_minimum(
    store: &Store,
    order_type: u8,
    priced: &PricedCart,
) -> Result<(), SubmitRefusal> {
    let gap = delivery_minimum_gap(store, order_type, priced.price_after_promotions);
    if gap > Fen::ZERO {
        return Err(SubmitRefusal::BelowDeliveryMinimum {
            gap,
            min: store.min_delivery_amount,
        });
    }
    Ok(())
}

/// The amounts the customer saw at checkout, as sent with the submit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAmounts {
    pub products: Fen,
    pub activity: Fen,
    pub freight: Fen,
    pub total: Fen,
}

/// The server's amounts of the same cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerAmounts {
    pub products: Fen,
    pub discount: Fen,
    pub delivery_fee: Fen,
    /// Before points.
    pub total: Fen,
}

impl ServerAmounts {
    pub fn of(priced: &PricedCart) -> ServerAmounts {
        ServerAmounts {
            products: priced.price_of_product + priced.coupon_items_list,
            discount: priced.discount,
            delivery_fee: priced.delivery_fee_after,
            total: priced.order_amount,
        }
    }
}

/// Whether what the customer saw is what the server charges: the same products, discount
/// and fee; a total before or after the points they spend; and the same coupons applied (the
/// order the client lists them in, and repeats, do not matter).
pub fn amounts_agree(
    client: &ClientAmounts,
    server: &ServerAmounts,
    (points, points_amount): (i64, Fen),
    sent_coupons: &[String],
    applied_coupons: &[String],
) -> bool {
    let mut sent = sent_coupons.to_vec();
    sent.sort();
    sent.dedup();
    let mut applied = applied_coupons.to_vec();
    applied.sort();
    let total_ok = client.total == server.total
        || (points > 0 && client.total == server.total - points_amount);
    (client.products, client.activity, client.freight)
        == (server.products, server.discount, server.delivery_fee)
        && total_ok
        && sent == applied
}

/// An order number: the China time to the second (12 digits) and six digits made of `counter`,
/// a number the deployment draws once per order (`db::order_numbers`). The six digits are a
/// permutation of the counter modulo a million, so two orders of one second get the same
/// number only if a million were drawn between them; the permutation only keeps consecutive
/// orders from reading as a count of the chain's orders (it is no secret: it can be undone).
pub fn order_no(now: i64, counter: u64) -> String {
    format!(
        "{}{:06}",
        china_time(now).format("%y%m%d%H%M%S"),
        order_digits(counter)
    )
}

/// `counter` modulo a million through `x ↦ (x·M + A) mod 10⁶`, a bijection because M shares no
/// factor with 10⁶ (it is odd and does not end in 5).
fn order_digits(counter: u64) -> u64 {
    const MODULUS: u64 = 1_000_000;
    const M: u64 = 741_457;
    const A: u64 = 271_828;
    ((counter % MODULUS) * M + A) % MODULUS
}

/// What the order list shows of each charged line without reading the lines.
pub fn list_items(priced: &PricedCart) -> Vec<serde_json::Value> {
    priced
        .valid_lines()
        .filter_map(|l| l.product.map(|p| (p, l.line.quantity)))
        .map(|(p, quantity)| {
            serde_json::json!({"name": p.name, "quantity": quantity, "imageUrl": p.image_url1})
        })
        .collect()
}

#[cfg(test)]
#[path = "checkout_tests.rs"]
mod tests;
