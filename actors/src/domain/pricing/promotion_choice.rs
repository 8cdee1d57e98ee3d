//! Which promotions a cart gets (issue 20, point 7): among the legal combinations — at most one
//! rule per mutex group, any subset of the ungrouped rules — the one with the lowest payable
//! amount (products after promotions plus the delivery fee that amount pays), and for every
//! rule left out, why. The customer's choice narrows the search to the combinations holding
//! it, and is honoured only when it then saves something.
//!
//! Why enumeration is bounded: a store runs tens of rules, but only those in effect here and
//! now that save something on this cart on their own take part. A rule that saves nothing
//! alone saves nothing beside others (item rules only lose units to other rules, reductions
//! only see a smaller amount) and changes nothing, so leaving it out loses no combination.
//! That leaves a handful of candidates, Π(group size + 1) × 2^ungrouped combinations, each
//! one `apply` over the cart's units. Past [`MAX_COMBINATIONS`] the search is greedy (logged):
//! a request never stalls on a pathological rule set, at the price of maybe missing the best.
//!
//! Ties are broken so the answer is stable: the lower payable, then fewer rules, then the
//! rules' (sort, id) lists compared in order.

use crate::domain::money::Fen;
use crate::domain::pricing::promotion::{apply, Applied, Promotion, PromotionKind, Unit};
use serde::{Deserialize, Serialize};

/// Combinations searched exhaustively; 4096 is 12 ungrouped candidates, far beyond a store's
/// real day, and a few milliseconds of `apply` on a large cart.
pub const MAX_COMBINATIONS: u64 = 4096;

/// Why a rule gives nothing on this cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "reason",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LeftOut {
    /// Outside its dates, hours or weekdays.
    NotEffective,
    /// Not for this store, store group or order type.
    NotHere,
    /// No items (or not enough) in the cart that the rule discounts.
    NoItems,
    /// A reduction whose threshold is not reached: `gap` more, measured after item discounts.
    BelowThreshold { gap: Fen },
    /// Another rule of its mutex group is in the combination: the better one, or the one the
    /// customer chose.
    Mutex { by: String, chosen: bool },
    /// Its items are discounted by another rule of the combination that does better.
    ItemsTaken { by: String },
    /// It would save something, but the total would not go down (e.g. the products would drop
    /// below the free-delivery threshold).
    NotBetter,
}

/// One rule's fate on this cart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// What the rule saves on this cart on its own.
    pub alone: Fen,
    /// What it saves in the combination applied.
    pub saved: Fen,
    /// The customer chose it (`POST /cart/rules`); honoured only when `saved` > 0.
    pub requested: bool,
    /// Why it saves nothing; `None` when it applies.
    pub left_out: Option<LeftOut>,
}

/// The combination applied and every rule's outcome (same order as the rules given).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<'r> {
    pub picked: Vec<&'r Promotion>,
    pub applied: Applied,
    pub payable: Fen,
    pub outcomes: Vec<Outcome>,
    /// False when the greedy fallback chose.
    pub exhaustive: bool,
}

/// `rules`: those in effect here and now. `chosen`: the customer's picks (rule ids).
/// `payable_of`: what is paid for a given products-after-promotions amount (adds the fee).
/// The joint search of `offer_choice` with no coupon.
pub fn decide<'r>(
    rules: &[&'r Promotion],
    units: &[Unit],
    chosen: &[String],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> Decision<'r> {
    let d = crate::domain::pricing::offer_choice::decide_offers(
        rules,
        &[],
        units,
        chosen,
        None,
        payable_of,
    );
    Decision {
        picked: d.picked,
        applied: d.applied,
        payable: d.payable,
        outcomes: d.outcomes,
        exhaustive: d.exhaustive,
    }
}

/// The order rules are applied and compared in.
pub fn order_key(rule: &Promotion) -> (i32, &str) {
    (rule.sort, rule.rule_id.as_str())
}

pub fn saved_by(applied: &Applied, rule_id: &str) -> Fen {
    applied
        .rules
        .iter()
        .find(|(id, _)| id == rule_id)
        .map_or(Fen::ZERO, |(_, d)| *d)
}

/// What decides between two combinations: payable, then how many rules, then which.
pub fn combination_key<'a>(
    payable: Fen,
    rules: impl Iterator<Item = &'a Promotion>,
) -> (Fen, usize, Vec<(i32, &'a str)>) {
    let mut ids: Vec<(i32, &str)> = rules.map(order_key).collect();
    ids.sort();
    (payable, ids.len(), ids)
}

/// Prices one combination: what the customer pays and what each rule did.
pub fn evaluate(
    rules: &[&Promotion],
    units: &[Unit],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> (Fen, Applied) {
    let applied = apply(rules, units);
    let products: Fen = units.iter().map(|u| u.price).sum();
    (payable_of(products - applied.total()), applied)
}

/// Why `rule` saves nothing beside `picked` (the combination applied).
pub(super) fn why_left_out(
    rule: &Promotion,
    alone: Fen,
    picked: &[&Promotion],
    forced: &[&str],
    units: &[Unit],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> LeftOut {
    let mate = picked
        .iter()
        .find(|p| rule.mutex_group.is_some() && p.mutex_group == rule.mutex_group);
    // The combination with this rule in place of its group's member.
    let mut variant: Vec<&Promotion> = picked
        .iter()
        .copied()
        .filter(|p| rule.mutex_group.is_none() || p.mutex_group != rule.mutex_group)
        .collect();
    variant.push(rule);
    let (_, applied) = evaluate(&variant, units, payable_of);
    let saved = saved_by(&applied, &rule.rule_id);
    if saved == Fen::ZERO {
        if let PromotionKind::FullReduction { threshold, off } = rule.kind {
            let seen = applied
                .order_seen
                .iter()
                .find(|(id, _)| id == &rule.rule_id)
                .map_or(Fen::ZERO, |(_, s)| *s);
            return if off > Fen::ZERO && seen < threshold {
                LeftOut::BelowThreshold {
                    gap: threshold - seen,
                }
            } else {
                LeftOut::NoItems
            };
        }
        if alone == Fen::ZERO {
            return LeftOut::NoItems;
        }
    }
    if let Some(mate) = mate {
        return LeftOut::Mutex {
            by: mate.rule_id.clone(),
            chosen: forced.contains(&mate.rule_id.as_str()),
        };
    }
    // Whose discount its items carry in the combination applied.
    let (_, current) = evaluate(picked, units, payable_of);
    let taker = units
        .iter()
        .zip(&current.unit_discounts)
        .filter(|(u, _)| rule.scope.matches(u))
        .find_map(|(_, d)| d.as_ref().filter(|(_, d)| *d > Fen::ZERO))
        .map(|(id, _)| id.clone());
    match taker {
        Some(by) => LeftOut::ItemsTaken { by },
        None if saved == Fen::ZERO => LeftOut::NoItems,
        None => LeftOut::NotBetter,
    }
}

#[cfg(test)]
#[path = "promotion_choice_tests.rs"]
pub(crate) mod tests;
