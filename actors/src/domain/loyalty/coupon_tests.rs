#![allow(clippy::unwrap_used)]
use super::*;
use crate::domain::catalogue::{DateRange, TimeWindow, PICKUP};
use crate::domain::stores::hours::china_offset;
use chrono::TimeZone;

/// 2026-05-06 12:00 China time, a Wednesday.
fn noon() -> i64 {
    china_offset()
        .with_ymd_and_hms(2026, 5, 6, 12, 0, 0)
        .unwrap()
        .timestamp_millis()
}

fn bi(cn: &str, en: &str) -> Bilingual {
    Bilingual {
        cn: cn.into(),
        en: en.into(),
    }
}

fn template(kind: CouponKind) -> CouponTemplate {
    CouponTemplate {
        template_code: "T1".into(),
        name: bi("券", "Coupon"),
        kind,
        scope: Scope::default(),
        effective_rule: None,
        channels: vec![],
        stack_group: None,
        excludes: vec![],
        total_limit: None,
        per_user_limit: None,
        validity: Validity::AfterIssue { days: 7 },
        collectable: true,
        transferable: true,
        sort: 0,
    }
}

fn coupon() -> Coupon {
    Coupon {
        coupon_code: "C1".into(),
        template_code: "T1".into(),
        user_id: 1,
        status: CouponStatus::Issued,
        valid_from: noon() - DAY_MS,
        valid_to: noon() + DAY_MS,
        order_no: None,
        parent_code: None,
        issued_at: noon() - DAY_MS,
    }
}

fn unit(code: &str, category: &str, price: i64) -> Unit {
    Unit {
        line: 0,
        product_code: code.into(),
        category_code: category.into(),
        size_code: None,
        product_type: 1,
        price: Fen(price),
    }
}

fn cash(threshold: i64, off: i64) -> CouponKind {
    CouponKind::CashOff {
        threshold: Fen(threshold),
        off: Fen(off),
    }
}

struct Case {
    name: &'static str,
    template: CouponTemplate,
    coupon: Coupon,
    at: i64,
    channel: u16,
    order_type: u8,
    units: Vec<Unit>,
    want: Result<(), NotApplicable>,
}

fn case(name: &'static str, template: CouponTemplate, want: Result<(), NotApplicable>) -> Case {
    Case {
        name,
        template,
        coupon: coupon(),
        at: noon(),
        channel: 1,
        order_type: DELIVERY,
        units: vec![unit("P1", "pizza", 6000), unit("D1", "drink", 1000)],
        want,
    }
}

fn run(cases: Vec<Case>) {
    let on_sale = |code: &str| code != "SOLD_OUT";
    for c in cases {
        let ctx = CouponContext {
            now_ms: c.at,
            rule: RuleContext {
                at: crate::domain::stores::hours::china_time(c.at),
                store_code: "S001",
                store_group: "G1",
                order_type: c.order_type,
            },
            channel: c.channel,
            units: &c.units,
            product_on_sale: &on_sale,
        };
        assert_eq!(
            applicability(&c.template, &c.coupon, &ctx),
            c.want,
            "{}",
            c.name
        );
    }
}

fn with_rule(kind: CouponKind, rule: EffectiveRule) -> CouponTemplate {
    CouponTemplate {
        effective_rule: Some(rule),
        ..template(kind)
    }
}

#[test]
fn applicability_table() {
    use NotApplicable::*;
    let pizzas = CouponTemplate {
        scope: Scope {
            category_codes: vec!["pizza".into()],
            ..Default::default()
        },
        ..template(cash(10000, 2000))
    };
    let drinks_only = CouponTemplate {
        scope: Scope {
            category_codes: vec!["dessert".into()],
            ..Default::default()
        },
        ..template(cash(0, 500))
    };
    let mut cases = vec![
        case("threshold met exactly", template(cash(7000, 1000)), Ok(())),
        case(
            "gap to the threshold",
            template(cash(8200, 1000)),
            Err(BelowThreshold { gap: Fen(1200) }),
        ),
        case(
            "scoped units only count",
            pizzas,
            Err(BelowThreshold { gap: Fen(4000) }),
        ),
        case("nothing in scope", drinks_only, Err(NoItems)),
        case(
            "channel not listed",
            CouponTemplate {
                channels: vec![5],
                ..template(cash(0, 100))
            },
            Err(NotThisChannel),
        ),
        case(
            "channel listed",
            CouponTemplate {
                channels: vec![1, 5],
                ..template(cash(0, 100))
            },
            Ok(()),
        ),
        case(
            "other store",
            with_rule(
                cash(0, 100),
                EffectiveRule {
                    effective_stores: vec!["S009".into()],
                    ..Default::default()
                },
            ),
            Err(NotHere {
                order_types: vec![],
            }),
        ),
        case(
            "pickup-only coupon on a delivery order",
            with_rule(
                cash(0, 100),
                EffectiveRule {
                    order_types: vec![PICKUP],
                    ..Default::default()
                },
            ),
            Err(NotHere {
                order_types: vec![PICKUP],
            }),
        ),
        case(
            "lunch only, at noon",
            with_rule(
                cash(0, 100),
                EffectiveRule {
                    effective_time: Some(TimeWindow {
                        start: "11:00:00".into(),
                        end: "14:00:00".into(),
                    }),
                    ..Default::default()
                },
            ),
            Ok(()),
        ),
        case(
            "weekends only, on a Wednesday",
            with_rule(
                cash(0, 100),
                EffectiveRule {
                    effective_day_of_week: vec![6, 7],
                    ..Default::default()
                },
            ),
            Err(NotNow),
        ),
        case(
            "template campaign over",
            with_rule(
                cash(0, 100),
                EffectiveRule {
                    effective_date: Some(DateRange {
                        start: "2026-01-01".into(),
                        end: "2026-04-30".into(),
                    }),
                    ..Default::default()
                },
            ),
            Err(Expired),
        ),
        case(
            "free delivery on delivery",
            template(CouponKind::FreeDelivery {
                threshold: Fen(3000),
            }),
            Ok(()),
        ),
        case(
            "product at price, product on sale",
            template(CouponKind::ProductAtPrice {
                product_code: "SIDE".into(),
                price: Fen(990),
                threshold: Fen(5000),
            }),
            Ok(()),
        ),
        case(
            "product at price, sold out",
            template(CouponKind::ProductAtPrice {
                product_code: "SOLD_OUT".into(),
                price: Fen(990),
                threshold: Fen(0),
            }),
            Err(ProductUnavailable),
        ),
        case(
            "exchange needs no other items",
            template(CouponKind::ExchangeProduct {
                product_code: "DRINK".into(),
            }),
            Ok(()),
        ),
    ];
    // Cases that change the context rather than the template.
    let mut c = case(
        "free delivery refused on pickup",
        template(CouponKind::FreeDelivery { threshold: Fen(0) }),
        Err(NotHere {
            order_types: vec![DELIVERY],
        }),
    );
    c.order_type = PICKUP;
    cases.push(c);
    let mut c = case(
        "channel 30 never",
        template(cash(0, 100)),
        Err(NotThisChannel),
    );
    c.channel = NO_COUPON_CHANNEL;
    cases.push(c);
    let mut c = case("before valid_from", template(cash(0, 100)), Err(NotStarted));
    c.coupon.valid_from = noon() + 1;
    cases.push(c);
    let mut c = case(
        "at valid_to (exclusive)",
        template(cash(0, 100)),
        Err(Expired),
    );
    c.coupon.valid_to = noon();
    cases.push(c);
    let mut c = case("one ms before valid_to", template(cash(0, 100)), Ok(()));
    c.coupon.valid_to = noon() + 1;
    cases.push(c);
    let mut c = case("returned is usable again", template(cash(0, 100)), Ok(()));
    c.coupon.status = CouponStatus::Returned;
    cases.push(c);
    for status in [
        CouponStatus::Locked,
        CouponStatus::Used,
        CouponStatus::Expired,
        CouponStatus::Transferred,
    ] {
        let mut c = case("not spendable", template(cash(0, 100)), Err(NotUsable));
        c.coupon.status = status;
        cases.push(c);
    }
    let mut c = case(
        "exchange product, empty cart",
        template(CouponKind::ExchangeProduct {
            product_code: "DRINK".into(),
        }),
        Ok(()),
    );
    c.units.clear();
    cases.push(c);
    let mut c = case("cash off, empty cart", template(cash(0, 100)), Err(NoItems));
    c.units.clear();
    cases.push(c);
    // Permanence order: a coupon for another store says so before the missing amount.
    let mut c = case(
        "not here outranks the threshold",
        with_rule(
            cash(999_999, 100),
            EffectiveRule {
                effective_stores: vec!["S009".into()],
                ..Default::default()
            },
        ),
        Err(NotHere {
            order_types: vec![],
        }),
    );
    c.units.truncate(1);
    cases.push(c);
    run(cases);
}

#[test]
fn reasons_read_in_both_languages() {
    use NotApplicable::*;
    let cases = [
        (
            BelowThreshold { gap: Fen(1200) },
            "再买¥12.00可用",
            "Spend ¥12.00 more to use it",
        ),
        (
            NotHere {
                order_types: vec![DELIVERY],
            },
            "仅限外送订单使用",
            "Delivery orders only",
        ),
        (
            NotHere {
                order_types: vec![DELIVERY, PICKUP],
            },
            "仅限外送、自取订单使用",
            "Delivery and Pickup orders only",
        ),
        (
            NotHere {
                order_types: vec![],
            },
            "本门店不可用",
            "Not valid at this store",
        ),
        (Expired, "优惠券已过期", "This coupon has expired"),
        (
            NotThisChannel,
            "当前渠道不可用",
            "Not available in this channel",
        ),
    ];
    for (reason, zh, en) in cases {
        assert_eq!(reason.message(Lang::Zh), zh);
        assert_eq!(reason.message(Lang::En), en);
    }
    for r in [NotUsable, NotStarted, NotNow, NoItems, ProductUnavailable] {
        assert!(!r.message(Lang::Zh).is_empty() && r.message(Lang::Zh) != r.message(Lang::En));
        assert!(!r.code().is_empty());
    }
}

#[test]
fn rule_texts() {
    let pizza = bi("至尊比萨", "Supreme Pizza");
    let sticks = bi("芝士条", "Cheese sticks");
    let cases: Vec<(CouponKind, Option<&Bilingual>, &str, &str)> = vec![
        (cash(10000, 2000), None, "满100减20", "Spend ¥100, save ¥20"),
        (cash(0, 500), None, "立减5", "¥5 off"),
        (
            CouponKind::PercentOff {
                percent_off: 20,
                cap: Fen(3000),
                threshold: Fen(0),
            },
            None,
            "8折，最多减¥30",
            "20% off, up to ¥30",
        ),
        (
            CouponKind::PercentOff {
                percent_off: 15,
                cap: Fen(0),
                threshold: Fen(5000),
            },
            None,
            "满50享8.5折",
            "Spend ¥50, 15% off",
        ),
        (
            CouponKind::FreeDelivery { threshold: Fen(0) },
            None,
            "免配送费",
            "Free delivery",
        ),
        (
            CouponKind::FreeDelivery {
                threshold: Fen(3990),
            },
            None,
            "满39.9免配送费",
            "Free delivery over ¥39.9",
        ),
        (
            CouponKind::ProductAtPrice {
                product_code: "P".into(),
                price: Fen(990),
                threshold: Fen(0),
            },
            Some(&pizza),
            "¥9.9换购 至尊比萨",
            "¥9.9 for Supreme Pizza",
        ),
        (
            CouponKind::ProductAtPrice {
                product_code: "P".into(),
                price: Fen(0),
                threshold: Fen(8000),
            },
            Some(&pizza),
            "满80免费得 至尊比萨",
            "Spend ¥80, Free Supreme Pizza",
        ),
        (
            CouponKind::ProductAtPrice {
                product_code: "P".into(),
                price: Fen(990),
                threshold: Fen(0),
            },
            None,
            "¥9.9换购",
            "¥9.9 for",
        ),
        (
            CouponKind::ExchangeProduct {
                product_code: "P".into(),
            },
            Some(&sticks),
            "兑换 芝士条",
            "Exchange for Cheese sticks",
        ),
    ];
    for (kind, product, zh, en) in cases {
        let t = template(kind);
        assert_eq!(rule_text_named(&t, product, Lang::Zh), zh);
        assert_eq!(rule_text_named(&t, product, Lang::En), en);
        if product.is_none() {
            assert_eq!(rule_text(&t, Lang::Zh), zh);
        }
    }
}

struct Names;
impl ScopeNames for Names {
    fn product(&self, code: &str) -> Option<Bilingual> {
        (code == "P1").then(|| bi("至尊比萨", "Supreme Pizza"))
    }
    fn category(&self, code: &str) -> Option<Bilingual> {
        (code == "pizza").then(|| bi("比萨", "Pizza"))
    }
    fn store(&self, code: &str) -> Option<Bilingual> {
        (code == "S001").then(|| bi("人民广场店", "People's Square"))
    }
}

#[test]
fn scope_texts() {
    let all = template(cash(0, 100));
    assert_eq!(scope_text(&all, &Names, Lang::Zh), "全部商品");
    assert_eq!(scope_text(&all, &Names, Lang::En), "All items");
    let narrow = CouponTemplate {
        scope: Scope {
            product_codes: vec!["P1".into(), "P9".into()],
            category_codes: vec!["pizza".into()],
            ..Default::default()
        },
        effective_rule: Some(EffectiveRule {
            effective_stores: vec!["S001".into()],
            order_types: vec![DELIVERY],
            ..Default::default()
        }),
        channels: vec![1],
        ..template(cash(0, 100))
    };
    assert_eq!(
        scope_text(&narrow, &Names, Lang::Zh),
        "限至尊比萨、P9；限比萨类商品；限人民广场店门店；仅限外送订单使用；限部分渠道"
    );
    assert_eq!(
        scope_text(&narrow, &Names, Lang::En),
        "Only Supreme Pizza, P9; Pizza only; At People's Square; Delivery orders only; Selected channels only"
    );
}

#[test]
fn validity_windows() {
    let issued = noon(); // Wednesday 12:00
    let start_of_day = start_of_china_day(issued);
    assert_eq!(
        Validity::AfterIssue { days: 1 }.window(issued),
        (issued, start_of_day + DAY_MS)
    );
    assert_eq!(
        Validity::AfterIssue { days: 7 }.window(issued),
        (issued, start_of_day + 7 * DAY_MS)
    );
    // Zero days would give a coupon dead on arrival: read as one.
    assert_eq!(
        Validity::AfterIssue { days: 0 }.window(issued),
        (issued, start_of_day + DAY_MS)
    );
    let fixed = Validity::Fixed { from: 100, to: 200 };
    assert_eq!(fixed.window(issued), (100, 200));
    assert!(fixed.issuable(199));
    assert!(!fixed.issuable(200));
    assert!(Validity::AfterIssue { days: 1 }.issuable(issued));
}

#[test]
fn month_end_validity_follows_the_china_calendar() {
    let china = |y, m, d, h, min, s| {
        china_offset()
            .with_ymd_and_hms(y, m, d, h, min, s)
            .unwrap()
            .timestamp_millis()
    };
    let utc = |y, m, d, h, min, s| {
        chrono::Utc
            .with_ymd_and_hms(y, m, d, h, min, s)
            .unwrap()
            .timestamp_millis()
    };
    // (issued at, valid to)
    let cases = [
        (china(2026, 11, 23, 12, 0, 0), china(2026, 12, 1, 0, 0, 0)),
        // The last China second of November still gives November's end.
        (china(2026, 11, 30, 23, 59, 59), china(2026, 12, 1, 0, 0, 0)),
        // UTC 16:00 on 30 November is 1 December in China: valid all December.
        (utc(2026, 11, 30, 16, 0, 0), china(2027, 1, 1, 0, 0, 0)),
        // A leap February, and a common one.
        (china(2028, 2, 29, 12, 0, 0), china(2028, 3, 1, 0, 0, 0)),
        (china(2027, 2, 28, 12, 0, 0), china(2027, 3, 1, 0, 0, 0)),
    ];
    for (issued, to) in cases {
        assert_eq!(Validity::MonthEnd.window(issued), (issued, to), "{issued}");
        assert!(Validity::MonthEnd.issuable(issued));
    }
}

#[test]
fn status_moves() {
    use CouponStatus::*;
    let allowed = [
        (Issued, Locked),
        (Issued, Expired),
        (Issued, Transferred),
        (Returned, Locked),
        (Returned, Expired),
        (Returned, Transferred),
        (Locked, Used),
        (Locked, Returned),
        (Locked, Expired),
        (Used, Returned),
        (Used, Expired),
    ];
    for from in CouponStatus::ALL {
        for to in CouponStatus::ALL {
            assert_eq!(
                from.can_move_to(to),
                allowed.contains(&(from, to)),
                "{from:?} -> {to:?}"
            );
        }
        assert_eq!(CouponStatus::parse(from.as_str()), Some(from));
        assert_eq!(
            serde_json::to_value(from).unwrap(),
            serde_json::json!(from.as_str())
        );
    }
    assert_eq!(CouponStatus::parse("issued"), None);
    assert_eq!(Locked.label(Lang::Zh), "下单中");
    assert_eq!(Returned.label(Lang::En), "Available");
}

#[test]
fn stacking() {
    let a = CouponTemplate {
        template_code: "A".into(),
        stack_group: Some("g".into()),
        ..template(cash(0, 100))
    };
    let b = CouponTemplate {
        template_code: "B".into(),
        stack_group: Some("g".into()),
        ..template(cash(0, 100))
    };
    let c = CouponTemplate {
        template_code: "C".into(),
        excludes: vec!["A".into(), "PROMO1".into()],
        ..template(cash(0, 100))
    };
    let d = CouponTemplate {
        template_code: "D".into(),
        ..template(cash(0, 100))
    };
    let cases = [
        (&a, &a, false), // one of each template per order
        (&a, &b, false), // same stacking group
        (&a, &c, false), // c excludes a ...
        (&c, &a, false), // ... and that is symmetric
        (&a, &d, true),
        (&b, &c, true),
        (&c, &d, true),
    ];
    for (x, y, want) in cases {
        assert_eq!(
            combinable(x, y),
            want,
            "{} {}",
            x.template_code,
            y.template_code
        );
    }
    assert!(!combinable_with_promotion(&c, "PROMO1"));
    assert!(combinable_with_promotion(&c, "PROMO2"));
}

#[test]
fn serde_shapes() {
    let t = CouponTemplate {
        total_limit: Some(50),
        ..template(CouponKind::PercentOff {
            percent_off: 20,
            cap: Fen(3000),
            threshold: Fen(0),
        })
    };
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["kind"]["type"], "percentOff");
    assert_eq!(json["kind"]["percentOff"], 20);
    assert_eq!(json["validity"]["type"], "afterIssue");
    assert_eq!(json["templateCode"], "T1");
    let back: CouponTemplate = serde_json::from_value(json).unwrap();
    assert_eq!(back, t);
    assert_eq!(t.kind.type_name(), "percentOff");
    let minimal: CouponTemplate = serde_json::from_value(serde_json::json!({
        "templateCode": "X", "name": {"cn": "券", "en": "C"},
        "kind": {"type": "exchangeProduct", "productCode": "D1"},
        "validity": {"type": "fixed", "from": 1, "to": 2}
    }))
    .unwrap();
    assert_eq!(minimal.kind.product_code(), Some("D1"));
    assert!(!minimal.collectable && minimal.channels.is_empty());
}

#[test]
fn short_yuan_and_expiring() {
    assert_eq!(short_yuan(Fen(10000)), "100");
    assert_eq!(short_yuan(Fen(990)), "9.9");
    assert_eq!(short_yuan(Fen(5)), "0.05");
    assert_eq!(short_yuan(Fen(0)), "0");
    let c = coupon();
    assert!(c.expiring_soon(noon()));
    assert!(!c.expiring_soon(c.valid_to));
    assert!(!c.expiring_soon(c.valid_to - EXPIRING_SOON_MS - 1));
    assert!(c.usable_at(noon()));
    assert!(!c.usable_at(c.valid_to));
}
