//! What one set of coupons takes off, case by case, and which coupons never go together.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::domain::pricing::promotion::{apply, Promotion, PromotionKind};
use crate::domain::pricing::promotion_choice::tests::{category, rule, units_of};

pub(crate) fn offer(code: &str, template: &str, effect: CouponEffect, scope: Scope) -> CouponOffer {
    CouponOffer {
        coupon_code: code.into(),
        template_code: template.into(),
        name: Bilingual {
            cn: format!("券{template}"),
            en: format!("Coupon {template}"),
        },
        kind: match effect {
            CouponEffect::CashOff { .. } => "cashOff",
            CouponEffect::PercentOff { .. } => "percentOff",
            CouponEffect::FreeDelivery { .. } => "freeDelivery",
            CouponEffect::Item { .. } => "productAtPrice",
        },
        effect,
        scope,
        stack_group: None,
        excludes: Vec::new(),
        sort: 0,
        valid_to: i64::MAX,
    }
}

fn cash(threshold: i64, off: i64) -> CouponEffect {
    CouponEffect::CashOff {
        threshold: Fen(threshold),
        off: Fen(off),
    }
}

#[test]
fn coupons_table() {
    struct Case {
        name: &'static str,
        rules: Vec<Promotion>,
        coupons: Vec<CouponOffer>,
        lines: Vec<(&'static str, i64, u32)>,
        fee: i64,
        /// (units off, fee waived, items charged, items off)
        want: (i64, i64, i64, i64),
    }
    let pizza20 = rule(
        "P20",
        PromotionKind::PercentOff { percent_off: 20 },
        category("PIZZA"),
        0,
        None,
    );
    let cases = vec![
        Case {
            name: "满100减20 reached",
            rules: vec![],
            coupons: vec![offer("C1", "T1", cash(10000, 2000), Scope::default())],
            lines: vec![("PIZZA", 8900, 1), ("DRINK", 1200, 1)],
            fee: 0,
            want: (2000, 0, 0, 0),
        },
        Case {
            name: "满100减20 missed once the promotion is off (10900 → 8720)",
            rules: vec![pizza20.clone()],
            coupons: vec![offer("C1", "T1", cash(10000, 2000), Scope::default())],
            lines: vec![("PIZZA", 10900, 1)],
            fee: 0,
            want: (0, 0, 0, 0),
        },
        Case {
            name: "8折 pizzas, capped at ¥30",
            rules: vec![],
            coupons: vec![offer(
                "C2",
                "T2",
                CouponEffect::PercentOff {
                    percent_off: 20,
                    cap: Fen(3000),
                    threshold: Fen::ZERO,
                },
                category("PIZZA"),
            )],
            lines: vec![("PIZZA", 10900, 2), ("DRINK", 800, 1)],
            fee: 0,
            want: (3000, 0, 0, 0),
        },
        Case {
            name: "percent off on what the promotion left",
            rules: vec![pizza20.clone()],
            coupons: vec![offer(
                "C2",
                "T2",
                CouponEffect::PercentOff {
                    percent_off: 10,
                    cap: Fen::ZERO,
                    threshold: Fen::ZERO,
                },
                category("PIZZA"),
            )],
            lines: vec![("PIZZA", 10000, 1)],
            fee: 0,
            want: (800, 0, 0, 0),
        },
        Case {
            name: "cash off never takes more than its items",
            rules: vec![],
            coupons: vec![offer("C1", "T1", cash(0, 5000), category("DRINK"))],
            lines: vec![("DRINK", 800, 2), ("PIZZA", 8900, 1)],
            fee: 0,
            want: (1600, 0, 0, 0),
        },
        Case {
            name: "scoped coupon with none of its items",
            rules: vec![],
            coupons: vec![offer("C1", "T1", cash(0, 500), category("SIDE"))],
            lines: vec![("DRINK", 800, 2)],
            fee: 0,
            want: (0, 0, 0, 0),
        },
        Case {
            name: "free delivery waives the fee",
            rules: vec![],
            coupons: vec![offer(
                "C3",
                "T3",
                CouponEffect::FreeDelivery {
                    threshold: Fen(3000),
                },
                Scope::default(),
            )],
            lines: vec![("PIZZA", 8900, 1)],
            fee: 600,
            want: (0, 600, 0, 0),
        },
        Case {
            name: "two coupons: the second takes from what the first left",
            rules: vec![],
            coupons: vec![
                offer("C1", "T1", cash(0, 700), category("DRINK")),
                offer("C4", "T4", cash(0, 700), category("DRINK")),
            ],
            lines: vec![("DRINK", 1000, 1)],
            fee: 0,
            want: (1000, 0, 0, 0),
        },
        Case {
            name: "a ¥9.90 coupon item over its threshold",
            rules: vec![],
            coupons: vec![offer(
                "C5",
                "T5",
                CouponEffect::Item {
                    threshold: Fen(5000),
                    list: Fen(2900),
                    price: Fen(990),
                },
                Scope::default(),
            )],
            lines: vec![("PIZZA", 8900, 1)],
            fee: 0,
            want: (0, 0, 990, 1910),
        },
        Case {
            name: "an exchange coupon needs no other item",
            rules: vec![],
            coupons: vec![offer(
                "C6",
                "T6",
                CouponEffect::Item {
                    threshold: Fen::ZERO,
                    list: Fen(1200),
                    price: Fen::ZERO,
                },
                Scope::default(),
            )],
            lines: vec![],
            fee: 0,
            want: (0, 0, 0, 1200),
        },
    ];
    for case in cases {
        let units = units_of(&case.lines);
        let refs: Vec<&Promotion> = case.rules.iter().collect();
        let promotions = apply(&refs, &units);
        let coupons: Vec<&CouponOffer> = case.coupons.iter().collect();
        let got = apply_coupons(&coupons, &units, &promotions, Fen(case.fee));
        assert_eq!(
            (
                got.units_off().0,
                got.delivery_waived.0,
                got.items_charged().0,
                got.items_off().0
            ),
            case.want,
            "{}",
            case.name
        );
        // Nothing negative: every unit keeps at least 0 after promotions and coupons.
        let left = after_promotions(&units, &promotions);
        for (l, d) in left.iter().zip(&got.unit_discounts) {
            let off: Fen = d.iter().map(|(_, d)| *d).sum();
            assert!(*l - off >= Fen::ZERO, "{}", case.name);
        }
    }
}

#[test]
fn after_promotions_adds_up_to_the_fen() {
    let units = units_of(&[("PIZZA", 8900, 1), ("DRINK", 799, 3)]);
    let rules = [rule(
        "M",
        PromotionKind::FullReduction {
            threshold: Fen(5000),
            off: Fen(1001),
        },
        Scope::default(),
        0,
        None,
    )];
    let refs: Vec<&Promotion> = rules.iter().collect();
    let applied = apply(&refs, &units);
    let left: Fen = after_promotions(&units, &applied).into_iter().sum();
    assert_eq!(left, Fen(8900 + 3 * 799 - 1001));
}

#[test]
fn stacking_table() {
    let base = |code: &str, template: &str| offer(code, template, cash(0, 100), Scope::default());
    let grouped = |code: &str, template: &str, group: &str| CouponOffer {
        stack_group: Some(group.into()),
        ..base(code, template)
    };
    let excluding = |code: &str, template: &str, what: &str| CouponOffer {
        excludes: vec![what.into()],
        ..base(code, template)
    };
    let cases = [
        (
            "two of one template",
            base("a", "T1"),
            base("b", "T1"),
            true,
        ),
        (
            "different templates",
            base("a", "T1"),
            base("b", "T2"),
            false,
        ),
        (
            "one stacking group",
            grouped("a", "T1", "G"),
            grouped("b", "T2", "G"),
            true,
        ),
        (
            "different groups",
            grouped("a", "T1", "G"),
            grouped("b", "T2", "H"),
            false,
        ),
        (
            "excluded from one side",
            excluding("a", "T1", "T2"),
            base("b", "T2"),
            true,
        ),
        (
            "excluded from the other side",
            base("a", "T1"),
            excluding("b", "T2", "T1"),
            true,
        ),
        (
            "excluding someone else",
            excluding("a", "T1", "T9"),
            base("b", "T2"),
            false,
        ),
    ];
    for (name, a, b, conflict) in cases {
        assert_eq!(a.conflicts_with(&b), conflict, "{name}");
        assert_eq!(b.conflicts_with(&a), conflict, "{name} (symmetric)");
    }
    let c = excluding("a", "T1", "RULE7");
    assert!(c.excludes_rule("RULE7") && !c.excludes_rule("RULE8"));
}
