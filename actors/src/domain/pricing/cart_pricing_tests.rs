//! Whole-cart pricing on the demo chain, at the integration tests' clock: Monday 2026-11-23
//! 12:00 China time. Each case names its cart and the figures a customer would check by hand.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::domain::cart::item::Selection;
use crate::domain::cart::Cart;
use crate::domain::catalogue::seed::demo_catalogue;
use crate::domain::catalogue::Catalogue;
use std::sync::OnceLock;

const MONDAY_NOON: i64 = 1_795_406_400_000;
const HOUR: i64 = 3_600_000;
const TUESDAY_NOON: i64 = MONDAY_NOON + 24 * HOUR;

fn demo() -> &'static Catalogue {
    static DEMO: OnceLock<Catalogue> = OnceLock::new();
    DEMO.get_or_init(|| demo_catalogue().unwrap())
}

fn product(code: &str) -> Option<&'static Product> {
    demo().products.iter().find(|p| p.product_code == code)
}

fn category(code: &str) -> Option<&'static Category> {
    demo().categories.iter().find(|c| c.category_code == code)
}

fn store(code: &str) -> &'static Store {
    demo().stores.iter().find(|s| s.store_code == code).unwrap()
}

/// A cart of (product, size, quantity) lines.
fn cart(lines: &[(&str, Option<&str>, u32)]) -> Cart {
    let mut cart = Cart::default();
    for (i, (code, size, qty)) in lines.iter().enumerate() {
        let p = product(code).unwrap();
        let sel = Selection {
            size_code: size.map(Into::into),
            combo: if p.product_type == 2 {
                p.combo_rounds
                    .iter()
                    .map(|r| {
                        let picks = r
                            .choices
                            .iter()
                            .filter(|c| c.is_default)
                            .take(r.choose_num as usize)
                            .map(crate::domain::cart::item::choice_key)
                            .collect();
                        (r.round_code.clone(), picks)
                    })
                    .collect()
            } else {
                Default::default()
            },
            ..Selection::default()
        };
        let sel = crate::domain::cart::item::normalize(p, &sel).unwrap();
        cart.add(code, sel, *qty, p.min_sale, format!("l{i}"), 0)
            .unwrap();
    }
    cart
}

struct Case {
    name: &'static str,
    store: &'static str,
    order_type: u8,
    at: i64,
    sold_out: &'static [&'static str],
    lines: &'static [(&'static str, Option<&'static str>, u32)],
    chosen: &'static [&'static str],
    /// (priceOfProduct, discount, deliveryFeeAfterPE, orderAmount) in fen.
    want: (i64, i64, i64, i64),
    /// Rules that saved something.
    applied: &'static [&'static str],
    statuses: &'static [LineStatus],
}

use LineStatus::{Expired, OffTime, SoldOut, Valid};

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "one side, delivery below the free threshold pays the fee",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("SD001", None, 1)],
            chosen: &[],
            want: (3200, 0, 600, 3800),
            applied: &[],
            statuses: &[Valid],
        },
        Case {
            name: "pickup never pays a delivery fee",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("SD001", None, 1)],
            chosen: &[],
            want: (3200, 0, 0, 3200),
            applied: &[],
            statuses: &[Valid],
        },
        Case {
            name: "pizza 20% off (R002) and free delivery above ¥99",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("14"), 1), ("SD002", None, 1)],
            // 10900 + 1900 = 12800; 20% of 10900 = 2180 → 10620 ≥ 9900: free delivery
            chosen: &[],
            want: (12800, 2180, 0, 10620),
            applied: &["R002"],
            statuses: &[Valid, Valid],
        },
        Case {
            name: "the discount can push the cart below the free threshold",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("12"), 1), ("DR001", None, 2)],
            // 8900 + 1600 = 10500; pizza −1780; drinks second half price −400 → 8320 < 9900
            chosen: &[],
            want: (10500, 2180, 600, 8920),
            applied: &["R002", "R003"],
            statuses: &[Valid, Valid],
        },
        Case {
            name: "Tuesday: the ¥59.9 deal beats 20% off in their mutex group",
            store: "SH001",
            order_type: 1,
            at: TUESDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("12"), 1)],
            // R001: 8900 → 5990 saves 2910; R002 saves 1780
            chosen: &[],
            want: (8900, 2910, 0, 5990),
            applied: &["R001"],
            statuses: &[Valid],
        },
        Case {
            name: "Tuesday: the customer may choose the smaller deal",
            store: "SH001",
            order_type: 1,
            at: TUESDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("12"), 1)],
            chosen: &["R002"],
            want: (8900, 1780, 0, 7120),
            applied: &["R002"],
            statuses: &[Valid],
        },
        Case {
            name: "9-inch pizza with wings at the combo price, the rest 20% off",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PZ002", Some("9"), 2), ("SD001", None, 1)],
            // R004: 6500 + 3200 → 7900 saves 1800; the second pizza 20% off: 1300
            chosen: &[],
            want: (16200, 3100, 0, 13100),
            applied: &["R004", "R002"],
            statuses: &[Valid, Valid],
        },
        Case {
            name: "spend ¥200 (R006) wins the order-level group over ¥150 (R005)",
            store: "SH003",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PA003", None, 5)],
            // 22500, PASTA lunch 10% off (R009, Monday 12:00): −2250 → 20250 ≥ 20000: −4000
            chosen: &[],
            want: (22500, 6250, 0, 16250),
            applied: &["R009", "R006"],
            statuses: &[Valid],
        },
        Case {
            name: "the customer may choose the delivery reduction instead",
            store: "SH003",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PA003", None, 5)],
            chosen: &["R005"],
            want: (22500, 4250, 0, 18250),
            applied: &["R009", "R005"],
            statuses: &[Valid],
        },
        Case {
            name: "desserts 30% off only in east-group stores",
            store: "SH002",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("DS001", None, 1)],
            chosen: &[],
            want: (2200, 660, 0, 1540),
            applied: &["R007"],
            statuses: &[Valid],
        },
        Case {
            name: "no dessert deal at the flagship (another group)",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("DS001", None, 1)],
            chosen: &[],
            want: (2200, 0, 0, 2200),
            applied: &[],
            statuses: &[Valid],
        },
        Case {
            name: "the lunch pasta deal is over at 15:00",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON + 3 * HOUR,
            sold_out: &[],
            lines: &[("PA001", None, 1)],
            chosen: &[],
            want: (3900, 0, 0, 3900),
            applied: &[],
            statuses: &[Valid],
        },
        Case {
            name: "the ended National Day deal never applies",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("CB001", None, 1)],
            chosen: &[],
            want: (13900, 0, 0, 13900),
            applied: &[],
            statuses: &[Valid],
        },
        Case {
            name: "a sold-out item stays, disabled, and is not charged",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &["SD001"],
            lines: &[("SD001", None, 1), ("SD002", None, 1)],
            chosen: &[],
            want: (1900, 0, 0, 1900),
            applied: &[],
            statuses: &[SoldOut, Valid],
        },
        Case {
            name: "a combo holding a sold-out item is sold out too",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &["SD002"],
            lines: &[("CB001", None, 1)],
            chosen: &[],
            want: (0, 0, 0, 0),
            applied: &[],
            statuses: &[SoldOut],
        },
        Case {
            name: "the lunch set is not on sale at 15:00",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON + 3 * HOUR,
            sold_out: &[],
            lines: &[("CB004", None, 1)],
            chosen: &[],
            want: (0, 0, 0, 0),
            applied: &[],
            statuses: &[OffTime],
        },
        Case {
            name: "the expired limited pizza is expired",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("LM001", Some("9"), 1)],
            chosen: &[],
            want: (0, 0, 0, 0),
            applied: &[],
            statuses: &[Expired],
        },
        Case {
            name: "the delivery-only bucket is not for pickup",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("SD010", None, 1)],
            chosen: &[],
            want: (0, 0, 0, 0),
            applied: &[],
            statuses: &[Expired],
        },
        Case {
            name: "a hidden product is never charged",
            store: "SH001",
            order_type: 1,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("SD011", None, 1)],
            chosen: &[],
            want: (0, 0, 0, 0),
            applied: &[],
            statuses: &[Expired],
        },
        Case {
            name:
                "issue 20: ¥20 off over ¥150 is reached after pizzas 20% off, ¥40 over ¥200 is not",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("14"), 2)],
            // 21800 − 4360 = 17440: ≥ 15000 (R005 −2000), < 20000 (R006 needs ¥25.60 more)
            chosen: &[],
            want: (21800, 6360, 0, 15440),
            applied: &["R002", "R005"],
            statuses: &[Valid],
        },
        Case {
            name: "a choice that cannot save anything is not honoured",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("PZ001", Some("14"), 2)],
            chosen: &["R006"],
            want: (21800, 6360, 0, 15440),
            applied: &["R002", "R005"],
            statuses: &[Valid],
        },
        Case {
            name: "three colas: one pair at half price, and the fee below the threshold",
            store: "SH001",
            order_type: 0,
            at: MONDAY_NOON,
            sold_out: &[],
            lines: &[("DR001", None, 3)],
            // 2400, pairs (800, 800): −400, 2000 + 600 fee
            chosen: &[],
            want: (2400, 400, 600, 2600),
            applied: &["R003"],
            statuses: &[Valid],
        },
    ]
}

#[test]
fn cart_pricing_table() {
    for case in cases() {
        let cart = {
            let mut c = cart(case.lines);
            c.chosen_rules = case.chosen.iter().map(|s| s.to_string()).collect();
            c
        };
        let sold_out: Vec<String> = case.sold_out.iter().map(|s| s.to_string()).collect();
        let input = PricingInput {
            store: store(case.store),
            order_type: case.order_type,
            at: case.at,
            sold_out: &sold_out,
            product: &|c| product(c),
            category: &|c| category(c),
            promotions: &demo().promotions,
            coupons: None,
        };
        let priced = price_cart(&cart, &input);
        let got = (
            priced.price_of_product.0,
            priced.discount.0,
            priced.delivery_fee_after.0,
            priced.order_amount.0,
        );
        assert_eq!(got, case.want, "{}", case.name);
        let applied: Vec<&str> = priced
            .rules
            .iter()
            .filter(|r| r.saved > Fen::ZERO)
            .map(|r| r.rule.rule_id.as_str())
            .collect();
        let mut want_applied = case.applied.to_vec();
        want_applied.sort();
        let mut applied_sorted = applied.clone();
        applied_sorted.sort();
        assert_eq!(applied_sorted, want_applied, "{}", case.name);
        let statuses: Vec<LineStatus> = priced.lines.iter().map(|l| l.status).collect();
        assert_eq!(statuses, case.statuses, "{}", case.name);
        // Every fen of discount is on some line, and no line goes below zero.
        let on_lines: Fen = priced.lines.iter().map(|l| l.discount).sum();
        assert_eq!(on_lines, priced.discount, "{}", case.name);
        assert!(
            priced.lines.iter().all(|l| l.discount <= l.count),
            "{}",
            case.name
        );
        assert_eq!(
            priced.order_amount,
            priced.price_after_promotions + priced.delivery_fee_after,
            "{}",
            case.name
        );
        // The breakdown a person checks adds up to the same payable.
        assert_eq!(priced.breakdown.inconsistency(), None, "{}", case.name);
        assert_eq!(
            priced.breakdown.payable, priced.order_amount,
            "{}",
            case.name
        );
        assert_eq!(
            priced.breakdown.discount_amount, priced.discount,
            "{}",
            case.name
        );
        // Every rule says what it did or why not; a choice is "chosen" only while it saves.
        for r in &priced.rules {
            assert_eq!(
                r.saved > Fen::ZERO,
                r.left_out.is_none(),
                "{} {}",
                case.name,
                r.rule.rule_id
            );
            assert!(!r.honoured() || r.saved > Fen::ZERO, "{}", case.name);
        }
    }
}

#[test]
fn the_issue_cart_says_how_much_more_for_the_bigger_reduction() {
    use crate::domain::pricing::breakdown::DiscountLevel;
    use crate::domain::pricing::promotion_choice::LeftOut;
    let cart = cart(&[("PZ001", Some("14"), 2)]);
    let input = PricingInput {
        store: store("SH001"),
        order_type: 0,
        at: MONDAY_NOON,
        sold_out: &[],
        product: &|c| product(c),
        category: &|c| category(c),
        promotions: &demo().promotions,
        coupons: None,
    };
    let priced = price_cart(&cart, &input);
    let reason = |id: &str| {
        priced
            .rules
            .iter()
            .find(|r| r.rule.rule_id == id)
            .unwrap()
            .left_out
            .clone()
    };
    assert_eq!(
        reason("R006"),
        Some(LeftOut::BelowThreshold { gap: Fen(2560) })
    );
    assert_eq!(reason("R001"), Some(LeftOut::NotEffective), "Tuesdays only");
    assert_eq!(reason("R007"), Some(LeftOut::NotHere), "east stores only");
    assert_eq!(reason("R003"), Some(LeftOut::NoItems));
    let b = &priced.breakdown;
    assert_eq!(b.lines.len(), 1);
    let line = &b.lines[0];
    assert_eq!(
        (line.unit_price, line.quantity, line.amount),
        (Fen(10900), 2, Fen(21800))
    );
    assert_eq!(line.spec.cn, "14英寸 经典手拍");
    let discounts: Vec<(&str, DiscountLevel, Fen, usize)> = b
        .discounts
        .iter()
        .map(|d| (d.rule_id.as_str(), d.level, d.amount, d.line_ids.len()))
        .collect();
    assert_eq!(
        discounts,
        [
            ("R002", DiscountLevel::Line, Fen(4360), 1),
            ("R005", DiscountLevel::Order, Fen(2000), 0)
        ]
    );
}

#[test]
fn mutex_groups_list_competing_candidates() {
    let cart = cart(&[("PZ001", Some("12"), 1)]);
    let input = PricingInput {
        store: store("SH001"),
        order_type: 1,
        at: TUESDAY_NOON,
        sold_out: &[],
        product: &|c| product(c),
        category: &|c| category(c),
        promotions: &demo().promotions,
        coupons: None,
    };
    let priced = price_cart(&cart, &input);
    assert_eq!(
        priced.mutex_groups,
        vec![vec!["R001".to_string(), "R002".to_string()]]
    );
    let r002 = priced
        .rules
        .iter()
        .find(|r| r.rule.rule_id == "R002")
        .unwrap();
    assert_eq!((r002.alone, r002.saved), (Fen(1780), Fen::ZERO));
}

#[test]
fn delivery_fee_table() {
    let mut s = store("SH001").clone();
    s.delivery_fee = Fen(600);
    s.free_delivery_threshold = Fen(9900);
    let cases = [
        (0, 9899, (600, 600, 1)),
        (0, 9900, (600, 0, 0)),
        (0, 0, (600, 0, 0)),
        (1, 100, (0, 0, 0)),
        (2, 100, (0, 0, 0)),
    ];
    for (order_type, products, (fee, after, diff)) in cases {
        assert_eq!(
            delivery_fee(&s, order_type, Fen(products)),
            (Fen(fee), Fen(after), Fen(diff)),
            "{order_type} {products}"
        );
    }
    s.free_delivery_threshold = Fen::ZERO;
    assert_eq!(
        delivery_fee(&s, 0, Fen(100000)),
        (Fen(600), Fen(600), Fen::ZERO)
    );
}
