//! A cart priced for its store, order type and time (spec §3 cart response, §4 cart, §5): which
//! items can be charged and which stay in the cart disabled with their reason, the promotions
//! that apply (the cheapest legal combination, `promotion_choice`) and why the others do not,
//! the delivery fee with its free threshold, what is to be paid, and the breakdown a person
//! can check. Pure: the caller passes the catalogue and the clock.

use crate::domain::cart::item::{component_codes, normalize, unit_price};
use crate::domain::cart::{Cart, CartLine};
use crate::domain::catalogue::effective::{availability, Availability, RuleContext};
use crate::domain::catalogue::{Bilingual, Category, Product, Store, DELIVERY, GIFT_CATEGORY_NAME};
use crate::domain::money::Fen;
use crate::domain::pricing::breakdown::{Breakdown, ListLine};
use crate::domain::pricing::cart_coupons::{
    outcomes as coupon_outcomes, prepare as prepare_coupons, CouponInput, CouponItemLine,
    CouponItemStatus, CouponOption,
};
use crate::domain::pricing::coupon_pricing::{coupon_entries, CouponEffect, CouponOffer};
use crate::domain::pricing::offer_choice::decide_offers;
use crate::domain::pricing::promotion::{split_proportionally, Promotion, Unit};
use crate::domain::pricing::promotion_choice::{order_key, LeftOut};
use crate::domain::stores::hours::china_time;
use std::collections::BTreeMap;

/// Why an item cannot be charged (spec: sold out, not on sale at this time, item has expired).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStatus {
    Valid,
    SoldOut,
    OffTime,
    Expired,
}

/// The catalogue side of pricing ('c): the cart priced against it may be shorter-lived.
pub struct PricingInput<'c> {
    pub store: &'c Store,
    pub order_type: u8,
    /// The order's time, epoch ms: time-limited products and rules follow it.
    pub at: i64,
    pub sold_out: &'c [String],
    pub product: &'c dyn Fn(&str) -> Option<&'c Product>,
    pub category: &'c dyn Fn(&str) -> Option<&'c Category>,
    pub promotions: &'c [Promotion],
    /// The customer's coupons; None for visitors and where coupons do not exist (channel 30).
    pub coupons: Option<&'c CouponInput<'c>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PricedLine<'a> {
    pub line: &'a CartLine,
    pub product: Option<&'a Product>,
    pub status: LineStatus,
    /// Unit price as configured (0 when the product is gone).
    pub unit: Fen,
    /// unit × quantity.
    pub count: Fen,
    /// This line's share of every promotion (kept for `countPriceAfterPE`; the breakdown shows
    /// discounts as their own entries instead).
    pub discount: Fen,
    pub rule_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RuleOption<'a> {
    pub rule: &'a Promotion,
    /// What the rule saves on this cart on its own.
    pub alone: Fen,
    /// Picked by the customer (chooseRule); see [`RuleOption::honoured`].
    pub chosen: bool,
    /// What it saved in the final pricing (0 when it lost its group or its units).
    pub saved: Fen,
    /// Why it saves nothing; `None` when it applies.
    pub left_out: Option<LeftOut>,
}

impl RuleOption<'_> {
    /// The customer's choice stands only while it saves something.
    pub fn honoured(&self) -> bool {
        self.chosen && self.saved > Fen::ZERO
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PricedCart<'a> {
    pub lines: Vec<PricedLine<'a>>,
    pub price_of_product: Fen,
    pub discount: Fen,
    pub price_after_promotions: Fen,
    pub delivery_fee: Fen,
    pub delivery_fee_after: Fen,
    /// Missing to the free-delivery threshold (0 when free or no threshold).
    pub difference_to_free_delivery: Fen,
    pub order_amount: Fen,
    /// Every promotion of the chain, by (sort, id): applied, or with why not.
    pub rules: Vec<RuleOption<'a>>,
    /// Groups of mutually exclusive candidate rules (two or more members).
    pub mutex_groups: Vec<Vec<String>>,
    pub breakdown: Breakdown,
    /// False when there were too many combinations and the greedy search chose.
    pub exhaustive: bool,
    /// Every coupon the customer holds, applied or with why not (empty for visitors).
    pub coupons: Vec<CouponOption<'a>>,
    /// The product coupons in the cart, with their states.
    pub coupon_items: Vec<CouponItemLine<'a>>,
    /// The coupon items charged, at their list prices (in the breakdown's products).
    pub coupon_items_list: Fen,
    /// Everything the coupons took off: units and coupon items (not the delivery fee).
    pub coupon_discount: Fen,
    /// The cash-off coupons' part of it.
    pub cash_coupon_amount: Fen,
    /// The delivery fee a free-delivery coupon waived.
    pub coupon_delivery_fee: Fen,
    /// The coupons applied, by code.
    pub applied_coupons: Vec<String>,
}

impl PricedCart<'_> {
    pub fn valid_lines(&self) -> impl Iterator<Item = &PricedLine<'_>> {
        self.lines.iter().filter(|l| l.status == LineStatus::Valid)
    }

    pub fn has_valid_items(&self) -> bool {
        self.valid_lines().next().is_some()
    }
}

fn line_status(
    line: &CartLine,
    input: &PricingInput,
    ctx: &RuleContext,
) -> (Option<Fen>, LineStatus) {
    let Some(product) = (input.product)(&line.product_code) else {
        return (None, LineStatus::Expired);
    };
    let gift =
        (input.category)(&product.category_code).is_none_or(|c| c.name.cn == GIFT_CATEGORY_NAME);
    let Ok(selection) = normalize(product, &line.selection) else {
        return (None, LineStatus::Expired);
    };
    let unit = unit_price(product, &selection);
    if !product.is_show || gift {
        return (Some(unit), LineStatus::Expired);
    }
    let status = match availability(product.effective_rule.as_ref(), ctx) {
        Availability::Expired | Availability::NotHere => LineStatus::Expired,
        _ if component_codes(product, &selection)
            .iter()
            .any(|c| input.sold_out.contains(c)) =>
        {
            LineStatus::SoldOut
        }
        Availability::OffTime | Availability::NotStarted => LineStatus::OffTime,
        Availability::Available => LineStatus::Valid,
    };
    (Some(unit), status)
}

pub fn price_cart<'a, 'c: 'a>(cart: &'a Cart, input: &PricingInput<'c>) -> PricedCart<'a> {
    let ctx = RuleContext {
        at: china_time(input.at),
        store_code: &input.store.store_code,
        store_group: &input.store.group_code,
        order_type: input.order_type,
    };
    let mut lines: Vec<PricedLine<'a>> = cart
        .lines
        .iter()
        .map(|line| {
            let (unit, status) = line_status(line, input, &ctx);
            let unit = unit.unwrap_or(Fen::ZERO);
            PricedLine {
                line,
                product: (input.product)(&line.product_code),
                status,
                unit,
                count: unit * i64::from(line.quantity),
                discount: Fen::ZERO,
                rule_ids: Vec::new(),
            }
        })
        .collect();

    let units: Vec<Unit> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.status == LineStatus::Valid)
        .flat_map(|(i, l)| {
            let p = l.product;
            (0..l.line.quantity).filter_map(move |_| {
                p.map(|p| Unit {
                    line: i,
                    product_code: p.product_code.clone(),
                    category_code: p.category_code.clone(),
                    size_code: l.line.selection.size_code.clone(),
                    product_type: p.product_type,
                    price: l.unit,
                })
            })
        })
        .collect();

    let mut rules: Vec<&Promotion> = input.promotions.iter().collect();
    rules.sort_by(|a, b| order_key(a).cmp(&order_key(b)));
    let here: Vec<Availability> = rules
        .iter()
        .map(|r| availability(r.effective_rule.as_ref(), &ctx))
        .collect();
    let in_effect: Vec<&Promotion> = rules
        .iter()
        .zip(&here)
        .filter(|(_, a)| **a == Availability::Available)
        .map(|(r, _)| *r)
        .collect();
    let payable_of = |after: Fen| after + delivery_fee(input.store, input.order_type, after).1;
    let no_coupons = CouponInput {
        held: &[],
        channel: 0,
        now: input.at,
    };
    let coupon_input = input.coupons.unwrap_or(&no_coupons);
    let mut prepared = prepare_coupons(
        cart,
        coupon_input,
        &ctx,
        &units,
        input.product,
        input.sold_out,
    );
    let owned_offers = std::mem::take(&mut prepared.offers);
    let offers: Vec<&CouponOffer> = owned_offers.iter().collect();
    let decision = decide_offers(
        &in_effect,
        &offers,
        &units,
        &cart.chosen_rules,
        cart.chosen_coupons.as_deref(),
        &payable_of,
    );
    let coupons = coupon_outcomes(coupon_input, cart, &mut prepared, &decision);
    let coupons_applied = decision.coupons_applied.clone();
    let payable = decision.payable;
    let cash_coupon_amount: Fen = decision
        .coupons
        .iter()
        .filter(|c| matches!(c.effect, CouponEffect::CashOff { .. }))
        .map(|c| coupons_applied.saved_by(&c.coupon_code))
        .sum();
    let applied = decision.applied;
    // `in_effect` keeps the order of `rules`, so outcomes come in step.
    let mut outcomes = decision.outcomes.into_iter();
    let rules: Vec<RuleOption<'a>> = rules
        .iter()
        .zip(&here)
        .map(|(rule, here)| match here {
            Availability::Available => {
                let o = outcomes.next().unwrap_or_default();
                RuleOption {
                    rule,
                    alone: o.alone,
                    chosen: o.requested,
                    saved: o.saved,
                    left_out: o.left_out,
                }
            }
            other => RuleOption {
                rule,
                alone: Fen::ZERO,
                chosen: cart.chosen_rules.contains(&rule.rule_id),
                saved: Fen::ZERO,
                left_out: Some(if *other == Availability::NotHere {
                    LeftOut::NotHere
                } else {
                    LeftOut::NotEffective
                }),
            },
        })
        .collect();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, o) in rules.iter().enumerate() {
        if let (Some(g), true) = (o.rule.mutex_group.as_deref(), o.alone > Fen::ZERO) {
            groups.entry(g).or_default().push(i);
        }
    }

    // Each line's share: its units' discounts, plus order-level discounts split by what is left.
    for (unit, discount) in units.iter().zip(&applied.unit_discounts) {
        if let Some((rule_id, d)) = discount {
            let line = &mut lines[unit.line];
            line.discount += *d;
            if *d > Fen::ZERO && !line.rule_ids.contains(rule_id) {
                line.rule_ids.push(rule_id.clone());
            }
        }
    }
    let valid: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].status == LineStatus::Valid)
        .collect();
    for (rule_id, off) in &applied.order_discounts {
        let weights: Vec<Fen> = valid
            .iter()
            .map(|&i| lines[i].count - lines[i].discount)
            .collect();
        for (&i, share) in valid.iter().zip(split_proportionally(*off, &weights)) {
            lines[i].discount += share;
            if share > Fen::ZERO && !lines[i].rule_ids.contains(rule_id) {
                lines[i].rule_ids.push(rule_id.clone());
            }
        }
    }

    let price_of_product: Fen = valid.iter().map(|&i| lines[i].count).sum();
    let discount = applied.total();
    let price_after_promotions = price_of_product - discount;
    let (delivery_fee, delivery_fee_after, difference) =
        delivery_fee(input.store, input.order_type, price_after_promotions);
    let unit_line_ids: Vec<String> = units
        .iter()
        .map(|u| lines[u.line].line.id.clone())
        .collect();
    let item_lines: Vec<ListLine> = prepared
        .items
        .iter()
        .filter(|i| i.status == CouponItemStatus::Valid)
        .map(CouponItemLine::list_line)
        .collect();
    let coupon_items_list: Fen = item_lines.iter().map(|l| l.amount).sum();
    // The coupons' entries name the lines their units belong to.
    let entries = coupon_entries(&coupons_applied, &decision.coupons, &unit_line_ids);
    let breakdown = Breakdown::build(
        valid.iter().map(|&i| list_line(&lines[i])).collect(),
        &unit_line_ids,
        &applied,
        &|id| input.promotions.iter().find(|p| p.rule_id == id),
        delivery_fee,
        delivery_fee_after,
        price_after_promotions + delivery_fee_after,
    )
    .with_coupons(
        item_lines,
        entries,
        coupons_applied.delivery_waived,
        payable,
    );
    let mutex_groups = groups
        .values()
        .filter(|m| m.len() > 1)
        .map(|m| m.iter().map(|&i| rules[i].rule.rule_id.clone()).collect())
        .collect();
    PricedCart {
        lines,
        price_of_product,
        discount,
        price_after_promotions,
        delivery_fee,
        delivery_fee_after,
        difference_to_free_delivery: difference,
        order_amount: payable,
        rules,
        mutex_groups,
        breakdown,
        exhaustive: decision.exhaustive,
        coupon_items_list,
        coupon_discount: coupons_applied.units_off() + coupons_applied.items_off(),
        cash_coupon_amount,
        coupon_delivery_fee: coupons_applied.delivery_waived,
        applied_coupons: decision
            .coupons
            .iter()
            .filter(|c| coupons_applied.applied(&c.coupon_code))
            .map(|c| c.coupon_code.clone())
            .collect(),
        coupons,
        coupon_items: prepared.items,
    }
}

/// A charged line at its list price, named as the menu names it.
fn list_line(l: &PricedLine) -> ListLine {
    let p = l.product;
    let sel = &l.line.selection;
    let size = p.and_then(|p| {
        sel.size_code
            .as_ref()
            .and_then(|c| p.sizes.iter().find(|s| &s.size_code == c))
    });
    let pastry = p.and_then(|p| {
        sel.pastry_code
            .as_ref()
            .and_then(|c| p.pastries.iter().find(|s| &s.pastry_code == c))
    });
    let names: Vec<&Bilingual> = size
        .map(|s| &s.name)
        .into_iter()
        .chain(pastry.map(|c| &c.name))
        .collect();
    let join = |f: fn(&Bilingual) -> &str| names.iter().map(|n| f(n)).collect::<Vec<_>>().join(" ");
    ListLine {
        line_id: l.line.id.clone(),
        product_code: l.line.product_code.clone(),
        name: p.map(|p| p.name.clone()).unwrap_or_default(),
        spec: Bilingual {
            cn: join(|b| &b.cn),
            en: join(|b| &b.en),
        },
        unit_price: l.unit,
        quantity: l.line.quantity,
        amount: l.count,
    }
}

/// (fee, fee after the free threshold, what is missing to the threshold). Only delivery pays a
/// fee; a threshold of 0 means delivery is never free; an empty cart pays nothing.
pub fn delivery_fee(store: &Store, order_type: u8, products: Fen) -> (Fen, Fen, Fen) {
    if order_type != DELIVERY || store.delivery_fee <= Fen::ZERO {
        return (Fen::ZERO, Fen::ZERO, Fen::ZERO);
    }
    let fee = store.delivery_fee;
    if products <= Fen::ZERO {
        return (fee, Fen::ZERO, Fen::ZERO);
    }
    let threshold = store.free_delivery_threshold;
    if threshold > Fen::ZERO && products >= threshold {
        (fee, Fen::ZERO, Fen::ZERO)
    } else if threshold > Fen::ZERO {
        (fee, fee, threshold - products)
    } else {
        (fee, fee, Fen::ZERO)
    }
}

#[cfg(test)]
#[path = "cart_pricing_tests.rs"]
mod tests;
