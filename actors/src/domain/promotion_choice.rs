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

use super::money::Fen;
use super::promotion::{apply, Applied, Promotion, PromotionKind, Unit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
pub fn decide<'r>(
    rules: &[&'r Promotion],
    units: &[Unit],
    chosen: &[String],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> Decision<'r> {
    let alone: Vec<Fen> = rules.iter().map(|r| apply(&[*r], units).total()).collect();
    let mut candidates: Vec<&'r Promotion> = rules
        .iter()
        .zip(&alone)
        .filter(|(_, a)| **a > Fen::ZERO)
        .map(|(r, _)| *r)
        .collect();
    candidates.sort_by(|a, b| order_key(a).cmp(&order_key(b)));
    let mut forced: Vec<usize> = Vec::new();
    for (i, r) in candidates.iter().enumerate() {
        let grouped_taken = r.mutex_group.is_some()
            && forced
                .iter()
                .any(|&f| candidates[f].mutex_group == r.mutex_group);
        if chosen.contains(&r.rule_id) && !grouped_taken {
            forced.push(i);
        }
    }
    let mut best = search(&candidates, units, &forced, payable_of);
    // A choice that saves nothing in its best combination is not honoured: price without it.
    let honoured: Vec<usize> = forced
        .iter()
        .copied()
        .filter(|&f| saved_by(&best.applied, &candidates[f].rule_id) > Fen::ZERO)
        .collect();
    if honoured.len() != forced.len() {
        best = search(&candidates, units, &honoured, payable_of);
    }
    let picked: Vec<&'r Promotion> = best.picked.iter().map(|&i| candidates[i]).collect();
    let forced_ids: Vec<&str> = honoured
        .iter()
        .map(|&i| candidates[i].rule_id.as_str())
        .collect();
    let outcomes = rules
        .iter()
        .zip(&alone)
        .map(|(rule, &alone)| {
            let saved = saved_by(&best.applied, &rule.rule_id);
            let left_out = (saved == Fen::ZERO)
                .then(|| why_left_out(rule, alone, &picked, &forced_ids, units, payable_of));
            Outcome {
                alone,
                saved,
                requested: chosen.contains(&rule.rule_id),
                left_out,
            }
        })
        .collect();
    Decision {
        picked,
        applied: best.applied,
        payable: best.payable,
        outcomes,
        exhaustive: best.exhaustive,
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

struct Found {
    picked: Vec<usize>,
    applied: Applied,
    payable: Fen,
    exhaustive: bool,
}

/// The search's dimensions: each mutex group (none, or one member) and each ungrouped rule
/// (out or in); a forced rule is its dimension's only option.
fn slots(candidates: &[&Promotion], forced: &[usize]) -> Vec<Vec<Option<usize>>> {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut slots = Vec::new();
    for (i, r) in candidates.iter().enumerate() {
        match r.mutex_group.as_deref() {
            Some(g) => groups.entry(g).or_default().push(i),
            None if forced.contains(&i) => slots.push(vec![Some(i)]),
            None => slots.push(vec![None, Some(i)]),
        }
    }
    for members in groups.into_values() {
        match members.iter().find(|i| forced.contains(i)) {
            Some(&f) => slots.push(vec![Some(f)]),
            None => slots.push(
                std::iter::once(None)
                    .chain(members.into_iter().map(Some))
                    .collect(),
            ),
        }
    }
    slots
}

fn search(
    candidates: &[&Promotion],
    units: &[Unit],
    forced: &[usize],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> Found {
    let slots = slots(candidates, forced);
    let count = slots
        .iter()
        .try_fold(1u64, |n, s| n.checked_mul(s.len() as u64))
        .filter(|&n| n <= MAX_COMBINATIONS);
    match count {
        Some(_) => exhaustive(candidates, units, &slots, payable_of),
        None => {
            tracing::warn!(
                candidates = candidates.len(),
                "too many promotion combinations to try them all; choosing greedily"
            );
            greedy(candidates, units, &slots, payable_of)
        }
    }
}

fn exhaustive(
    candidates: &[&Promotion],
    units: &[Unit],
    slots: &[Vec<Option<usize>>],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> Found {
    let mut digits = vec![0usize; slots.len()];
    // The empty combination is always legal: the start, and the answer when no rule helps.
    let mut best = price(candidates, units, Vec::new(), payable_of, true);
    loop {
        let picked: Vec<usize> = slots
            .iter()
            .zip(&digits)
            .filter_map(|(s, &d)| s[d])
            .collect();
        let found = price(candidates, units, picked, payable_of, true);
        if key(candidates, &found) < key(candidates, &best) {
            best = found;
        }
        // The next combination: a mixed-radix counter over the slots.
        let mut i = 0;
        loop {
            if i == slots.len() {
                return best;
            }
            digits[i] += 1;
            if digits[i] < slots[i].len() {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
}

/// Starts from the forced rules and keeps adding the option that lowers the payable most,
/// until none does.
fn greedy(
    candidates: &[&Promotion],
    units: &[Unit],
    slots: &[Vec<Option<usize>>],
    payable_of: &dyn Fn(Fen) -> Fen,
) -> Found {
    let mut open: Vec<&Vec<Option<usize>>> = Vec::new();
    let mut picked: Vec<usize> = Vec::new();
    for s in slots {
        match s.as_slice() {
            [Some(f)] => picked.push(*f),
            _ => open.push(s),
        }
    }
    let mut current = price(candidates, units, picked, payable_of, false);
    loop {
        let mut round: Option<(usize, Found)> = None;
        for (slot, options) in open.iter().enumerate() {
            for &option in options.iter().flatten() {
                let mut trial = current.picked.clone();
                trial.push(option);
                let found = price(candidates, units, trial, payable_of, false);
                if round
                    .as_ref()
                    .is_none_or(|(_, r)| key(candidates, &found) < key(candidates, r))
                {
                    round = Some((slot, found));
                }
            }
        }
        match round {
            Some((slot, found)) if found.payable < current.payable => {
                open.remove(slot);
                current = found;
            }
            _ => return current,
        }
    }
}

fn price(
    candidates: &[&Promotion],
    units: &[Unit],
    mut picked: Vec<usize>,
    payable_of: &dyn Fn(Fen) -> Fen,
    exhaustive: bool,
) -> Found {
    picked.sort_unstable();
    let rules: Vec<&Promotion> = picked.iter().map(|&i| candidates[i]).collect();
    let (payable, applied) = evaluate(&rules, units, payable_of);
    Found {
        picked,
        applied,
        payable,
        exhaustive,
    }
}

fn key<'a>(candidates: &[&'a Promotion], found: &Found) -> (Fen, usize, Vec<(i32, &'a str)>) {
    combination_key(found.payable, found.picked.iter().map(|&i| candidates[i]))
}

/// Why `rule` saves nothing beside `picked` (the combination applied).
fn why_left_out(
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
mod tests;
