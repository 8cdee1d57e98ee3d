//! Coupons (issue 24, spec ordering §2/§3, account §7): what a coupon template offers, the
//! states a customer's coupon moves through, whether a coupon applies to a cart here and now,
//! and the plain words a customer reads about it. Pure: no I/O; the tables live in
//! `db::coupons`, the pricing of a cart with coupons in `cart_pricing` (after promotions).

use crate::domain::catalogue::effective::{availability, Availability, RuleContext};
use crate::domain::catalogue::{Bilingual, EffectiveRule, DELIVERY};
use crate::domain::lang::Lang;
use crate::domain::money::Fen;
use crate::domain::pricing::promotion::{Scope, Unit};
use crate::domain::stores::hours::start_of_china_day;
use serde::{Deserialize, Serialize};

// The words a customer reads about a coupon live in their own file; callers keep using
// `domain::coupon::…`.
#[path = "coupon_text.rs"]
mod text;
use text::order_types_text;
pub use text::{rule_text, rule_text_named, scope_text, short_yuan, ScopeNames};

/// The partner channel where coupons do not exist at all (spec ordering §6).
pub const NO_COUPON_CHANNEL: u16 = 30;
/// A coupon whose `valid_to` is within this is "expiring soon" on /my/coupon/list.
pub const EXPIRING_SOON_MS: i64 = 3 * DAY_MS;
const DAY_MS: i64 = 24 * 3_600_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CouponTemplate {
    /// Also the `ruleId` of collectCoupon/{ruleId} and of the cart's coupon items.
    pub template_code: String,
    pub name: Bilingual,
    pub kind: CouponKind,
    /// Which cart units count toward the threshold and take the discount; empty lists: all.
    #[serde(default)]
    pub scope: Scope,
    /// Dates, hours, weekdays, stores, store groups, order types, read as promotions read them.
    #[serde(default)]
    pub effective_rule: Option<EffectiveRule>,
    /// Empty: every channel. Channel 30 never shows coupons whatever this says.
    #[serde(default)]
    pub channels: Vec<u16>,
    /// At most one coupon of a group per order.
    #[serde(default)]
    pub stack_group: Option<String>,
    /// Template codes and promotion rule ids this never combines with; symmetric (either side
    /// naming the other is enough).
    #[serde(default)]
    pub excludes: Vec<String>,
    /// None: unlimited.
    #[serde(default)]
    pub total_limit: Option<i64>,
    #[serde(default)]
    pub per_user_limit: Option<i64>,
    pub validity: Validity,
    /// Offered at GET /coupons/offers and collectable by POST /coupons/collect/{ruleId}.
    #[serde(default)]
    pub collectable: bool,
    #[serde(default)]
    pub transferable: bool,
    #[serde(default)]
    pub sort: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CouponKind {
    /// 满 threshold 减 off, on the scoped units after promotions.
    CashOff { threshold: Fen, off: Fen },
    /// `percent_off` % off the scoped units after promotions, at most `cap` (0: no cap).
    PercentOff {
        percent_off: u32,
        cap: Fen,
        threshold: Fen,
    },
    /// Waives the delivery fee (couponDeliveryFee) once the scoped units reach `threshold`.
    FreeDelivery { threshold: Fen },
    /// combosetProduct 1: adds the product at `price` (0 = free) once the rest reaches `threshold`.
    ProductAtPrice {
        product_code: String,
        price: Fen,
        threshold: Fen,
    },
    /// combosetProduct 2: the coupon is the product (兑换券); no threshold.
    ExchangeProduct { product_code: String },
}

impl CouponKind {
    /// The name the API uses (`kind`).
    pub fn type_name(&self) -> &'static str {
        match self {
            CouponKind::CashOff { .. } => "cashOff",
            CouponKind::PercentOff { .. } => "percentOff",
            CouponKind::FreeDelivery { .. } => "freeDelivery",
            CouponKind::ProductAtPrice { .. } => "productAtPrice",
            CouponKind::ExchangeProduct { .. } => "exchangeProduct",
        }
    }

    /// The product a product coupon puts in the cart.
    pub fn product_code(&self) -> Option<&str> {
        match self {
            CouponKind::ProductAtPrice { product_code, .. }
            | CouponKind::ExchangeProduct { product_code } => Some(product_code),
            _ => None,
        }
    }

    /// The amount the cart must reach (zero for the kinds without one).
    pub fn threshold(&self) -> Fen {
        match self {
            CouponKind::CashOff { threshold, .. }
            | CouponKind::PercentOff { threshold, .. }
            | CouponKind::FreeDelivery { threshold }
            | CouponKind::ProductAtPrice { threshold, .. } => *threshold,
            CouponKind::ExchangeProduct { .. } => Fen::ZERO,
        }
    }
}

/// When an issued coupon may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Validity {
    /// The same window for everyone: [from, to) in epoch ms.
    Fixed { from: i64, to: i64 },
    /// From issue to the end of the `days`-th China day counting the day of issue (7 days
    /// issued on Monday afternoon: usable through Sunday 24:00).
    AfterIssue { days: u32 },
    /// From issue to the end of the China calendar month of issue (a member privilege's
    /// monthly coupons, the birthday treat).
    MonthEnd,
}

impl Validity {
    /// [valid_from, valid_to) of a coupon issued at `issued_at`.
    pub fn window(&self, issued_at: i64) -> (i64, i64) {
        match *self {
            Validity::Fixed { from, to } => (from, to),
            Validity::AfterIssue { days } => {
                let days = i64::from(days.max(1));
                (
                    issued_at,
                    start_of_china_day(issued_at).saturating_add(days * DAY_MS),
                )
            }
            Validity::MonthEnd => (
                issued_at,
                super::privileges::ChinaMonth::at(issued_at).end_ms(),
            ),
        }
    }

    /// Whether issuing now still gives a coupon that can be used some time: a fixed window that
    /// has already closed issues nothing.
    pub fn issuable(&self, now: i64) -> bool {
        let (_, to) = self.window(now);
        to > now
    }
}

/// Where a customer's coupon is. Stored as the upper-case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CouponStatus {
    Issued,
    /// Held by an order between submit and payment (or cancel).
    Locked,
    Used,
    /// Given back by a cancelled or refunded order: usable again.
    Returned,
    Expired,
    /// Given to another user; the recipient holds a new coupon naming this one as parent.
    Transferred,
}

impl CouponStatus {
    pub const ALL: [CouponStatus; 6] = [
        CouponStatus::Issued,
        CouponStatus::Locked,
        CouponStatus::Used,
        CouponStatus::Returned,
        CouponStatus::Expired,
        CouponStatus::Transferred,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CouponStatus::Issued => "ISSUED",
            CouponStatus::Locked => "LOCKED",
            CouponStatus::Used => "USED",
            CouponStatus::Returned => "RETURNED",
            CouponStatus::Expired => "EXPIRED",
            CouponStatus::Transferred => "TRANSFERRED",
        }
    }

    pub fn parse(s: &str) -> Option<CouponStatus> {
        CouponStatus::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The API's lower-camel name.
    pub fn api_name(self) -> &'static str {
        match self {
            CouponStatus::Issued => "issued",
            CouponStatus::Locked => "locked",
            CouponStatus::Used => "used",
            CouponStatus::Returned => "returned",
            CouponStatus::Expired => "expired",
            CouponStatus::Transferred => "transferred",
        }
    }

    /// Issued and Returned coupons may be locked by an order (if within their window).
    pub fn is_spendable(self) -> bool {
        matches!(self, CouponStatus::Issued | CouponStatus::Returned)
    }

    /// The moves the lifecycle allows; every stored move is a compare-and-set along one of
    /// these. Expired and Transferred are final; Used goes back only by a refund.
    pub fn can_move_to(self, to: CouponStatus) -> bool {
        use CouponStatus::*;
        matches!(
            (self, to),
            (Issued | Returned, Locked | Expired | Transferred)
                | (Locked, Used | Returned | Expired)
                | (Used, Returned | Expired)
        )
    }

    pub fn label(self, lang: Lang) -> &'static str {
        use CouponStatus::*;
        match (self, lang) {
            (Issued | Returned, Lang::Zh) => "可使用",
            (Issued | Returned, Lang::En) => "Available",
            (Locked, Lang::Zh) => "下单中",
            (Locked, Lang::En) => "In an order",
            (Used, Lang::Zh) => "已使用",
            (Used, Lang::En) => "Used",
            (Expired, Lang::Zh) => "已过期",
            (Expired, Lang::En) => "Expired",
            (Transferred, Lang::Zh) => "已转赠",
            (Transferred, Lang::En) => "Transferred",
        }
    }
}

/// One customer's coupon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Coupon {
    pub coupon_code: String,
    pub template_code: String,
    pub user_id: i64,
    pub status: CouponStatus,
    /// [valid_from, valid_to) in epoch ms.
    pub valid_from: i64,
    pub valid_to: i64,
    /// The order holding (LOCKED) or that used it.
    pub order_no: Option<String>,
    /// The coupon this one was transferred from.
    pub parent_code: Option<String>,
    pub issued_at: i64,
}

impl Coupon {
    /// Usable = Issued or Returned, and now within [valid_from, valid_to).
    pub fn usable_at(&self, now: i64) -> bool {
        self.status.is_spendable() && self.valid_from <= now && now < self.valid_to
    }

    pub fn expiring_soon(&self, now: i64) -> bool {
        now < self.valid_to && self.valid_to - now <= EXPIRING_SOON_MS
    }
}

/// What a cart looks like to a coupon. Built by the cart's pricing, once per cart.
pub struct CouponContext<'a> {
    pub now_ms: i64,
    /// The time, store, store group and order type (as promotions see them).
    pub rule: RuleContext<'a>,
    pub channel: u16,
    /// The cart's units (coupon items excluded), each priced at what promotions left of it.
    pub units: &'a [Unit],
    /// Whether a product may be sold here and now (product coupons).
    pub product_on_sale: &'a dyn Fn(&str) -> bool,
}

/// Why a coupon does not apply to this cart; each has a sentence a customer reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotApplicable {
    /// Not Issued/Returned (locked by another order, used, expired, transferred).
    NotUsable,
    NotStarted,
    Expired,
    /// Not this store or store group (`order_types` empty), or not this order type (the
    /// order types it is for).
    NotHere {
        order_types: Vec<u8>,
    },
    /// Right dates, wrong time of day or weekday.
    NotNow,
    NotThisChannel,
    /// No unit of the cart is in the coupon's scope.
    NoItems,
    /// The scoped units (after promotions) fall `gap` short of the threshold.
    BelowThreshold {
        gap: Fen,
    },
    /// The product it gives is not sold here now.
    ProductUnavailable,
}

impl NotApplicable {
    /// The reason code the cart's coupon list uses.
    pub fn code(&self) -> &'static str {
        match self {
            NotApplicable::NotUsable => "notUsable",
            NotApplicable::NotStarted => "notStarted",
            NotApplicable::Expired => "expired",
            NotApplicable::NotHere { .. } => "notHere",
            NotApplicable::NotNow => "notNow",
            NotApplicable::NotThisChannel => "notThisChannel",
            NotApplicable::NoItems => "noItems",
            NotApplicable::BelowThreshold { .. } => "belowThreshold",
            NotApplicable::ProductUnavailable => "productUnavailable",
        }
    }

    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let s = |z: &str, e: &str| if zh { z.to_string() } else { e.to_string() };
        match self {
            NotApplicable::NotUsable => s("优惠券不可用", "This coupon cannot be used"),
            NotApplicable::NotStarted => s("还未到使用时间", "Not valid yet"),
            NotApplicable::Expired => s("优惠券已过期", "This coupon has expired"),
            NotApplicable::NotHere { order_types } if !order_types.is_empty() => {
                order_types_text(order_types, lang)
            }
            NotApplicable::NotHere { .. } => s("本门店不可用", "Not valid at this store"),
            NotApplicable::NotNow => s("当前时段不可用", "Not valid at this time"),
            NotApplicable::NotThisChannel => s("当前渠道不可用", "Not available in this channel"),
            NotApplicable::NoItems => s("购物车中没有适用的商品", "No item in your cart qualifies"),
            NotApplicable::BelowThreshold { gap } => {
                if zh {
                    format!("再买¥{gap}可用")
                } else {
                    format!("Spend ¥{gap} more to use it")
                }
            }
            NotApplicable::ProductUnavailable => {
                s("兑换商品暂不可售", "Its product is not available now")
            }
        }
    }
}

/// Whether `coupon` of `template` applies to the cart in `ctx`. Checks run from the most
/// permanent reason to the most fixable, so the customer hears the one that matters: a coupon
/// that never works here says so before saying how much more to buy.
pub fn applicability(
    template: &CouponTemplate,
    coupon: &Coupon,
    ctx: &CouponContext,
) -> Result<(), NotApplicable> {
    if !coupon.status.is_spendable() {
        return Err(NotApplicable::NotUsable);
    }
    if ctx.now_ms >= coupon.valid_to {
        return Err(NotApplicable::Expired);
    }
    if ctx.channel == NO_COUPON_CHANNEL
        || !(template.channels.is_empty() || template.channels.contains(&ctx.channel))
    {
        return Err(NotApplicable::NotThisChannel);
    }
    let mut order_types = template
        .effective_rule
        .as_ref()
        .map(|r| r.order_types.clone())
        .unwrap_or_default();
    if matches!(template.kind, CouponKind::FreeDelivery { .. }) {
        // Waiving a fee only a delivery order has: other order types never qualify.
        order_types.retain(|t| *t == DELIVERY);
        if order_types.is_empty() {
            order_types.push(DELIVERY);
        }
    }
    if !order_types.is_empty() && !order_types.contains(&ctx.rule.order_type) {
        return Err(NotApplicable::NotHere { order_types });
    }
    match availability(template.effective_rule.as_ref(), &ctx.rule) {
        Availability::Available => {}
        Availability::NotHere => {
            return Err(NotApplicable::NotHere {
                order_types: vec![],
            })
        }
        Availability::Expired => return Err(NotApplicable::Expired),
        Availability::NotStarted => return Err(NotApplicable::NotStarted),
        Availability::OffTime => return Err(NotApplicable::NotNow),
    }
    if ctx.now_ms < coupon.valid_from {
        return Err(NotApplicable::NotStarted);
    }
    if let Some(code) = template.kind.product_code() {
        if !(ctx.product_on_sale)(code) {
            return Err(NotApplicable::ProductUnavailable);
        }
    }
    if matches!(template.kind, CouponKind::ExchangeProduct { .. }) {
        return Ok(());
    }
    let scoped: Vec<&Unit> = ctx
        .units
        .iter()
        .filter(|u| template.scope.matches(u))
        .collect();
    if scoped.is_empty() {
        return Err(NotApplicable::NoItems);
    }
    let amount: Fen = scoped.iter().map(|u| u.price).sum();
    let threshold = template.kind.threshold();
    if amount < threshold {
        return Err(NotApplicable::BelowThreshold {
            gap: threshold - amount,
        });
    }
    Ok(())
}

/// Whether two templates may be used on one order: never two of the same template, never two
/// of one stacking group, never when either excludes the other.
pub fn combinable(a: &CouponTemplate, b: &CouponTemplate) -> bool {
    if a.template_code == b.template_code {
        return false;
    }
    if a.stack_group.is_some() && a.stack_group == b.stack_group {
        return false;
    }
    !(a.excludes.contains(&b.template_code) || b.excludes.contains(&a.template_code))
}

/// Whether a coupon of `template` may stand beside promotion `rule_id` (the promotion side
/// has no exclusion list: the coupon names the promotions it refuses).
pub fn combinable_with_promotion(template: &CouponTemplate, rule_id: &str) -> bool {
    !template.excludes.iter().any(|r| r == rule_id)
}

#[cfg(test)]
#[path = "coupon_tests.rs"]
mod tests;
