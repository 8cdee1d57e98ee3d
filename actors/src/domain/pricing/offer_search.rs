//! The search behind `offer_choice`: the combinations of promotions and coupons as slots
//! (each mutex or stacking group: none or one member; each ungrouped offer: out or in; a forced
//! one its slot's only option), tried exhaustively as a mixed-radix counter, or greedily past
//! `MAX_COMBINATIONS`; illegal combinations (exclusions) are skipped.

use crate::domain::money::Fen;
use crate::domain::pricing::coupon_pricing::{CouponOffer, CouponsApplied};
use crate::domain::pricing::offer_choice::{evaluate_offers, legal, offers_key, Key};
use crate::domain::pricing::promotion::{Applied, Promotion, Unit};
use crate::domain::pricing::promotion_choice::MAX_COMBINATIONS;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Pick {
    Rule(usize),
    Coupon(usize),
}

pub(super) struct Space<'s, 'r> {
    pub(super) rules: &'s [&'r Promotion],
    pub(super) coupons: &'s [&'r CouponOffer],
    pub(super) units: &'s [Unit],
    pub(super) payable_of: &'s dyn Fn(Fen) -> Fen,
}

pub(super) struct Found {
    pub(super) rules: Vec<usize>,
    pub(super) coupons: Vec<usize>,
    pub(super) applied: Applied,
    pub(super) coupons_applied: CouponsApplied,
    pub(super) payable: Fen,
    pub(super) exhaustive: bool,
}

impl<'r> Space<'_, 'r> {
    fn picked(&self, picks: &[Pick]) -> (Vec<usize>, Vec<usize>) {
        let mut r: Vec<usize> = Vec::new();
        let mut c: Vec<usize> = Vec::new();
        for p in picks {
            match *p {
                Pick::Rule(i) => r.push(i),
                Pick::Coupon(i) => c.push(i),
            }
        }
        r.sort_unstable();
        c.sort_unstable();
        (r, c)
    }

    fn refs(&self, r: &[usize], c: &[usize]) -> (Vec<&'r Promotion>, Vec<&'r CouponOffer>) {
        (
            r.iter().map(|&i| self.rules[i]).collect(),
            c.iter().map(|&i| self.coupons[i]).collect(),
        )
    }

    fn is_legal(&self, picks: &[Pick]) -> bool {
        let (r, c) = self.picked(picks);
        let (r, c) = self.refs(&r, &c);
        legal(&r, &c)
    }

    fn price(&self, picks: &[Pick], exhaustive: bool) -> Found {
        let (r, c) = self.picked(picks);
        let (rr, cc) = self.refs(&r, &c);
        let (payable, applied, coupons_applied) =
            evaluate_offers(&rr, &cc, self.units, self.payable_of);
        Found {
            rules: r,
            coupons: c,
            applied,
            coupons_applied,
            payable,
            exhaustive,
        }
    }

    fn key(&self, f: &Found) -> Key<'r> {
        offers_key(
            f.payable,
            f.rules.iter().map(|&i| self.rules[i]),
            f.coupons.iter().map(|&i| self.coupons[i]),
        )
    }

    /// The dimensions: each mutex group and stacking group (none, or one member), each
    /// ungrouped rule and coupon (out or in); a forced one is its dimension's only option.
    fn slots(&self, forced_rules: &[usize], forced_coupons: &[usize]) -> Vec<Vec<Option<Pick>>> {
        let mut slots = Vec::new();
        let mut groups: BTreeMap<(u8, &str), Vec<Pick>> = BTreeMap::new();
        let mut forced: Vec<Pick> = forced_rules.iter().map(|&i| Pick::Rule(i)).collect();
        forced.extend(forced_coupons.iter().map(|&i| Pick::Coupon(i)));
        let grouped =
            self.rules
                .iter()
                .enumerate()
                .map(|(i, r)| (Pick::Rule(i), r.mutex_group.as_deref().map(|g| (0u8, g))))
                .chain(
                    self.coupons.iter().enumerate().map(|(i, c)| {
                        (Pick::Coupon(i), c.stack_group.as_deref().map(|g| (1u8, g)))
                    }),
                );
        for (pick, group) in grouped {
            match group {
                Some(g) => groups.entry(g).or_default().push(pick),
                None if forced.contains(&pick) => slots.push(vec![Some(pick)]),
                None => slots.push(vec![None, Some(pick)]),
            }
        }
        for members in groups.into_values() {
            match members.iter().find(|p| forced.contains(p)) {
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

    pub(super) fn search(&self, forced_rules: &[usize], forced_coupons: &[usize]) -> Found {
        let slots = self.slots(forced_rules, forced_coupons);
        let count = slots
            .iter()
            .try_fold(1u64, |n, s| n.checked_mul(s.len() as u64))
            .filter(|&n| n <= MAX_COMBINATIONS);
        match count {
            Some(_) => self.exhaustive(&slots),
            None => {
                tracing::warn!(
                    rules = self.rules.len(),
                    coupons = self.coupons.len(),
                    "too many offer combinations to try them all; choosing greedily"
                );
                self.greedy(&slots)
            }
        }
    }

    fn exhaustive(&self, slots: &[Vec<Option<Pick>>]) -> Found {
        let mut digits = vec![0usize; slots.len()];
        let mut best: Option<Found> = None;
        loop {
            let picks: Vec<Pick> = slots
                .iter()
                .zip(&digits)
                .filter_map(|(s, &d)| s[d])
                .collect();
            if self.is_legal(&picks) {
                let found = self.price(&picks, true);
                if best.as_ref().is_none_or(|b| self.key(&found) < self.key(b)) {
                    best = Some(found);
                }
            }
            // The next combination: a mixed-radix counter over the slots.
            let mut i = 0;
            loop {
                if i == slots.len() {
                    // The forced picks alone are legal (made so by `decide_offers`).
                    return best.unwrap_or_else(|| self.price(&[], true));
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

    /// From the forced picks, keeps adding the legal option that lowers the payable most.
    fn greedy(&self, slots: &[Vec<Option<Pick>>]) -> Found {
        let mut open: Vec<&Vec<Option<Pick>>> = Vec::new();
        let mut picks: Vec<Pick> = Vec::new();
        for s in slots {
            match s.as_slice() {
                [Some(f)] => picks.push(*f),
                _ => open.push(s),
            }
        }
        let mut current = self.price(&picks, false);
        loop {
            let mut round: Option<(usize, Vec<Pick>, Found)> = None;
            for (slot, options) in open.iter().enumerate() {
                for &option in options.iter().flatten() {
                    let mut trial = picks.clone();
                    trial.push(option);
                    if !self.is_legal(&trial) {
                        continue;
                    }
                    let found = self.price(&trial, false);
                    if round
                        .as_ref()
                        .is_none_or(|(_, _, r)| self.key(&found) < self.key(r))
                    {
                        round = Some((slot, trial, found));
                    }
                }
            }
            match round {
                Some((slot, trial, found)) if found.payable < current.payable => {
                    open.remove(slot);
                    picks = trial;
                    current = found;
                }
                _ => return current,
            }
        }
    }
}
