//! The customer's coupons on a cart (issue 24, spec ordering §3): which can be priced here and
//! now (the template's own terms: dates, store, order type, time, channel, its product on
//! sale), as offers for the joint search of `offer_choice`; the coupon items with their
//! disabled states; and each coupon's outcome after the search. Pure; `cart_pricing` calls it.

use crate::domain::cart::item::{normalize, unit_price, Selection};
use crate::domain::cart::Cart;
use crate::domain::catalogue::effective::{availability, Availability, RuleContext};
use crate::domain::catalogue::{Bilingual, Product};
use crate::domain::loyalty::coupon::{
    applicability, Coupon, CouponContext, CouponKind, CouponTemplate, NotApplicable,
};
use crate::domain::money::Fen;
use crate::domain::pricing::breakdown::ListLine;
use crate::domain::pricing::coupon_pricing::{item_line_id, CouponEffect, CouponOffer};
use crate::domain::pricing::offer_choice::{CouponLeftOut, OfferDecision};
use crate::domain::pricing::promotion::Unit;

/// The coupons side of the pricing input: the customer's usable coupons with their templates
/// (`CouponRepo::usable`), the request's channel and the time now (validity is now, not the
/// order's booked time: a coupon is locked at submit).
pub struct CouponInput<'c> {
    pub held: &'c [(Coupon, CouponTemplate)],
    pub channel: u16,
    pub now: i64,
}

/// Why a coupon takes nothing off: its own terms, or the search's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum CouponReason {
    NotApplicable(NotApplicable),
    LeftOut(CouponLeftOut),
}

impl CouponReason {
    /// The reason code the cart's coupon list sends (docs/coupons.md "At checkout").
    pub fn code(&self) -> &'static str {
        match self {
            CouponReason::NotApplicable(n) => n.code(),
            CouponReason::LeftOut(CouponLeftOut::NoItems) => "noItems",
            CouponReason::LeftOut(CouponLeftOut::BelowThreshold { .. }) => "belowThreshold",
            CouponReason::LeftOut(CouponLeftOut::Mutex { .. }) => "mutex",
            CouponReason::LeftOut(CouponLeftOut::NotChosen) => "notChosen",
            CouponReason::LeftOut(CouponLeftOut::NotBetter) => "notBetter",
        }
    }

    /// Whether the coupon could be used on this cart as it is (only another choice stands in
    /// its way): the "usable" list rather than the "unusable" one.
    pub fn usable(&self) -> bool {
        matches!(
            self,
            CouponReason::LeftOut(
                CouponLeftOut::Mutex { .. } | CouponLeftOut::NotChosen | CouponLeftOut::NotBetter
            )
        )
    }
}

/// One of the customer's coupons on this cart.
#[derive(Debug, Clone, PartialEq)]
pub struct CouponOption<'c> {
    pub coupon: &'c Coupon,
    pub template: &'c CouponTemplate,
    /// What it takes off beside the promotions applied and no other coupon.
    pub alone: Fen,
    /// What it takes off in the combination applied.
    pub saved: Fen,
    pub applied: bool,
    pub requested: bool,
    /// A product coupon that is in the cart as a coupon item.
    pub in_cart: bool,
    /// None when applied, or a product coupon not (yet) in the cart.
    pub reason: Option<CouponReason>,
}

/// Why a coupon item is not charged (spec: saleOutCouponItems, timeOutCouponItems,
/// effectOutCouponItems).
#[derive(Debug, Clone, PartialEq)]
pub enum CouponItemStatus {
    Valid,
    SoldOut,
    OffTime,
    /// The product is gone, or the coupon can no longer be used (used elsewhere, expired).
    Expired,
    /// Its coupon does not apply to this cart (below its threshold, excluded …).
    NotApplied(CouponReason),
}

#[derive(Debug, Clone, PartialEq)]
pub struct CouponItemLine<'c> {
    pub coupon_code: String,
    pub template_code: String,
    pub sort: i32,
    pub product_code: String,
    pub product: Option<&'c Product>,
    /// The product's menu price.
    pub list: Fen,
    /// What the coupon charges for it.
    pub price: Fen,
    pub status: CouponItemStatus,
}

impl CouponItemLine<'_> {
    /// The breakdown's line: at list price, the coupon's entry takes the difference off.
    pub fn list_line(&self) -> ListLine {
        ListLine {
            line_id: item_line_id(&self.coupon_code),
            product_code: self.product_code.clone(),
            name: self.product.map(|p| p.name.clone()).unwrap_or_default(),
            spec: Bilingual::default(),
            unit_price: self.list,
            quantity: 1,
            amount: self.list,
        }
    }
}

/// What the search needs and what the outcome is built from.
pub struct Prepared<'c> {
    pub offers: Vec<CouponOffer>,
    /// Per held coupon: its offer index, or why it cannot be priced here.
    pub slots: Vec<Result<Option<usize>, NotApplicable>>,
    pub items: Vec<CouponItemLine<'c>>,
}

/// The product coupons' product as the cart would sell it: its default choices' price, and
/// whether it is on sale here and now.
fn item_product<'c>(
    code: &str,
    product: &dyn Fn(&str) -> Option<&'c Product>,
    sold_out: &[String],
    rule: &RuleContext,
) -> (Option<&'c Product>, Fen, CouponItemStatus) {
    let Some(p) = product(code) else {
        return (None, Fen::ZERO, CouponItemStatus::Expired);
    };
    let list = normalize(p, &Selection::default())
        .map(|s| unit_price(p, &s))
        .unwrap_or(p.selling_price);
    let status = match availability(p.effective_rule.as_ref(), rule) {
        _ if !p.is_show => CouponItemStatus::Expired,
        Availability::Expired | Availability::NotHere => CouponItemStatus::Expired,
        _ if sold_out.iter().any(|s| s == code) => CouponItemStatus::SoldOut,
        Availability::OffTime | Availability::NotStarted => CouponItemStatus::OffTime,
        Availability::Available => CouponItemStatus::Valid,
    };
    (Some(p), list, status)
}

/// Checks each held coupon's own terms and builds the offers. `units` are the cart's charged
/// units at list price: a threshold missed there is missed after promotions too, but the
/// search says so with the gap after promotions, so amount reasons are left to it.
pub fn prepare<'c>(
    cart: &Cart,
    input: &CouponInput<'c>,
    rule: &RuleContext,
    units: &[Unit],
    product: &dyn Fn(&str) -> Option<&'c Product>,
    sold_out: &[String],
) -> Prepared<'c> {
    let mut prepared = Prepared {
        offers: Vec::new(),
        slots: Vec::new(),
        items: Vec::new(),
    };
    let on_sale = |code: &str| {
        matches!(
            item_product(code, product, sold_out, rule).2,
            CouponItemStatus::Valid
        )
    };
    for (coupon, template) in input.held {
        let ctx = CouponContext {
            now_ms: input.now,
            rule: *rule,
            channel: input.channel,
            units,
            product_on_sale: &on_sale,
        };
        let in_cart = cart.coupon_items.contains(&coupon.coupon_code);
        let verdict = match applicability(template, coupon, &ctx) {
            Err(NotApplicable::NoItems | NotApplicable::BelowThreshold { .. }) | Ok(()) => Ok(()),
            Err(other) => Err(other),
        };
        let item = template.kind.product_code().map(|code| {
            let (p, list, status) = item_product(code, product, sold_out, rule);
            (code.to_string(), p, list, status)
        });
        let slot = match (verdict, &item) {
            (Err(why), Some((code, p, list, status))) if in_cart => {
                // A coupon item whose product is off sale shows as such; any other reason
                // (the coupon no longer applies here) shows it expired.
                let status = match (&why, status) {
                    (NotApplicable::ProductUnavailable, s) => s.clone(),
                    _ => CouponItemStatus::Expired,
                };
                prepared.items.push(CouponItemLine {
                    coupon_code: coupon.coupon_code.clone(),
                    template_code: template.template_code.clone(),
                    sort: template.sort,
                    product_code: code.clone(),
                    product: *p,
                    list: *list,
                    price: item_price(&template.kind),
                    status,
                });
                Err(why)
            }
            (Err(why), _) => Err(why),
            // A product coupon is priced only once the customer put it in the cart.
            (Ok(()), Some(_)) if !in_cart => Ok(None),
            (Ok(()), item) => {
                let effect = match (&template.kind, item) {
                    (CouponKind::CashOff { threshold, off }, _) => CouponEffect::CashOff {
                        threshold: *threshold,
                        off: *off,
                    },
                    (
                        CouponKind::PercentOff {
                            percent_off,
                            cap,
                            threshold,
                        },
                        _,
                    ) => CouponEffect::PercentOff {
                        percent_off: *percent_off,
                        cap: *cap,
                        threshold: *threshold,
                    },
                    (CouponKind::FreeDelivery { threshold }, _) => CouponEffect::FreeDelivery {
                        threshold: *threshold,
                    },
                    (kind, item) => {
                        let list = item.as_ref().map_or(Fen::ZERO, |i| i.2);
                        let price = item_price(kind);
                        CouponEffect::Item {
                            threshold: kind.threshold(),
                            list: list.max(price),
                            price,
                        }
                    }
                };
                if let Some((code, p, list, _)) = &item {
                    prepared.items.push(CouponItemLine {
                        coupon_code: coupon.coupon_code.clone(),
                        template_code: template.template_code.clone(),
                        sort: template.sort,
                        product_code: code.clone(),
                        product: *p,
                        list: (*list).max(item_price(&template.kind)),
                        price: item_price(&template.kind),
                        status: CouponItemStatus::Valid,
                    });
                }
                prepared.offers.push(CouponOffer {
                    coupon_code: coupon.coupon_code.clone(),
                    template_code: template.template_code.clone(),
                    name: template.name.clone(),
                    kind: template.kind.type_name(),
                    effect,
                    scope: template.scope.clone(),
                    stack_group: template.stack_group.clone(),
                    excludes: template.excludes.clone(),
                    sort: template.sort,
                    valid_to: coupon.valid_to,
                });
                Ok(Some(prepared.offers.len() - 1))
            }
        };
        prepared.slots.push(slot);
    }
    // Coupon items whose coupon is no longer held at all (used by another order, expired,
    // transferred): shown expired, so the customer sees where it went.
    for code in &cart.coupon_items {
        if !input.held.iter().any(|(c, _)| &c.coupon_code == code) {
            prepared.items.push(CouponItemLine {
                coupon_code: code.clone(),
                template_code: String::new(),
                sort: 0,
                product_code: String::new(),
                product: None,
                list: Fen::ZERO,
                price: Fen::ZERO,
                status: CouponItemStatus::Expired,
            });
        }
    }
    prepared
}

fn item_price(kind: &CouponKind) -> Fen {
    match kind {
        CouponKind::ProductAtPrice { price, .. } => *price,
        _ => Fen::ZERO,
    }
}

/// Each held coupon's outcome, and the coupon items' final states.
pub fn outcomes<'c>(
    input: &CouponInput<'c>,
    cart: &Cart,
    prepared: &mut Prepared<'c>,
    decision: &OfferDecision,
) -> Vec<CouponOption<'c>> {
    let mut options = Vec::new();
    for ((coupon, template), slot) in input.held.iter().zip(&prepared.slots) {
        let in_cart = cart.coupon_items.contains(&coupon.coupon_code);
        let mut option = CouponOption {
            coupon,
            template,
            alone: Fen::ZERO,
            saved: Fen::ZERO,
            applied: false,
            requested: in_cart
                || cart
                    .chosen_coupons
                    .as_ref()
                    .is_some_and(|c| c.contains(&coupon.coupon_code)),
            in_cart,
            reason: None,
        };
        match slot {
            Err(why) => option.reason = Some(CouponReason::NotApplicable(why.clone())),
            Ok(None) => {}
            Ok(Some(i)) => {
                let o = &decision.coupon_outcomes[*i];
                option.alone = o.alone;
                option.saved = o.saved;
                option.applied = o.applied;
                option.reason = o.left_out.clone().map(CouponReason::LeftOut);
            }
        }
        if let (Some(item), Some(reason)) = (
            prepared
                .items
                .iter_mut()
                .find(|i| i.coupon_code == coupon.coupon_code),
            &option.reason,
        ) {
            if item.status == CouponItemStatus::Valid {
                item.status = CouponItemStatus::NotApplied(reason.clone());
            }
        }
        options.push(option);
    }
    options
}
