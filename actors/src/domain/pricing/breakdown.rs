//! The amounts a person can check (issue 20, point 8): each line at its list price and
//! quantity, each discount as its own entry (which rule, how much, on which lines), the
//! delivery fee and its waiver, and the payable. No unit price is ever the result of spreading
//! a discount, and everything adds up to the fen:
//!
//! Σ line amounts − Σ discounts + delivery fee − fee waived = payable.
//!
//! The order keeps this at submit (its `doc.breakdown`), so the order page and the store's
//! tablet show the very lines the customer agreed to.

use crate::domain::catalogue::Bilingual;
use crate::domain::money::{yuan, Fen};
use crate::domain::pricing::promotion::{Applied, Promotion};
use serde::{Deserialize, Serialize};

/// A line at its list price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListLine {
    pub line_id: String,
    pub product_code: String,
    pub name: Bilingual,
    /// Size and crust, when the product has them ("12寸 薄脆").
    #[serde(default)]
    pub spec: Bilingual,
    pub unit_price: Fen,
    pub quantity: u32,
    /// unit price × quantity.
    pub amount: Fen,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DiscountLevel {
    /// Discounts units of the lines listed.
    Line,
    /// Taken off the order's products as a whole (full reductions).
    Order,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscountEntry {
    pub rule_id: String,
    pub name: Bilingual,
    pub rule_type: String,
    pub level: DiscountLevel,
    /// Positive: what the rule takes off.
    pub amount: Fen,
    /// The lines it discounts (line level); empty for the order level.
    pub line_ids: Vec<String>,
    /// A coupon's entry: the coupon used (`rule_id` is then its template code and
    /// `rule_type` its kind). None for a promotion.
    #[serde(default)]
    pub coupon_code: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Breakdown {
    pub lines: Vec<ListLine>,
    pub discounts: Vec<DiscountEntry>,
    pub product_amount: Fen,
    pub discount_amount: Fen,
    pub delivery_fee: Fen,
    /// The part of the fee not charged (the free-delivery threshold was reached).
    pub delivery_fee_waived: Fen,
    /// Points spent on the order (积分抵扣), and what they paid.
    #[serde(default)]
    pub points_used: i64,
    #[serde(default)]
    pub points_deduction: Fen,
    /// The coupons' part of `discount_amount` (their entries carry a coupon code).
    #[serde(default)]
    pub coupon_amount: Fen,
    /// The delivery fee a free-delivery coupon waived (couponDeliveryFee).
    #[serde(default)]
    pub coupon_delivery_waived: Fen,
    pub payable: Fen,
}

impl Breakdown {
    /// The same with the coupons: their coupon items as lines at list price, their discounts
    /// as entries, the fee they waived, and the payable after them (the pricing's figure).
    pub fn with_coupons(
        mut self,
        item_lines: Vec<ListLine>,
        entries: Vec<DiscountEntry>,
        delivery_waived: Fen,
        payable: Fen,
    ) -> Breakdown {
        self.product_amount += item_lines.iter().map(|l| l.amount).sum();
        self.lines.extend(item_lines);
        self.coupon_amount = entries.iter().map(|e| e.amount).sum();
        self.discount_amount += self.coupon_amount;
        self.discounts.extend(entries);
        self.coupon_delivery_waived = delivery_waived;
        self.payable = payable;
        self
    }

    /// The same, with `points` worth `amount` taken off the payable (submit).
    pub fn with_points(mut self, points: i64, amount: Fen) -> Breakdown {
        self.points_used = points;
        self.points_deduction = amount;
        self.payable = self.payable - amount;
        self
    }

    /// `lines`: the charged lines. `unit_line_ids[u]` names the line of each unit the rules
    /// saw; `rule` finds a rule by id. `payable` is the pricing's own figure, so
    /// [`Breakdown::inconsistency`] checks the pricing rather than restating it.
    pub fn build<'r>(
        lines: Vec<ListLine>,
        unit_line_ids: &[String],
        applied: &Applied,
        rule: &dyn Fn(&str) -> Option<&'r Promotion>,
        delivery_fee: Fen,
        delivery_fee_charged: Fen,
        payable: Fen,
    ) -> Breakdown {
        let discounts: Vec<DiscountEntry> = applied
            .rules
            .iter()
            .map(|(rule_id, amount)| {
                let order_level = applied.order_discounts.iter().any(|(id, _)| id == rule_id);
                let mut ids: Vec<String> = Vec::new();
                if !order_level {
                    for (line_id, d) in unit_line_ids.iter().zip(&applied.unit_discounts) {
                        let Some((id, d)) = d else { continue };
                        if id == rule_id && *d > Fen::ZERO && !ids.contains(line_id) {
                            ids.push(line_id.clone());
                        }
                    }
                }
                let promotion = rule(rule_id);
                DiscountEntry {
                    rule_id: rule_id.clone(),
                    name: promotion.map(|p| p.name.clone()).unwrap_or_default(),
                    rule_type: promotion
                        .map(|p| p.kind.type_name().to_string())
                        .unwrap_or_default(),
                    level: if order_level {
                        DiscountLevel::Order
                    } else {
                        DiscountLevel::Line
                    },
                    amount: *amount,
                    line_ids: ids,
                    coupon_code: None,
                }
            })
            .collect();
        let product_amount: Fen = lines.iter().map(|l| l.amount).sum();
        let discount_amount: Fen = discounts.iter().map(|d| d.amount).sum();
        let waived = delivery_fee - delivery_fee_charged;
        Breakdown {
            lines,
            discounts,
            product_amount,
            discount_amount,
            delivery_fee,
            delivery_fee_waived: waived,
            points_used: 0,
            points_deduction: Fen::ZERO,
            coupon_amount: Fen::ZERO,
            coupon_delivery_waived: Fen::ZERO,
            payable,
        }
    }

    /// Every figure agrees with every other, to the fen; `None` when they do, else what is off.
    pub fn inconsistency(&self) -> Option<String> {
        let lines: Fen = self.lines.iter().map(|l| l.amount).sum();
        let discounts: Fen = self.discounts.iter().map(|d| d.amount).sum();
        if let Some(l) = self
            .lines
            .iter()
            .find(|l| l.unit_price * i64::from(l.quantity) != l.amount)
        {
            return Some(format!("line {} is not unit × quantity", l.line_id));
        }
        if lines != self.product_amount || discounts != self.discount_amount {
            return Some("totals differ from their entries".into());
        }
        if let Some(d) = self.discounts.iter().find(|d| {
            let on: Fen = self
                .lines
                .iter()
                .filter(|l| d.line_ids.contains(&l.line_id))
                .map(|l| l.amount)
                .sum();
            d.amount <= Fen::ZERO || (d.level == DiscountLevel::Line && d.amount > on)
        }) {
            return Some(format!("discount {} exceeds its lines", d.rule_id));
        }
        if self.discount_amount > self.product_amount {
            return Some("discounts exceed the products".into());
        }
        let coupons: Fen = self
            .discounts
            .iter()
            .filter(|d| d.coupon_code.is_some())
            .map(|d| d.amount)
            .sum();
        if coupons != self.coupon_amount {
            return Some("the coupon total differs from its entries".into());
        }
        if self.delivery_fee_waived < Fen::ZERO
            || self.coupon_delivery_waived < Fen::ZERO
            || self.delivery_fee_waived + self.coupon_delivery_waived > self.delivery_fee
        {
            return Some("waived more than the fee".into());
        }
        if self.points_deduction < Fen::ZERO
            || (self.points_used == 0) != (self.points_deduction == Fen::ZERO)
        {
            return Some("points deduction without points (or the reverse)".into());
        }
        let sum = self.product_amount - self.discount_amount + self.delivery_fee
            - self.delivery_fee_waived
            - self.coupon_delivery_waived
            - self.points_deduction;
        if sum != self.payable || self.payable < Fen::ZERO {
            return Some(format!(
                "the lines make {sum}, the payable is {}",
                self.payable
            ));
        }
        None
    }
}

/// The breakdown as the API shows it (cart, order detail, tablet): yuan, and every name in
/// both languages, so a socket payload with no request language reads the same.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakdownView {
    pub lines: Vec<ListLineView>,
    pub discounts: Vec<DiscountView>,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub product_amount: Fen,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub discount_amount: Fen,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub delivery_fee: Fen,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub delivery_fee_waived: Fen,
    /// Points spent (积分抵扣 / Points), 0 when none.
    pub points_used: i64,
    /// What those points paid (yuan).
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub points_deduction: Fen,
    /// The coupons' part of `discountAmount` (yuan).
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub coupon_amount: Fen,
    /// The delivery fee a free-delivery coupon waived (yuan).
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub coupon_delivery_waived: Fen,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub payable: Fen,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListLineView {
    pub line_id: String,
    pub product_code: String,
    pub name_cn: String,
    pub name_en: String,
    pub spec_cn: String,
    pub spec_en: String,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub unit_price: Fen,
    pub quantity: u32,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub amount: Fen,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscountView {
    pub rule_id: String,
    pub name_cn: String,
    pub name_en: String,
    pub rule_type: String,
    pub level: DiscountLevel,
    #[serde(with = "yuan")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub amount: Fen,
    pub line_ids: Vec<String>,
    /// Set on a coupon's entry: the coupon used (`ruleId` is its template code).
    pub coupon_code: Option<String>,
}

impl From<&Breakdown> for BreakdownView {
    fn from(b: &Breakdown) -> BreakdownView {
        BreakdownView {
            lines: b
                .lines
                .iter()
                .map(|l| ListLineView {
                    line_id: l.line_id.clone(),
                    product_code: l.product_code.clone(),
                    name_cn: l.name.cn.clone(),
                    name_en: l.name.en.clone(),
                    spec_cn: l.spec.cn.clone(),
                    spec_en: l.spec.en.clone(),
                    unit_price: l.unit_price,
                    quantity: l.quantity,
                    amount: l.amount,
                })
                .collect(),
            discounts: b
                .discounts
                .iter()
                .map(|d| DiscountView {
                    rule_id: d.rule_id.clone(),
                    name_cn: d.name.cn.clone(),
                    name_en: d.name.en.clone(),
                    rule_type: d.rule_type.clone(),
                    level: d.level,
                    amount: d.amount,
                    line_ids: d.line_ids.clone(),
                    coupon_code: d.coupon_code.clone(),
                })
                .collect(),
            product_amount: b.product_amount,
            discount_amount: b.discount_amount,
            delivery_fee: b.delivery_fee,
            delivery_fee_waived: b.delivery_fee_waived,
            points_used: b.points_used,
            points_deduction: b.points_deduction,
            coupon_amount: b.coupon_amount,
            coupon_delivery_waived: b.coupon_delivery_waived,
            payable: b.payable,
        }
    }
}
