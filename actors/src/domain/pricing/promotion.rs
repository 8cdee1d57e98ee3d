//! Promotions (spec §3 cart response rules, §5 rule matching): what the chain offers, and how a
//! set of active rules discounts a cart's priced units. All money in fen, all rounding explicit.
//!
//! Item-level rules (percent off, fixed price, second item, combo price) each take whole units:
//! a unit discounted by one rule is never discounted again by another, so rules never compound.
//! Order-level rules (full reduction) then apply to what is left. Which rules are active (the
//! mutex groups and the customer's choice) is decided by the caller, `cart_pricing`.

use crate::domain::catalogue::{Bilingual, EffectiveRule};
use crate::domain::money::Fen;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Promotion {
    pub rule_id: String,
    pub name: Bilingual,
    #[serde(default)]
    pub description: Bilingual,
    pub kind: PromotionKind,
    /// Which cart items the rule looks at (item-level kinds); the whole cart when empty.
    #[serde(default)]
    pub scope: Scope,
    /// Date, time, weekday, stores, store groups, order types: all must match (spec §5).
    #[serde(default)]
    pub effective_rule: Option<EffectiveRule>,
    /// Lower applies first.
    #[serde(default)]
    pub sort: i32,
    /// Rules sharing a group are mutually exclusive (spec ruleMutexBeans): one applies per cart.
    #[serde(default)]
    pub mutex_group: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PromotionKind {
    /// Each matching unit at `percent_off` % off (20 = pay 80 %).
    PercentOff { percent_off: u32 },
    /// Each matching unit dearer than `price` sells at `price`.
    FixedPrice { price: Fen },
    /// Matching units are paired dearest first; the cheaper of each pair is `percent_off` % off.
    SecondItem { percent_off: u32 },
    /// One unit from each group together for `price` (as many bundles as the cart makes up).
    ComboPrice { groups: Vec<Scope>, price: Fen },
    /// `off` taken from the order once the products reach `threshold` after item promotions.
    FullReduction { threshold: Fen, off: Fen },
}

impl PromotionKind {
    /// The name the cart response uses (`ruleType`).
    pub fn type_name(&self) -> &'static str {
        match self {
            PromotionKind::PercentOff { .. } => "percentOff",
            PromotionKind::FixedPrice { .. } => "fixedPrice",
            PromotionKind::SecondItem { .. } => "secondItem",
            PromotionKind::ComboPrice { .. } => "comboPrice",
            PromotionKind::FullReduction { .. } => "fullReduction",
        }
    }
}

/// Which items a rule touches. Every non-empty list must contain the item's value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scope {
    #[serde(default)]
    pub product_codes: Vec<String>,
    #[serde(default)]
    pub category_codes: Vec<String>,
    #[serde(default)]
    pub size_codes: Vec<String>,
    #[serde(default)]
    pub product_types: Vec<u8>,
}

/// What a rule needs to know of one cart unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Index of the cart line the unit belongs to.
    pub line: usize,
    pub product_code: String,
    pub category_code: String,
    pub size_code: Option<String>,
    pub product_type: u8,
    pub price: Fen,
}

impl Scope {
    pub fn matches(&self, unit: &Unit) -> bool {
        fn listed(list: &[String], value: &str) -> bool {
            list.is_empty() || list.iter().any(|v| v == value)
        }
        listed(&self.product_codes, &unit.product_code)
            && listed(&self.category_codes, &unit.category_code)
            && (self.size_codes.is_empty()
                || unit
                    .size_code
                    .as_deref()
                    .is_some_and(|s| listed(&self.size_codes, s)))
            && (self.product_types.is_empty() || self.product_types.contains(&unit.product_type))
    }
}

/// The rules a choice of `rule` replaces or keeps: every member of its mutex group (itself
/// included), or itself alone when it has none.
pub fn mutex_group_of(promotions: &[Promotion], rule: &Promotion) -> Vec<String> {
    match &rule.mutex_group {
        Some(g) => promotions
            .iter()
            .filter(|r| r.mutex_group.as_ref() == Some(g))
            .map(|r| r.rule_id.clone())
            .collect(),
        None => vec![rule.rule_id.clone()],
    }
}

/// `percent` % of `price`, rounded half up to the fen.
pub fn percent_of(price: Fen, percent: u32) -> Fen {
    let percent = i64::from(percent.min(100));
    Fen((price.0 * percent + 50) / 100)
}

/// The outcome of applying rules: each rule's discount and each unit's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Applied {
    /// (rule id, total discount) in application order, only rules that saved something.
    pub rules: Vec<(String, Fen)>,
    /// Per unit (same order as the input): the discount and the rule that gave it.
    pub unit_discounts: Vec<Option<(String, Fen)>>,
    /// Order-level discounts: (rule id, amount).
    pub order_discounts: Vec<(String, Fen)>,
    /// Every order-level rule with the amount it was measured against (products after item
    /// discounts and earlier reductions), applied or not: the gap to its threshold comes
    /// from here, so the hint says exactly what the applying code checked.
    pub order_seen: Vec<(String, Fen)>,
}

impl Applied {
    pub fn total(&self) -> Fen {
        self.rules.iter().map(|(_, d)| *d).sum()
    }
}

/// Applies `rules` (already known to be active here and now) in order of `sort`, then rule id.
pub fn apply(rules: &[&Promotion], units: &[Unit]) -> Applied {
    let mut ordered: Vec<&Promotion> = rules.to_vec();
    ordered.sort_by(|a, b| (a.sort, &a.rule_id).cmp(&(b.sort, &b.rule_id)));
    let mut taken: Vec<Option<(String, Fen)>> = vec![None; units.len()];
    let mut applied = Applied::default();
    for rule in ordered.iter().filter(|r| !is_order_level(r)) {
        let saved = apply_item_rule(rule, units, &mut taken);
        if saved > Fen::ZERO {
            applied.rules.push((rule.rule_id.clone(), saved));
        }
    }
    let products: Fen = units.iter().map(|u| u.price).sum();
    let mut remaining = products - taken.iter().flatten().map(|(_, d)| *d).sum();
    for rule in ordered.iter().filter(|r| is_order_level(r)) {
        if let PromotionKind::FullReduction { threshold, off } = rule.kind {
            applied.order_seen.push((rule.rule_id.clone(), remaining));
            if remaining >= threshold && off > Fen::ZERO && remaining > Fen::ZERO {
                let off = off.min(remaining);
                remaining = remaining - off;
                applied.rules.push((rule.rule_id.clone(), off));
                applied.order_discounts.push((rule.rule_id.clone(), off));
            }
        }
    }
    applied.unit_discounts = taken;
    applied
}

pub fn is_order_level(rule: &Promotion) -> bool {
    matches!(rule.kind, PromotionKind::FullReduction { .. })
}

/// Discounts free units matching the rule; returns what it saved.
fn apply_item_rule(rule: &Promotion, units: &[Unit], taken: &mut [Option<(String, Fen)>]) -> Fen {
    let free: Vec<usize> = (0..units.len())
        .filter(|&i| taken[i].is_none() && rule.scope.matches(&units[i]))
        .collect();
    let give = |i: usize, discount: Fen, taken: &mut [Option<(String, Fen)>]| {
        taken[i] = Some((rule.rule_id.clone(), discount));
        discount
    };
    let mut saved = Fen::ZERO;
    match &rule.kind {
        PromotionKind::PercentOff { percent_off } => {
            for i in free {
                let d = percent_of(units[i].price, *percent_off);
                if d > Fen::ZERO {
                    saved += give(i, d, taken);
                }
            }
        }
        PromotionKind::FixedPrice { price } => {
            for i in free {
                if units[i].price > *price {
                    saved += give(i, units[i].price - *price, taken);
                }
            }
        }
        PromotionKind::SecondItem { percent_off } => {
            let mut by_price = free;
            // Dearest first; ties by position so the result does not depend on sort stability.
            by_price.sort_by(|&a, &b| units[b].price.cmp(&units[a].price).then(a.cmp(&b)));
            for pair in by_price.chunks_exact(2) {
                let d = percent_of(units[pair[1]].price, *percent_off);
                if d > Fen::ZERO {
                    give(pair[0], Fen::ZERO, taken);
                    saved += give(pair[1], d, taken);
                }
            }
        }
        PromotionKind::ComboPrice { groups, price } => {
            if groups.is_empty() {
                return Fen::ZERO;
            }
            loop {
                let mut bundle: Vec<usize> = Vec::new();
                for group in groups {
                    let pick = (0..units.len())
                        .filter(|&i| {
                            taken[i].is_none()
                                && !bundle.contains(&i)
                                && rule.scope.matches(&units[i])
                                && group.matches(&units[i])
                        })
                        .max_by(|&a, &b| units[a].price.cmp(&units[b].price).then(b.cmp(&a)));
                    match pick {
                        Some(i) => bundle.push(i),
                        None => return saved,
                    }
                }
                let sum: Fen = bundle.iter().map(|&i| units[i].price).sum();
                if sum <= *price {
                    return saved;
                }
                // The bundle's saving is spread over its units in proportion to their prices,
                // the remainder on the dearest, so each unit's discount is whole fen.
                let discount = sum - *price;
                let shares = split_proportionally(
                    discount,
                    &bundle.iter().map(|&i| units[i].price).collect::<Vec<_>>(),
                );
                for (&i, share) in bundle.iter().zip(shares) {
                    give(i, share, taken);
                }
                saved += discount;
            }
        }
        PromotionKind::FullReduction { .. } => {}
    }
    saved
}

/// Splits `amount` over `weights` in proportion, in whole fen, the remainder going to the
/// largest weights first: the parts always add up to `amount` exactly.
pub fn split_proportionally(amount: Fen, weights: &[Fen]) -> Vec<Fen> {
    let total: i64 = weights.iter().map(|w| w.0.max(0)).sum();
    if weights.is_empty() {
        return Vec::new();
    }
    if total == 0 {
        let mut parts = vec![Fen::ZERO; weights.len()];
        parts[0] = amount;
        return parts;
    }
    let mut parts: Vec<i64> = weights
        .iter()
        .map(|w| amount.0 * w.0.max(0) / total)
        .collect();
    let mut left = amount.0 - parts.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    parts.into_iter().map(Fen).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn unit(line: usize, code: &str, category: &str, size: Option<&str>, price: i64) -> Unit {
        Unit {
            line,
            product_code: code.into(),
            category_code: category.into(),
            size_code: size.map(Into::into),
            product_type: if category == "PIZZA" { 1 } else { 0 },
            price: Fen(price),
        }
    }

    fn rule(id: &str, kind: PromotionKind, scope: Scope) -> Promotion {
        Promotion {
            rule_id: id.into(),
            name: Bilingual::default(),
            description: Bilingual::default(),
            kind,
            scope,
            effective_rule: None,
            sort: 0,
            mutex_group: None,
        }
    }

    fn category(c: &str) -> Scope {
        Scope {
            category_codes: vec![c.into()],
            ..Scope::default()
        }
    }

    #[test]
    fn a_choice_replaces_the_members_of_its_mutex_group() {
        let grouped = |id: &str, group: Option<&str>| Promotion {
            mutex_group: group.map(Into::into),
            ..rule(
                id,
                PromotionKind::PercentOff { percent_off: 10 },
                Scope::default(),
            )
        };
        let all = vec![
            grouped("A", Some("g1")),
            grouped("B", Some("g1")),
            grouped("C", Some("g2")),
            grouped("D", None),
            grouped("E", Some("g1")),
        ];
        let cases: [(&str, &[&str]); 4] = [
            ("A", &["A", "B", "E"]),
            ("E", &["A", "B", "E"]),
            ("C", &["C"]),
            ("D", &["D"]),
        ];
        for (chosen, want) in cases {
            let rule = all.iter().find(|r| r.rule_id == chosen).unwrap();
            assert_eq!(mutex_group_of(&all, rule), want, "{chosen}");
        }
    }

    #[test]
    fn percent_of_rounds_half_up_to_the_fen() {
        let cases = [
            (8900, 20, 1780),
            (999, 15, 150), // 149.85
            (1, 50, 1),     // 0.5 → 1
            (3, 33, 1),     // 0.99 → 1
            (1000, 0, 0),
            (1000, 100, 1000),
            (1000, 150, 1000), // capped at 100 %
        ];
        for (price, percent, want) in cases {
            assert_eq!(
                percent_of(Fen(price), percent),
                Fen(want),
                "{price} {percent}"
            );
        }
    }

    #[test]
    fn split_always_adds_up() {
        let cases: [(i64, &[i64], &[i64]); 5] = [
            (100, &[1, 1, 1], &[34, 33, 33]),
            (1000, &[6900, 3200], &[684, 316]),
            (7, &[0, 0], &[7, 0]),
            (0, &[5, 5], &[0, 0]),
            (1, &[1, 3], &[0, 1]),
        ];
        for (amount, weights, want) in cases {
            let weights: Vec<Fen> = weights.iter().map(|&w| Fen(w)).collect();
            let got = split_proportionally(Fen(amount), &weights);
            assert_eq!(got.iter().copied().sum::<Fen>(), Fen(amount));
            assert_eq!(got, want.iter().map(|&w| Fen(w)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn scope_lists_all_must_match() {
        let pizza12 = unit(0, "PZ001", "PIZZA", Some("12"), 8900);
        let wings = unit(1, "SD001", "SIDE", None, 3200);
        let twelve = Scope {
            size_codes: vec!["12".into()],
            ..Scope::default()
        };
        assert!(twelve.matches(&pizza12));
        assert!(!twelve.matches(&wings), "no size never matches a size list");
        assert!(Scope::default().matches(&wings));
        let pizzas_type = Scope {
            product_types: vec![1],
            category_codes: vec!["PIZZA".into()],
            ..Scope::default()
        };
        assert!(pizzas_type.matches(&pizza12) && !pizzas_type.matches(&wings));
    }

    #[test]
    fn item_rules_table() {
        struct Case {
            name: &'static str,
            rules: Vec<Promotion>,
            units: Vec<Unit>,
            total: i64,
        }
        let pz = |line, price| unit(line, "PZ001", "PIZZA", Some("12"), price);
        let dr = |line, price| unit(line, "DR001", "DRINK", None, price);
        let cases = vec![
            Case {
                name: "20% off pizzas only",
                rules: vec![rule(
                    "P",
                    PromotionKind::PercentOff { percent_off: 20 },
                    category("PIZZA"),
                )],
                units: vec![pz(0, 8900), pz(0, 8900), dr(1, 800)],
                total: 1780 * 2,
            },
            Case {
                name: "fixed price only lowers dearer units",
                rules: vec![rule(
                    "F",
                    PromotionKind::FixedPrice { price: Fen(5990) },
                    category("PIZZA"),
                )],
                units: vec![pz(0, 8900), pz(1, 5900)],
                total: 2910,
            },
            Case {
                name: "second item half price pairs dearest first",
                rules: vec![rule(
                    "S",
                    PromotionKind::SecondItem { percent_off: 50 },
                    category("DRINK"),
                )],
                units: vec![dr(0, 800), dr(1, 1500), dr(2, 1200)],
                // pair (1500, 1200): 600 off; 800 left alone
                total: 600,
            },
            Case {
                name: "second item with four units makes two pairs",
                rules: vec![rule(
                    "S",
                    PromotionKind::SecondItem { percent_off: 50 },
                    category("DRINK"),
                )],
                units: vec![dr(0, 800), dr(0, 800), dr(1, 1500), dr(1, 1500)],
                total: 750 + 400,
            },
            Case {
                name: "combo price bundles while the cart makes them up",
                rules: vec![rule(
                    "C",
                    PromotionKind::ComboPrice {
                        groups: vec![category("PIZZA"), category("DRINK")],
                        price: Fen(8000),
                    },
                    Scope::default(),
                )],
                units: vec![pz(0, 8900), pz(0, 8900), dr(1, 800)],
                total: 1700,
            },
            Case {
                name: "combo price that would cost more is not applied",
                rules: vec![rule(
                    "C",
                    PromotionKind::ComboPrice {
                        groups: vec![category("PIZZA"), category("DRINK")],
                        price: Fen(10000),
                    },
                    Scope::default(),
                )],
                units: vec![pz(0, 8900), dr(1, 800)],
                total: 0,
            },
            Case {
                name: "a unit takes one rule: the first by sort wins",
                rules: vec![
                    rule(
                        "A",
                        PromotionKind::PercentOff { percent_off: 10 },
                        category("PIZZA"),
                    ),
                    rule(
                        "B",
                        PromotionKind::FixedPrice { price: Fen(5990) },
                        category("PIZZA"),
                    ),
                ],
                units: vec![pz(0, 8900)],
                total: 890,
            },
            Case {
                name: "full reduction after item rules",
                rules: vec![
                    rule(
                        "P",
                        PromotionKind::PercentOff { percent_off: 20 },
                        category("PIZZA"),
                    ),
                    rule(
                        "M",
                        PromotionKind::FullReduction {
                            threshold: Fen(15000),
                            off: Fen(2000),
                        },
                        Scope::default(),
                    ),
                ],
                // 17800 − 3560 = 14240 < 15000: no reduction
                units: vec![pz(0, 8900), pz(0, 8900)],
                total: 3560,
            },
            Case {
                name: "full reduction at exactly the threshold",
                rules: vec![rule(
                    "M",
                    PromotionKind::FullReduction {
                        threshold: Fen(17800),
                        off: Fen(2000),
                    },
                    Scope::default(),
                )],
                units: vec![pz(0, 8900), pz(0, 8900)],
                total: 2000,
            },
            Case {
                name: "no units, no discount",
                rules: vec![rule(
                    "M",
                    PromotionKind::FullReduction {
                        threshold: Fen(0),
                        off: Fen(2000),
                    },
                    Scope::default(),
                )],
                units: vec![],
                total: 0,
            },
        ];
        for case in cases {
            let refs: Vec<&Promotion> = case.rules.iter().collect();
            let applied = apply(&refs, &case.units);
            assert_eq!(applied.total(), Fen(case.total), "{}", case.name);
            let per_unit: Fen = applied
                .unit_discounts
                .iter()
                .flatten()
                .map(|(_, d)| *d)
                .sum();
            let order: Fen = applied.order_discounts.iter().map(|(_, d)| *d).sum();
            assert_eq!(per_unit + order, applied.total(), "{}", case.name);
        }
    }

    #[test]
    fn kinds_parse_from_the_seed_format() {
        let json = r#"{"ruleId":"R1","name":{"cn":"满减","en":"Spend"},
            "kind":{"type":"fullReduction","threshold":15000,"off":2000}}"#;
        let p: Promotion = serde_json::from_str(json).unwrap();
        assert_eq!(
            p.kind,
            PromotionKind::FullReduction {
                threshold: Fen(15000),
                off: Fen(2000)
            }
        );
        assert_eq!(p.kind.type_name(), "fullReduction");
    }
}
