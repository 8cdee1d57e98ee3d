//! Which promotions and coupons a cart gets (issues 20 and 24): ONE search over the legal
//! combinations of both — at most one rule per mutex group, at most one coupon per template
//! and per stacking group, no coupon beside a coupon or promotion it excludes — for the lowest
//! payable (products after promotions and coupons, plus the delivery fee left to pay), and for
//! everything left out, why. `promotion_choice::decide` is this search with no coupons.
//!
//! The customer's choices narrow the search: chosen rules (chooseRule) are in every
//! combination tried, and so are the coupon items in the cart; the coupon choice is either
//! automatic (`None`: any subset of the customer's coupons) or a set (`Some`: exactly those,
//! an empty set meaning no coupon). A choice that saves nothing in its best combination is not
//! honoured and the cart is priced without it; a coupon item stays as long as it applies.
//!
//! Bounded like the promotions' search (see `promotion_choice`): only rules that save
//! something alone and coupons that could apply on the bare cart take part (promotions only
//! lower a coupon's base, so a coupon failing on the bare cart fails beside anything), and
//! one coupon per template (the one expiring first: coupons of a template price alike).
//! Past [`MAX_COMBINATIONS`] the search is greedy.
//!
//! Ties: the lower payable, then fewer promotions and coupons, then the rules' (sort, id) and
//! the coupons' (sort, template) lists compared in order.

use crate::domain::money::Fen;
use crate::domain::pricing::coupon_pricing::{
    apply_coupons, could_apply, CouponOffer, CouponsApplied,
};
use crate::domain::pricing::offer_search::Space;
use crate::domain::pricing::promotion::{apply, Applied, Promotion, Unit};
use crate::domain::pricing::promotion_choice::{
    order_key, saved_by, why_left_out, LeftOut, Outcome,
};
use serde::{Deserialize, Serialize};

/// Why a coupon takes nothing off this cart (besides the template's own applicability, which
/// the caller checks before pricing: dates, store, time, channel).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "reason",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CouponLeftOut {
    /// Nothing in the cart it covers.
    NoItems,
    /// Its items come to `gap` less than its threshold, after the promotions applied.
    BelowThreshold { gap: Fen },
    /// A coupon (by coupon code) or promotion (by rule id) applied never combines with it:
    /// the same template, the same stacking group, or an exclusion.
    Mutex { by: String, chosen: bool },
    /// The customer chose other coupons (or none).
    NotChosen,
    /// It would not lower the total beside what applies.
    NotBetter,
}

/// One coupon's fate on this cart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CouponOutcome {
    /// What it takes off beside the promotions applied and no other coupon.
    pub alone: Fen,
    /// What it takes off in the combination applied (for a coupon item: list − price).
    pub saved: Fen,
    pub applied: bool,
    /// Chosen by the customer (a coupon item always is).
    pub requested: bool,
    pub left_out: Option<CouponLeftOut>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OfferDecision<'r> {
    pub picked: Vec<&'r Promotion>,
    pub coupons: Vec<&'r CouponOffer>,
    pub applied: Applied,
    pub coupons_applied: CouponsApplied,
    pub payable: Fen,
    /// Per rule, in the order given.
    pub outcomes: Vec<Outcome>,
    /// Per coupon, in the order given.
    pub coupon_outcomes: Vec<CouponOutcome>,
    pub exhaustive: bool,
}

/// Prices one combination: the payable, what the promotions did, what the coupons did.
pub fn evaluate_offers(
    rules: &[&Promotion],
    coupons: &[&CouponOffer],
    units: &[Unit],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> (Fen, Applied, CouponsApplied) {
    let applied = apply(rules, units);
    let products: Fen = units.iter().map(|u| u.price).sum();
    let after = products - applied.total();
    let with_fee = payable_of(after);
    let coupons_applied = apply_coupons(coupons, units, &applied, with_fee - after);
    let payable = with_fee - coupons_applied.units_off() - coupons_applied.delivery_waived
        + coupons_applied.items_charged();
    (payable, applied, coupons_applied)
}

/// Whether promotions and coupons may go on one order together.
pub fn legal(rules: &[&Promotion], coupons: &[&CouponOffer]) -> bool {
    let rules_ok = rules.iter().enumerate().all(|(i, a)| {
        rules[i + 1..]
            .iter()
            .all(|b| a.mutex_group.is_none() || a.mutex_group != b.mutex_group)
    });
    let coupons_ok = coupons
        .iter()
        .enumerate()
        .all(|(i, a)| coupons[i + 1..].iter().all(|b| !a.conflicts_with(b)));
    let across = coupons
        .iter()
        .all(|c| rules.iter().all(|r| !c.excludes_rule(&r.rule_id)));
    rules_ok && coupons_ok && across
}

pub(super) type Key<'a> = (Fen, usize, Vec<(i32, &'a str)>, Vec<(i32, &'a str)>);

/// What decides between two combinations.
pub fn offers_key<'a>(
    payable: Fen,
    rules: impl Iterator<Item = &'a Promotion>,
    coupons: impl Iterator<Item = &'a CouponOffer>,
) -> Key<'a> {
    let mut r: Vec<(i32, &str)> = rules.map(order_key).collect();
    r.sort();
    let mut c: Vec<(i32, &str)> = coupons
        .map(|c| (c.sort, c.template_code.as_str()))
        .collect();
    c.sort();
    (payable, r.len() + c.len(), r, c)
}

/// `rules`: the promotions in effect here and now; `coupons`: the customer's coupons usable
/// here and now (items: the coupon items in the cart); `chosen_rules`: chooseRule's picks;
/// `chosen_coupons`: `None` for the best combination, else exactly those coupon codes.
pub fn decide_offers<'r>(
    rules: &[&'r Promotion],
    coupons: &[&'r CouponOffer],
    units: &[Unit],
    chosen_rules: &[String],
    chosen_coupons: Option<&[String]>,
    payable_of: &dyn Fn(Fen) -> Fen,
) -> OfferDecision<'r> {
    let alone: Vec<Fen> = rules.iter().map(|r| apply(&[*r], units).total()).collect();
    let mut rule_candidates: Vec<&'r Promotion> = rules
        .iter()
        .zip(&alone)
        .filter(|(_, a)| **a > Fen::ZERO)
        .map(|(r, _)| *r)
        .collect();
    rule_candidates.sort_by(|a, b| order_key(a).cmp(&order_key(b)));

    // Coupons: the forced ones first (coupon items, then the chosen), each dropped when it
    // conflicts with one before it; then, choosing automatically, one per template of the
    // rest that could apply.
    let any_fee = payable_of(Fen(1)) > Fen(1);
    let mut ordered: Vec<&'r CouponOffer> = coupons.to_vec();
    ordered.sort_by(|a, b| {
        (&a.template_code, a.valid_to, &a.coupon_code).cmp(&(
            &b.template_code,
            b.valid_to,
            &b.coupon_code,
        ))
    });
    let wanted = |c: &CouponOffer| {
        c.effect.is_item() || chosen_coupons.is_some_and(|set| set.contains(&c.coupon_code))
    };
    let mut coupon_candidates: Vec<&'r CouponOffer> = Vec::new();
    for pass_items in [true, false] {
        for c in ordered.iter().filter(|c| c.effect.is_item() == pass_items) {
            if wanted(c) && !coupon_candidates.iter().any(|f| f.conflicts_with(c)) {
                coupon_candidates.push(c);
            }
        }
    }
    let forced_coupon_count = coupon_candidates.len();
    if chosen_coupons.is_none() {
        for c in &ordered {
            let taken = coupon_candidates
                .iter()
                .any(|f| f.template_code == c.template_code);
            if !c.effect.is_item() && !taken && could_apply(c, units, any_fee) {
                coupon_candidates.push(c);
            }
        }
    }
    let forced_coupons: Vec<usize> = (0..forced_coupon_count).collect();

    // Rules: the chosen, one per mutex group, unless a forced coupon excludes it.
    let mut forced_rules: Vec<usize> = Vec::new();
    for (i, r) in rule_candidates.iter().enumerate() {
        let grouped_taken = r.mutex_group.is_some()
            && forced_rules
                .iter()
                .any(|&f| rule_candidates[f].mutex_group == r.mutex_group);
        let excluded = coupon_candidates[..forced_coupon_count]
            .iter()
            .any(|c| c.excludes_rule(&r.rule_id));
        if chosen_rules.contains(&r.rule_id) && !grouped_taken && !excluded {
            forced_rules.push(i);
        }
    }

    let space = Space {
        rules: &rule_candidates,
        coupons: &coupon_candidates,
        units,
        payable_of,
    };
    let mut best = space.search(&forced_rules, &forced_coupons);
    // A choice that saves nothing in its best combination is not honoured: price without it.
    let kept_rules: Vec<usize> = forced_rules
        .iter()
        .copied()
        .filter(|&f| saved_by(&best.applied, &rule_candidates[f].rule_id) > Fen::ZERO)
        .collect();
    let kept_coupons: Vec<usize> = forced_coupons
        .iter()
        .copied()
        .filter(|&f| {
            let c = coupon_candidates[f];
            if c.effect.is_item() {
                best.coupons_applied.applied(&c.coupon_code)
            } else {
                best.coupons_applied.saved_by(&c.coupon_code) > Fen::ZERO
            }
        })
        .collect();
    if kept_rules.len() != forced_rules.len() || kept_coupons.len() != forced_coupons.len() {
        best = space.search(&kept_rules, &kept_coupons);
    }

    let picked: Vec<&'r Promotion> = best.rules.iter().map(|&i| rule_candidates[i]).collect();
    let picked_coupons: Vec<&'r CouponOffer> =
        best.coupons.iter().map(|&i| coupon_candidates[i]).collect();
    let forced_rule_ids: Vec<&str> = kept_rules
        .iter()
        .map(|&i| rule_candidates[i].rule_id.as_str())
        .collect();
    let forced_codes: Vec<&str> = kept_coupons
        .iter()
        .map(|&i| coupon_candidates[i].coupon_code.as_str())
        .collect();

    let outcomes = rules
        .iter()
        .zip(&alone)
        .map(|(rule, &alone)| {
            let saved = saved_by(&best.applied, &rule.rule_id);
            let left_out = (saved == Fen::ZERO).then(|| {
                match picked_coupons
                    .iter()
                    .find(|c| c.excludes_rule(&rule.rule_id))
                {
                    Some(c) => LeftOut::Mutex {
                        by: c.coupon_code.clone(),
                        chosen: forced_codes.contains(&c.coupon_code.as_str()),
                    },
                    None => why_left_out(rule, alone, &picked, &forced_rule_ids, units, payable_of),
                }
            });
            Outcome {
                alone,
                saved,
                requested: chosen_rules.contains(&rule.rule_id),
                left_out,
            }
        })
        .collect();

    let products: Fen = units.iter().map(|u| u.price).sum();
    let after = products - best.applied.total();
    let fee = payable_of(after) - after;
    let coupon_outcomes = coupons
        .iter()
        .map(|c| {
            let on_its_own = apply_coupons(&[*c], units, &best.applied, fee);
            let applied = picked_coupons
                .iter()
                .any(|p| p.coupon_code == c.coupon_code)
                && best.coupons_applied.applied(&c.coupon_code);
            let left_out = (!applied).then(|| {
                coupon_left_out(
                    c,
                    &on_its_own,
                    units,
                    &picked,
                    &picked_coupons,
                    &forced_rule_ids,
                    &forced_codes,
                    chosen_coupons,
                )
            });
            CouponOutcome {
                alone: on_its_own.saved_by(&c.coupon_code),
                saved: best.coupons_applied.saved_by(&c.coupon_code),
                applied,
                requested: wanted(c),
                left_out,
            }
        })
        .collect();

    OfferDecision {
        picked,
        coupons: picked_coupons,
        applied: best.applied,
        coupons_applied: best.coupons_applied,
        payable: best.payable,
        outcomes,
        coupon_outcomes,
        exhaustive: best.exhaustive,
    }
}

/// Why a coupon is not in the combination applied. Its own terms first (measured beside the
/// promotions applied), then what it conflicts with, then the customer's choice.
#[allow(clippy::too_many_arguments)]
fn coupon_left_out(
    c: &CouponOffer,
    on_its_own: &CouponsApplied,
    units: &[Unit],
    picked: &[&Promotion],
    picked_coupons: &[&CouponOffer],
    forced_rules: &[&str],
    forced_codes: &[&str],
    chosen_coupons: Option<&[String]>,
) -> CouponLeftOut {
    let covered = units.iter().any(|u| c.scope.matches(u));
    if !covered && c.needs_units() {
        return CouponLeftOut::NoItems;
    }
    let base = on_its_own.seen_by(&c.coupon_code);
    let threshold = c.effect.threshold();
    if base < threshold {
        return CouponLeftOut::BelowThreshold {
            gap: threshold - base,
        };
    }
    if let Some(p) = picked_coupons
        .iter()
        .find(|p| p.coupon_code != c.coupon_code && p.conflicts_with(c))
    {
        return CouponLeftOut::Mutex {
            by: p.coupon_code.clone(),
            chosen: forced_codes.contains(&p.coupon_code.as_str()),
        };
    }
    if let Some(r) = picked.iter().find(|r| c.excludes_rule(&r.rule_id)) {
        return CouponLeftOut::Mutex {
            by: r.rule_id.clone(),
            chosen: forced_rules.contains(&r.rule_id.as_str()),
        };
    }
    if chosen_coupons.is_some_and(|set| !set.contains(&c.coupon_code)) {
        return CouponLeftOut::NotChosen;
    }
    CouponLeftOut::NotBetter
}

#[cfg(test)]
#[path = "offer_choice_tests.rs"]
mod tests;
