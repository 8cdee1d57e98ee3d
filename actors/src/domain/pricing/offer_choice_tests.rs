//! The joint search against a brute-force reference: random carts, promotions and coupons
//! (seeded: `PRICING_ORACLE_SEED` replays one); every legal combination is priced and the
//! optimiser must find the cheapest, its breakdown must add up, nothing may go negative.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::domain::catalogue::Bilingual;
use crate::domain::pricing::breakdown::Breakdown;
use crate::domain::pricing::coupon_pricing::tests::offer;
use crate::domain::pricing::coupon_pricing::{coupon_entries, CouponEffect};
use crate::domain::pricing::promotion::{PromotionKind, Scope};
use crate::domain::pricing::promotion_choice::tests::{
    category, fee_rule, list_lines, random_rule, rule, units_of, CATEGORIES,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_coupon(rng: &mut StdRng, i: usize, rule_ids: &[String]) -> CouponOffer {
    let scope = if rng.gen_bool(0.5) {
        Scope::default()
    } else {
        category(CATEGORIES[rng.gen_range(0..CATEGORIES.len())])
    };
    let effect = match rng.gen_range(0..3) {
        0 => CouponEffect::CashOff {
            threshold: Fen(rng.gen_range(0..20) * 1000),
            off: Fen(rng.gen_range(1..50) * 100),
        },
        1 => CouponEffect::PercentOff {
            percent_off: rng.gen_range(5..=50),
            cap: Fen(rng.gen_range(0..4) * 1000),
            threshold: Fen(rng.gen_range(0..10) * 1000),
        },
        _ => CouponEffect::FreeDelivery {
            threshold: Fen(rng.gen_range(0..10) * 1000),
        },
    };
    // A few templates, so some coupons share one.
    let template = format!("T{}", rng.gen_range(0..4));
    let mut c = offer(&format!("C{i}"), &template, effect, scope);
    c.sort = rng.gen_range(0..3);
    c.valid_to = rng.gen_range(0..3);
    c.stack_group = match rng.gen_range(0..4) {
        0 => Some("S".into()),
        _ => None,
    };
    if rng.gen_bool(0.2) {
        c.excludes.push(format!("T{}", rng.gen_range(0..4)));
    }
    if !rule_ids.is_empty() && rng.gen_bool(0.2) {
        c.excludes
            .push(rule_ids[rng.gen_range(0..rule_ids.len())].clone());
    }
    // The same template prices alike everywhere: copy the first coupon's terms.
    c
}

/// Coupons of one template share its terms (as they do in the database).
fn same_terms(mut coupons: Vec<CouponOffer>) -> Vec<CouponOffer> {
    for i in 0..coupons.len() {
        if let Some(first) = coupons[..i]
            .iter()
            .find(|f| f.template_code == coupons[i].template_code)
            .cloned()
        {
            coupons[i] = CouponOffer {
                coupon_code: coupons[i].coupon_code.clone(),
                valid_to: coupons[i].valid_to,
                ..first
            };
        }
    }
    coupons
}

#[derive(Debug, Clone)]
enum Mode {
    Auto,
    NoCoupon,
    One(String),
}

/// (payable, rule ids, coupon templates) of the best legal combination, with the choices.
fn brute_force(
    rules: &[Promotion],
    coupons: &[CouponOffer],
    units: &[Unit],
    chosen_rule: Option<&str>,
    mode: &Mode,
    payable_of: &dyn Fn(Fen) -> Fen,
) -> (Fen, Vec<String>, Vec<String>) {
    let pool_coupons: Vec<&CouponOffer> = match mode {
        Mode::Auto => coupons.iter().collect(),
        Mode::NoCoupon => Vec::new(),
        Mode::One(code) => coupons.iter().filter(|c| &c.coupon_code == code).collect(),
    };
    type Priced<'a> = (Key<'a>, Applied, CouponsApplied, Vec<&'a str>, Vec<&'a str>);
    let mut all: Vec<Priced> = Vec::new();
    for rmask in 0u32..(1 << rules.len()) {
        let rs: Vec<&Promotion> = (0..rules.len())
            .filter(|i| rmask & (1 << i) != 0)
            .map(|i| &rules[i])
            .collect();
        for cmask in 0u32..(1 << pool_coupons.len()) {
            let cs: Vec<&CouponOffer> = (0..pool_coupons.len())
                .filter(|i| cmask & (1 << i) != 0)
                .map(|i| pool_coupons[i])
                .collect();
            if !legal(&rs, &cs) {
                continue;
            }
            let (payable, applied, ca) = evaluate_offers(&rs, &cs, units, payable_of);
            let key = offers_key(payable, rs.iter().copied(), cs.iter().copied());
            let r_ids = rs.iter().map(|r| r.rule_id.as_str()).collect();
            let c_codes = cs.iter().map(|c| c.coupon_code.as_str()).collect();
            all.push((key, applied, ca, r_ids, c_codes));
        }
    }
    let best_of = |need_rule: Option<&str>, need_coupon: Option<&str>| {
        all.iter()
            .filter(|p| need_rule.is_none_or(|r| p.3.contains(&r)))
            .filter(|p| need_coupon.is_none_or(|c| p.4.contains(&c)))
            .min_by(|a, b| a.0.cmp(&b.0))
    };
    let forced_coupon: Option<&str> = match mode {
        Mode::One(c) => Some(c.as_str()),
        _ => None,
    };
    let forced_rule = chosen_rule.filter(|r| {
        let rule = rules.iter().find(|x| &x.rule_id == r).unwrap();
        let saves = apply(&[rule], units).total() > Fen::ZERO;
        let excluded = forced_coupon.is_some_and(|c| {
            coupons
                .iter()
                .find(|x| x.coupon_code == c)
                .unwrap()
                .excludes_rule(r)
        });
        saves && !excluded
    });
    let first = best_of(forced_rule, forced_coupon).unwrap();
    let kept_rule = forced_rule.filter(|r| saved_by(&first.1, r) > Fen::ZERO);
    let kept_coupon = forced_coupon.filter(|c| first.2.saved_by(c) > Fen::ZERO);
    let best = best_of(kept_rule, kept_coupon).unwrap();
    let ((payable, _, r, c), ..) = best.clone();
    (
        payable,
        r.into_iter().map(|(_, id)| id.to_string()).collect(),
        c.into_iter().map(|(_, t)| t.to_string()).collect(),
    )
}

fn check(
    rules: &[Promotion],
    coupons: &[CouponOffer],
    lines: &[(&str, i64, u32)],
    chosen_rule: Option<&str>,
    mode: &Mode,
    fee: (i64, i64),
) -> Option<String> {
    let units = units_of(lines);
    let payable_of = fee_rule(fee.0, fee.1);
    let rule_refs: Vec<&Promotion> = rules.iter().collect();
    let coupon_refs: Vec<&CouponOffer> = coupons.iter().collect();
    let chosen_rules: Vec<String> = chosen_rule.into_iter().map(String::from).collect();
    let set: Vec<String> = match mode {
        Mode::One(c) => vec![c.clone()],
        _ => Vec::new(),
    };
    let choice = match mode {
        Mode::Auto => None,
        _ => Some(set.as_slice()),
    };
    let d = decide_offers(
        &rule_refs,
        &coupon_refs,
        &units,
        &chosen_rules,
        choice,
        &payable_of,
    );
    let (want, want_rules, want_templates) =
        brute_force(rules, coupons, &units, chosen_rule, mode, &payable_of);
    let mut got_rules: Vec<(i32, String)> = d
        .picked
        .iter()
        .map(|r| (r.sort, r.rule_id.clone()))
        .collect();
    got_rules.sort();
    let got_rules: Vec<String> = got_rules.into_iter().map(|(_, id)| id).collect();
    let mut got_templates: Vec<(i32, String)> = d
        .coupons
        .iter()
        .map(|c| (c.sort, c.template_code.clone()))
        .collect();
    got_templates.sort();
    let got_templates: Vec<String> = got_templates.into_iter().map(|(_, t)| t).collect();
    if (d.payable, &got_rules, &got_templates) != (want, &want_rules, &want_templates) {
        return Some(format!(
            "payable {} {got_rules:?} {got_templates:?}, the reference {want} {want_rules:?} {want_templates:?}",
            d.payable
        ));
    }
    if !legal(&d.picked, &d.coupons) {
        return Some("an illegal combination".into());
    }
    // The breakdown adds up to the fen, and nothing is negative.
    let products: Fen = units.iter().map(|u| u.price).sum();
    let after = products - d.applied.total();
    let fee_charged = payable_of(after) - after;
    let unit_line_ids: Vec<String> = units.iter().map(|u| format!("l{}", u.line)).collect();
    let entries = coupon_entries(&d.coupons_applied, &d.coupons, &unit_line_ids);
    let breakdown = Breakdown::build(
        list_lines(lines),
        &unit_line_ids,
        &d.applied,
        &|id| rules.iter().find(|r| r.rule_id == id),
        Fen(fee.0),
        fee_charged,
        after + fee_charged,
    )
    .with_coupons(
        Vec::new(),
        entries,
        d.coupons_applied.delivery_waived,
        d.payable,
    );
    if let Some(wrong) = breakdown.inconsistency() {
        return Some(format!("breakdown: {wrong}"));
    }
    let left = crate::domain::pricing::coupon_pricing::after_promotions(&units, &d.applied);
    for (l, off) in left.iter().zip(&d.coupons_applied.unit_discounts) {
        if *l - off.iter().map(|(_, d)| *d).sum() < Fen::ZERO {
            return Some("a unit below zero".into());
        }
    }
    // Every coupon: applied with no reason, or left out with one.
    for (c, o) in coupons.iter().zip(&d.coupon_outcomes) {
        if o.applied == o.left_out.is_some() {
            return Some(format!(
                "{}: applied {} but {:?}",
                c.coupon_code, o.applied, o.left_out
            ));
        }
        if let Some(CouponLeftOut::Mutex { by, .. }) = &o.left_out {
            let by_coupon = d
                .coupons
                .iter()
                .any(|p| &p.coupon_code == by && p.conflicts_with(c));
            let by_rule = d
                .picked
                .iter()
                .any(|r| &r.rule_id == by && c.excludes_rule(by));
            if !by_coupon && !by_rule {
                return Some(format!("{}: mutex with {by}, not applied", c.coupon_code));
            }
        }
    }
    None
}

#[test]
fn the_joint_optimiser_agrees_with_brute_force() {
    let seed: u64 = std::env::var("PRICING_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_125);
    let mut rng = StdRng::seed_from_u64(seed);
    let cases = 3000;
    let mut mismatches = Vec::new();
    for case in 0..cases {
        let rules: Vec<Promotion> = (0..rng.gen_range(0..=4))
            .map(|i| random_rule(&mut rng, i))
            .collect();
        let rule_ids: Vec<String> = rules.iter().map(|r| r.rule_id.clone()).collect();
        let coupons = same_terms(
            (0..rng.gen_range(0..=5))
                .map(|i| random_coupon(&mut rng, i, &rule_ids))
                .collect(),
        );
        let lines: Vec<(&str, i64, u32)> = (0..rng.gen_range(0..=4))
            .map(|_| {
                (
                    CATEGORIES[rng.gen_range(0..3)],
                    rng.gen_range(1..120) * 100 - rng.gen_range(0..2) * 10,
                    rng.gen_range(1..=3),
                )
            })
            .collect();
        let chosen = (!rules.is_empty() && rng.gen_bool(0.3))
            .then(|| rules[rng.gen_range(0..rules.len())].rule_id.clone());
        let mode = match rng.gen_range(0..5) {
            0 => Mode::NoCoupon,
            1 if !coupons.is_empty() => {
                Mode::One(coupons[rng.gen_range(0..coupons.len())].coupon_code.clone())
            }
            _ => Mode::Auto,
        };
        let fee = match rng.gen_range(0..3) {
            0 => (0, 0),
            1 => (600, 0),
            _ => (600, rng.gen_range(5..25) * 1000),
        };
        if let Some(wrong) = check(&rules, &coupons, &lines, chosen.as_deref(), &mode, fee) {
            mismatches.push(format!(
                "case {case}: {wrong}\n  rules {rules:?}\n  coupons {coupons:?}\n  lines {lines:?} chosen {chosen:?} mode {mode:?} fee {fee:?}"
            ));
        }
    }
    println!(
        "joint pricing oracle: {cases} carts × promotions × coupons (seed {seed}), {} mismatches",
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first:\n{}",
        mismatches.len(),
        mismatches[0]
    );
}

fn names<'a>(d: &'a OfferDecision<'a>) -> (Vec<&'a str>, Vec<&'a str>) {
    (
        d.picked.iter().map(|r| r.rule_id.as_str()).collect(),
        d.coupons.iter().map(|c| c.coupon_code.as_str()).collect(),
    )
}

fn cash(threshold: i64, off: i64) -> CouponEffect {
    CouponEffect::CashOff {
        threshold: Fen(threshold),
        off: Fen(off),
    }
}

#[test]
fn coupons_and_promotions_together_table() {
    let pizza20 = rule(
        "P20",
        PromotionKind::PercentOff { percent_off: 20 },
        category("PIZZA"),
        0,
        None,
    );
    let units = units_of(&[("PIZZA", 10900, 1)]);
    let none = fee_rule(0, 0);

    // 满100减20 is reached only without the pizza deal: ¥21.80 off beats ¥20 off, so the
    // promotion wins and the coupon says what is missing.
    let c100 = offer("C100", "T100", cash(10000, 2000), Scope::default());
    let rules = [pizza20.clone()];
    let refs: Vec<&Promotion> = rules.iter().collect();
    let d = decide_offers(&refs, &[&c100], &units, &[], None, &none);
    assert_eq!(names(&d), (vec!["P20"], vec![]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::BelowThreshold { gap: Fen(1280) })
    );

    // A coupon that excludes the promotion and saves more takes its place.
    let mut c50 = offer("C50", "T50", cash(10000, 5000), Scope::default());
    c50.excludes = vec!["P20".into()];
    let d = decide_offers(&refs, &[&c50], &units, &[], None, &none);
    assert_eq!(names(&d), (vec![], vec!["C50"]));
    assert_eq!(
        d.outcomes[0].left_out,
        Some(LeftOut::Mutex {
            by: "C50".into(),
            chosen: false
        })
    );
    // The customer chose the promotion: the coupon gives way and says so.
    let d = decide_offers(&refs, &[&c50], &units, &["P20".into()], None, &none);
    assert_eq!(names(&d), (vec!["P20"], vec![]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::BelowThreshold { gap: Fen(1280) }),
        "its threshold is measured after the chosen promotion"
    );

    // Two coupons of a stacking group: the better one, the other names it.
    let mut a = offer("A", "TA", cash(0, 1000), Scope::default());
    let mut b = offer("B", "TB", cash(0, 1500), Scope::default());
    a.stack_group = Some("G".into());
    b.stack_group = Some("G".into());
    let d = decide_offers(&[], &[&a, &b], &units, &[], None, &none);
    assert_eq!(names(&d), (vec![], vec!["B"]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::Mutex {
            by: "B".into(),
            chosen: false
        })
    );
    // Chosen: exactly the customer's; the other is not chosen... and conflicts with it.
    let d = decide_offers(&[], &[&a, &b], &units, &[], Some(&["A".into()]), &none);
    assert_eq!(names(&d), (vec![], vec!["A"]));
    assert_eq!(
        d.coupon_outcomes[1].left_out,
        Some(CouponLeftOut::Mutex {
            by: "A".into(),
            chosen: true
        })
    );
    // No coupon at all.
    let d = decide_offers(&[], &[&a, &b], &units, &[], Some(&[]), &none);
    assert_eq!(names(&d), (vec![], vec![]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::NotChosen)
    );

    // One per template: the coupon expiring first is used, the other names it.
    let mut early = offer("E", "T", cash(0, 1000), Scope::default());
    let late = offer("L", "T", cash(0, 1000), Scope::default());
    early.valid_to = 1;
    let d = decide_offers(&[], &[&late, &early], &units, &[], None, &none);
    assert_eq!(names(&d), (vec![], vec!["E"]));

    // Free delivery only when a fee is to pay: from ¥100 delivery is free anyway.
    let free = offer(
        "F",
        "TF",
        CouponEffect::FreeDelivery {
            threshold: Fen::ZERO,
        },
        Scope::default(),
    );
    let d = decide_offers(&[], &[&free], &units, &[], None, &fee_rule(600, 10000));
    assert_eq!(names(&d), (vec![], vec![]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::NotBetter)
    );
    let d = decide_offers(&[], &[&free], &units, &[], None, &fee_rule(600, 0));
    assert_eq!(names(&d), (vec![], vec!["F"]));
    assert_eq!(d.payable, Fen(10900));
    assert_eq!(d.coupons_applied.delivery_waived, Fen(600));

    // A coupon item is in every combination while it applies, and adds its price.
    let item = offer(
        "I",
        "TI",
        CouponEffect::Item {
            threshold: Fen(5000),
            list: Fen(2900),
            price: Fen(990),
        },
        Scope::default(),
    );
    let d = decide_offers(&[], &[&item], &units, &[], None, &none);
    assert_eq!(names(&d), (vec![], vec!["I"]));
    assert_eq!(d.payable, Fen(10900 + 990));
    let small = units_of(&[("DRINK", 800, 1)]);
    let d = decide_offers(&[], &[&item], &small, &[], None, &none);
    assert_eq!(names(&d), (vec![], vec![]));
    assert_eq!(
        d.coupon_outcomes[0].left_out,
        Some(CouponLeftOut::BelowThreshold { gap: Fen(4200) })
    );
    let _ = Bilingual::default();
}
