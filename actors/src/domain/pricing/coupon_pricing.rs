//! Coupons on a cart (issue 24): what a set of coupons takes off once the promotions have
//! applied. Pure; `offer_choice` searches which set (with which promotions) is cheapest.
//!
//! The rules, as docs/coupons.md "At checkout" states them:
//! - Coupons apply after promotions. Each cart unit carries what is left of it after its item
//!   promotion and its share of the full reductions (split in proportion, whole fen).
//! - A coupon's threshold is measured on its scoped units after promotions (not after other
//!   coupons): 满100减20 means the items it covers come to ¥100 once the promotions are off.
//! - Cash off takes `off`, percent off `percent` % of that base (at most `cap`; a cap of 0
//!   means none); neither takes more than what is left of its units after earlier coupons, so
//!   nothing is ever negative. Coupons apply in (sort, template code) order.
//! - Free delivery waives the delivery fee the order pays after promotions.
//! - A coupon item (product at a price, exchange for a product) is its own line: listed at the
//!   product's list price, charged at the coupon's price, the difference a coupon discount.
//! - A coupon with a scope needs at least one unit of it in the cart (`NoItems` otherwise);
//!   only a coupon item with no threshold stands on its own.

use crate::domain::catalogue::Bilingual;
use crate::domain::money::Fen;
use crate::domain::pricing::breakdown::{DiscountEntry, DiscountLevel};
use crate::domain::pricing::promotion::{percent_of, split_proportionally, Applied, Scope, Unit};

/// What a coupon does, in pricing terms (from the template's kind; `Item` carries the list
/// price the caller looked up).
#[derive(Debug, Clone, PartialEq)]
pub enum CouponEffect {
    CashOff {
        threshold: Fen,
        off: Fen,
    },
    PercentOff {
        percent_off: u32,
        cap: Fen,
        threshold: Fen,
    },
    FreeDelivery {
        threshold: Fen,
    },
    /// A coupon item: the product at `price` (0: free) once the scoped units reach
    /// `threshold`; `list` is its menu price.
    Item {
        threshold: Fen,
        list: Fen,
        price: Fen,
    },
}

impl CouponEffect {
    pub fn threshold(&self) -> Fen {
        match self {
            CouponEffect::CashOff { threshold, .. }
            | CouponEffect::PercentOff { threshold, .. }
            | CouponEffect::FreeDelivery { threshold }
            | CouponEffect::Item { threshold, .. } => *threshold,
        }
    }

    pub fn is_item(&self) -> bool {
        matches!(self, CouponEffect::Item { .. })
    }
}

/// One of the customer's coupons, ready to price.
#[derive(Debug, Clone, PartialEq)]
pub struct CouponOffer {
    pub coupon_code: String,
    pub template_code: String,
    pub name: Bilingual,
    /// "cashOff", "percentOff", "freeDelivery", "productAtPrice", "exchangeProduct".
    pub kind: &'static str,
    pub effect: CouponEffect,
    pub scope: Scope,
    pub stack_group: Option<String>,
    /// Template codes and promotion rule ids it never combines with (either side may list).
    pub excludes: Vec<String>,
    pub sort: i32,
    pub valid_to: i64,
}

impl CouponOffer {
    /// The order coupons apply and compare in.
    pub fn key(&self) -> (i32, &str, &str) {
        (self.sort, &self.template_code, &self.coupon_code)
    }

    /// Whether the two never go on one order: the same template, the same stacking group,
    /// or either excludes the other.
    pub fn conflicts_with(&self, other: &CouponOffer) -> bool {
        self.template_code == other.template_code
            || (self.stack_group.is_some() && self.stack_group == other.stack_group)
            || self.excludes.contains(&other.template_code)
            || other.excludes.contains(&self.template_code)
    }

    /// Whether it never goes with this promotion.
    pub fn excludes_rule(&self, rule_id: &str) -> bool {
        self.excludes.iter().any(|e| e == rule_id)
    }

    /// Whether it needs units of its scope in the cart (all but a coupon item with no threshold).
    pub fn needs_units(&self) -> bool {
        !matches!(self.effect, CouponEffect::Item { threshold, .. } if threshold <= Fen::ZERO)
    }
}

/// What a set of coupons did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CouponsApplied {
    /// (coupon code, amount) of every coupon that applied, in application order: the units'
    /// discount, the fee waived, or a coupon item's list price minus its price.
    pub coupons: Vec<(String, Fen)>,
    /// Per unit (same order as the units): (coupon code, discount).
    pub unit_discounts: Vec<Vec<(String, Fen)>>,
    /// The delivery fee waived by a free-delivery coupon.
    pub delivery_waived: Fen,
    /// Coupon items applied: (coupon code, list price, price charged).
    pub items: Vec<(String, Fen, Fen)>,
    /// Every coupon's base (its scoped units after promotions), applied or not: gaps come
    /// from here.
    pub seen: Vec<(String, Fen)>,
}

impl CouponsApplied {
    /// Taken off the units (cash off, percent off).
    pub fn units_off(&self) -> Fen {
        self.unit_discounts.iter().flatten().map(|(_, d)| *d).sum()
    }

    /// Off the coupon items' list prices.
    pub fn items_off(&self) -> Fen {
        self.items
            .iter()
            .map(|(_, list, price)| *list - *price)
            .sum()
    }

    /// The coupon items at list price.
    pub fn items_list(&self) -> Fen {
        self.items.iter().map(|(_, list, _)| *list).sum()
    }

    /// The coupon items at their coupon price (what they add to the payable).
    pub fn items_charged(&self) -> Fen {
        self.items.iter().map(|(_, _, price)| *price).sum()
    }

    pub fn saved_by(&self, code: &str) -> Fen {
        self.coupons
            .iter()
            .find(|(c, _)| c == code)
            .map_or(Fen::ZERO, |(_, d)| *d)
    }

    pub fn applied(&self, code: &str) -> bool {
        self.coupons.iter().any(|(c, _)| c == code)
    }

    pub fn seen_by(&self, code: &str) -> Fen {
        self.seen
            .iter()
            .find(|(c, _)| c == code)
            .map_or(Fen::ZERO, |(_, s)| *s)
    }
}

/// What is left of each unit after the promotions: its item discount off, then each full
/// reduction split over the units in proportion to what is left of them. Adds up to the
/// products minus every promotion, to the fen.
pub fn after_promotions(units: &[Unit], promotions: &Applied) -> Vec<Fen> {
    let mut left: Vec<Fen> = units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let item = promotions
                .unit_discounts
                .get(i)
                .and_then(|d| d.as_ref())
                .map_or(Fen::ZERO, |(_, d)| *d);
            u.price - item
        })
        .collect();
    for (_, off) in &promotions.order_discounts {
        let shares = split_proportionally(*off, &left);
        for (l, s) in left.iter_mut().zip(shares) {
            *l = *l - s;
        }
    }
    left
}

/// Applies `coupons` (a legal set: the caller checked groups and exclusions) to the units
/// after `promotions`. `fee` is the delivery fee the order pays after promotions.
pub fn apply_coupons(
    coupons: &[&CouponOffer],
    units: &[Unit],
    promotions: &Applied,
    fee: Fen,
) -> CouponsApplied {
    let mut ordered: Vec<&CouponOffer> = coupons.to_vec();
    ordered.sort_by(|a, b| a.key().cmp(&b.key()));
    let base_left = after_promotions(units, promotions);
    let mut left = base_left.clone();
    let mut out = CouponsApplied {
        unit_discounts: vec![Vec::new(); units.len()],
        ..CouponsApplied::default()
    };
    for coupon in ordered {
        let scoped: Vec<usize> = (0..units.len())
            .filter(|&i| coupon.scope.matches(&units[i]))
            .collect();
        let base: Fen = scoped.iter().map(|&i| base_left[i]).sum();
        out.seen.push((coupon.coupon_code.clone(), base));
        if (scoped.is_empty() && coupon.needs_units()) || base < coupon.effect.threshold() {
            continue;
        }
        let remaining: Fen = scoped.iter().map(|&i| left[i]).sum();
        let off = match &coupon.effect {
            CouponEffect::CashOff { off, .. } => (*off).min(remaining),
            CouponEffect::PercentOff {
                percent_off, cap, ..
            } => {
                let off = percent_of(base, *percent_off);
                let off = if *cap > Fen::ZERO { off.min(*cap) } else { off };
                off.min(remaining)
            }
            CouponEffect::FreeDelivery { .. } => {
                let waive = fee - out.delivery_waived;
                if waive > Fen::ZERO {
                    out.delivery_waived += waive;
                    out.coupons.push((coupon.coupon_code.clone(), waive));
                }
                continue;
            }
            CouponEffect::Item { list, price, .. } => {
                out.items.push((coupon.coupon_code.clone(), *list, *price));
                out.coupons
                    .push((coupon.coupon_code.clone(), *list - *price));
                continue;
            }
        };
        if off <= Fen::ZERO {
            continue;
        }
        let weights: Vec<Fen> = scoped.iter().map(|&i| left[i]).collect();
        for (&i, share) in scoped.iter().zip(split_proportionally(off, &weights)) {
            if share > Fen::ZERO {
                left[i] = left[i] - share;
                out.unit_discounts[i].push((coupon.coupon_code.clone(), share));
            }
        }
        out.coupons.push((coupon.coupon_code.clone(), off));
    }
    out
}

/// Whether a coupon could save anything on these units with no promotion and no other coupon.
/// Promotions only lower a coupon's base and other coupons only what is left, so a coupon
/// that fails here fails beside anything: the search leaves it out.
pub fn could_apply(coupon: &CouponOffer, units: &[Unit], any_fee: bool) -> bool {
    let scoped: Vec<&Unit> = units.iter().filter(|u| coupon.scope.matches(u)).collect();
    let base: Fen = scoped.iter().map(|u| u.price).sum();
    if (scoped.is_empty() && coupon.needs_units()) || base < coupon.effect.threshold() {
        return false;
    }
    match &coupon.effect {
        CouponEffect::CashOff { off, .. } => *off > Fen::ZERO && base > Fen::ZERO,
        CouponEffect::PercentOff { percent_off, .. } => *percent_off > 0 && base > Fen::ZERO,
        CouponEffect::FreeDelivery { .. } => any_fee,
        CouponEffect::Item { .. } => true,
    }
}

/// The breakdown's id of a coupon item's line.
pub fn item_line_id(coupon_code: &str) -> String {
    format!("coupon-{coupon_code}")
}

/// The coupons' entries for the breakdown: each coupon that took something off, on the lines
/// it took it from (`unit_line_ids[u]` names each unit's line; a coupon item's own line).
/// Free delivery is no entry: it is the breakdown's `coupon_delivery_waived`.
pub fn coupon_entries(
    applied: &CouponsApplied,
    offers: &[&CouponOffer],
    unit_line_ids: &[String],
) -> Vec<DiscountEntry> {
    applied
        .coupons
        .iter()
        .filter(|(_, amount)| *amount > Fen::ZERO)
        .filter_map(|(code, amount)| {
            let offer = offers.iter().find(|o| &o.coupon_code == code)?;
            let line_ids = match offer.effect {
                CouponEffect::FreeDelivery { .. } => return None,
                CouponEffect::Item { .. } => vec![item_line_id(code)],
                _ => {
                    let mut ids: Vec<String> = Vec::new();
                    for (line_id, d) in unit_line_ids.iter().zip(&applied.unit_discounts) {
                        if d.iter().any(|(c, d)| c == code && *d > Fen::ZERO)
                            && !ids.contains(line_id)
                        {
                            ids.push(line_id.clone());
                        }
                    }
                    ids
                }
            };
            Some(DiscountEntry {
                rule_id: offer.template_code.clone(),
                name: offer.name.clone(),
                rule_type: offer.kind.to_string(),
                level: DiscountLevel::Line,
                amount: *amount,
                line_ids,
                coupon_code: Some(code.clone()),
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "coupon_pricing_tests.rs"]
pub(crate) mod tests;
