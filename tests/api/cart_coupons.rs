#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Coupons in the cart (issue 24): the best combination by default, the customer's choice
//! honoured or refused with the reason, exclusions with promotions, stacking groups, free
//! delivery, product coupon items, visitors and channel 30. Submit: `coupon_checkout.rs`.

use crate::cart::{add, cart_call, Auth};
use crate::helpers::{Answer, TestApp};
use actors::domain::catalogue::Bilingual;
use actors::domain::loyalty::coupon::{CouponKind, CouponTemplate, Validity};
use actors::domain::money::Fen;
use actors::domain::pricing::promotion::Scope;
use reqwest::Method;
use serde_json::{json, Value};

pub(crate) fn template(code: &str, kind: CouponKind) -> CouponTemplate {
    CouponTemplate {
        template_code: code.into(),
        name: Bilingual {
            cn: format!("券{code}"),
            en: format!("Coupon {code}"),
        },
        kind,
        scope: Scope::default(),
        effective_rule: None,
        channels: Vec::new(),
        stack_group: None,
        excludes: Vec::new(),
        total_limit: None,
        per_user_limit: None,
        validity: Validity::AfterIssue { days: 30 },
        collectable: false,
        transferable: true,
        sort: 0,
    }
}

pub(crate) fn cash(code: &str, threshold: i64, off: i64) -> CouponTemplate {
    template(
        code,
        CouponKind::CashOff {
            threshold: Fen(threshold),
            off: Fen(off),
        },
    )
}

pub(crate) async fn coupons(app: &TestApp, token: &str) -> Value {
    cart_call(
        app,
        Method::GET,
        "/api/v1/cart/coupons",
        None,
        Auth::User(token),
    )
    .await
    .assert_ok()
    .clone()
}

async fn choose(app: &TestApp, token: &str, body: Value) -> Answer {
    cart_call(
        app,
        Method::POST,
        "/api/v1/cart/coupons",
        Some(&body),
        Auth::User(token),
    )
    .await
}

pub(crate) async fn cart(app: &TestApp, token: &str) -> Value {
    cart_call(app, Method::GET, "/api/v1/cart", None, Auth::User(token))
        .await
        .assert_ok()
        .clone()
}

pub(crate) fn yuan(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

/// The cart response adds up: orderAmount = priceOfProduct − activityAmount −
/// couponDiscountsAmount + deliveryFeeAfterPE − couponDeliveryFee, and so does the breakdown.
fn assert_adds_up(c: &Value) {
    let sum =
        yuan(&c["priceOfProduct"]) - yuan(&c["discountAmount"]) - yuan(&c["couponDiscountsAmount"])
            + yuan(&c["deliveryFeeAfterPE"])
            - yuan(&c["couponDeliveryFee"]);
    assert_eq!(sum, yuan(&c["orderAmount"]), "{c}");
    let b = &c["breakdown"];
    let sum = yuan(&b["productAmount"]) - yuan(&b["discountAmount"]) + yuan(&b["deliveryFee"])
        - yuan(&b["deliveryFeeWaived"])
        - yuan(&b["couponDeliveryWaived"]);
    assert_eq!(sum, yuan(&b["payable"]), "{b}");
    assert_eq!(yuan(&b["payable"]), yuan(&c["orderAmount"]));
    assert_eq!(yuan(&b["couponAmount"]), yuan(&c["couponDiscountsAmount"]));
}

fn option<'a>(list: &'a Value, code: &str) -> &'a Value {
    ["usable", "unusable"]
        .iter()
        .flat_map(|k| list[*k].as_array().unwrap())
        .find(|o| o["couponCode"] == code)
        .unwrap_or_else(|| panic!("{code} not listed: {list}"))
}

pub(crate) fn codes(v: &Value) -> Vec<String> {
    let mut c: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    c.sort();
    c
}

#[tokio::test]
async fn the_best_combination_by_default_and_the_choice_honoured_or_refused() {
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360001").await;
    let a = app.give_coupon(&cash("A50", 5000, 1000), uid, "a").await;
    let mut b = cash("B30", 3000, 800);
    b.stack_group = Some("G".into());
    let mut c = cash("C30", 3000, 1200);
    c.stack_group = Some("G".into());
    let b = app.give_coupon(&b, uid, "b").await;
    let c = app.give_coupon(&c, uid, "c").await;
    let free = template(
        "FREE",
        CouponKind::FreeDelivery {
            threshold: Fen::ZERO,
        },
    );
    let f = app.give_coupon(&free, uid, "f").await;
    let d = app.give_coupon(&cash("D100", 10000, 3000), uid, "d").await;

    // Two wings (¥64) for delivery: the fee is ¥6 (free from ¥99), no promotion applies.
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let best = cart(&app, &token).await;
    assert_eq!(codes(&best["osCoupons"]), {
        let mut v = vec![a.clone(), c.clone(), f.clone()];
        v.sort();
        v
    });
    assert_eq!(yuan(&best["couponDiscountsAmount"]), 2200);
    assert_eq!(yuan(&best["cashCouponAmount"]), 2200);
    assert_eq!(yuan(&best["couponDeliveryFee"]), 600);
    assert_eq!(yuan(&best["orderAmount"]), 6400 - 2200);
    assert_eq!(best["couponsAuto"], true);
    assert_adds_up(&best);
    // The stacking group is explained.
    let beans = best["couponMutexBeans"].to_string();
    assert!(beans.contains("B30") && beans.contains("C30"), "{beans}");

    let list = coupons(&app, &token).await;
    assert_eq!(list["auto"], true);
    assert_eq!(option(&list, &c)["applied"], true);
    let lost = option(&list, &b);
    assert_eq!(lost["reason"]["code"], "mutex");
    assert!(
        lost["reason"]["text"].as_str().unwrap().contains("券C30"),
        "{lost}"
    );
    let far = option(&list, &d);
    assert_eq!(far["reason"]["code"], "belowThreshold");
    assert_eq!(far["reason"]["text"], "再买¥36.00可用");
    assert!(list["unusable"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["couponCode"] == d.as_str()));

    // The customer's choice: exactly B.
    let chosen = choose(&app, &token, json!({"couponCodes": [b]})).await;
    let chosen = chosen.assert_ok();
    assert_eq!(codes(&chosen["osCoupons"]), vec![b.clone()]);
    assert_eq!(chosen["couponsAuto"], false);
    assert_eq!(yuan(&chosen["orderAmount"]), 6400 - 800 + 600);
    assert_adds_up(chosen);

    // Refused, saying why, the cart unchanged: two of one group; one below its threshold.
    let refused = choose(&app, &token, json!({"couponCodes": [b, c]})).await;
    refused.assert_error(400, "-8");
    assert!(
        refused.err_msg().contains("不可同时使用"),
        "{}",
        refused.err_msg()
    );
    assert_eq!(codes(&refused.data()["osCoupons"]), vec![b.clone()]);
    let refused = choose(&app, &token, json!({"couponCodes": [d]})).await;
    refused.assert_error(400, "-8");
    assert!(
        refused.err_msg().contains("再买¥36.00可用"),
        "{}",
        refused.err_msg()
    );
    // In English too.
    let en = app
        .call(
            Method::POST,
            "/api/v1/cart/coupons",
            Some(&json!({"couponCodes": [d]})),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    assert!(
        en.err_msg().contains("Spend ¥36.00 more"),
        "{}",
        en.err_msg()
    );
    // Unknown coupon: 404.
    choose(&app, &token, json!({"couponCodes": ["NOPE"]}))
        .await
        .assert_error(404, "404");

    // No coupon at all, then back to the best.
    let none = choose(&app, &token, json!({"none": true})).await;
    assert_eq!(none.assert_ok()["osCoupons"], json!([]));
    assert_eq!(yuan(&none.data()["orderAmount"]), 6400 + 600);
    let auto = choose(&app, &token, json!({"couponCodes": []})).await;
    assert_eq!(yuan(&auto.assert_ok()["orderAmount"]), 6400 - 2200);
}

#[tokio::test]
async fn a_coupon_and_a_promotion_that_exclude_each_other() {
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360002").await;
    // R003: the second drink half price (¥4 off two colas). The coupon saves ¥5 and
    // never goes with R003.
    let mut e = cash("E10", 1000, 500);
    e.excludes = vec!["R003".into()];
    let e = app.give_coupon(&e, uid, "e").await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "DR001", "quantity": 2}, {"productCode": "SD001", "quantity": 3}]),
    )
    .await;
    let best = cart(&app, &token).await;
    assert_eq!(codes(&best["osCoupons"]), vec![e.clone()]);
    let r003 = best["availableRules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "R003")
        .unwrap();
    assert_eq!(r003["reason"], "mutex");
    assert!(
        r003["reasonMsg"].as_str().unwrap().contains("券E10"),
        "{r003}"
    );
    assert_adds_up(&best);
    let beans = best["couponMutexBeans"].to_string();
    assert!(beans.contains("E10") && beans.contains("R003"), "{beans}");

    // The customer picks the promotion: the coupon gives way and says so.
    let chose = cart_call(
        &app,
        Method::POST,
        "/api/v1/cart/rules",
        Some(&json!({"ruleId": "R003"})),
        Auth::User(&token),
    )
    .await;
    assert_eq!(chose.assert_ok()["osCoupons"], json!([]));
    let list = coupons(&app, &token).await;
    let o = option(&list, &e);
    assert_eq!(o["reason"]["code"], "mutex");
    assert!(
        o["reason"]["text"].as_str().unwrap().contains("您已选择"),
        "{o}"
    );
    // Choosing the coupon now puts it first: the promotion gives way.
    let back = choose(&app, &token, json!({"couponCodes": [e]})).await;
    assert_eq!(codes(&back.assert_ok()["osCoupons"]), vec![e.clone()]);
    assert_adds_up(back.data());
}

#[tokio::test]
async fn product_coupons_put_their_product_in_the_cart() {
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360003").await;
    let side = template(
        "SIDE99",
        CouponKind::ProductAtPrice {
            product_code: "SD003".into(),
            price: Fen(990),
            threshold: Fen(5000),
        },
    );
    let side = app.give_coupon(&side, uid, "s").await;
    let drink = template(
        "COLA",
        CouponKind::ExchangeProduct {
            product_code: "DR001".into(),
        },
    );
    let drink = app.give_coupon(&drink, uid, "d").await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    // Before its item is in the cart, the picker names the product each coupon is for.
    let listed = coupons(&app, &token).await;
    let rule_of = |code: &str| {
        listed["usable"]
            .as_array()
            .unwrap()
            .iter()
            .chain(listed["unusable"].as_array().unwrap())
            .find(|o| o["couponCode"] == code)
            .map(|o| o["ruleText"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    };
    assert!(rule_of(&drink).contains("可口可乐"), "{listed}");
    assert!(rule_of(&side).contains("芝士"), "{listed}");

    // ¥32 is below the ¥50 the ¥9.90 cheese sticks need: refused with the gap.
    let refused = app.add_coupon_item(&token, &side).await;
    refused.assert_error(400, "-8");
    assert!(
        refused.err_msg().contains("再买¥18.00可用"),
        "{}",
        refused.err_msg()
    );
    assert_eq!(refused.data()["couponItems"], json!([]));
    // A cash coupon is not a product coupon.
    let not_product = app.give_coupon(&cash("X1", 0, 100), uid, "x").await;
    app.add_coupon_item(&token, &not_product)
        .await
        .assert_error(400, "400");

    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let with = app.add_coupon_item(&token, &side).await;
    let with = with.assert_ok().clone();
    let item = &with["couponItems"][0];
    assert_eq!(item["productCode"], "SD003");
    assert_eq!(yuan(&item["originalPrice"]), 2200);
    assert_eq!(yuan(&item["unitPrice"]), 990);
    assert!(codes(&with["osCoupons"]).contains(&side));
    assert_adds_up(&with);
    // The exchange coupon: a free cola.
    let both = app.add_coupon_item(&token, &drink).await;
    let both = both.assert_ok().clone();
    assert_eq!(both["couponItems"].as_array().unwrap().len(), 2);
    assert_eq!(both["exchangeCouponBeans"][0]["productCode"], "DR001");
    assert_adds_up(&both);
    let breakdown = both["breakdown"].to_string();
    assert!(breakdown.contains(&format!("coupon-{side}")), "{breakdown}");

    // Taking the cart below ¥50 leaves the cheese sticks uncharged, saying why.
    let line = both["items"][0]["id"].as_str().unwrap().to_string();
    let less = cart_call(
        &app,
        Method::PATCH,
        "/api/v1/cart/items",
        Some(&json!({"items": [{"id": line, "action": "decrease"}]})),
        Auth::User(&token),
    )
    .await;
    let less = less.assert_ok().clone();
    assert_eq!(less["effectOutCouponItems"][0]["couponCode"], side.as_str());
    assert_eq!(
        less["effectOutCouponItems"][0]["disableReason"],
        "belowThreshold"
    );
    assert_adds_up(&less);

    // The crew 86es the cola: the free cola shows sold out, uncharged; clearing what cannot
    // be had drops it, and the cheese sticks (only short of their threshold) stay.
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    app.put(
        "/api/v1/tablet/products/DR001/availability",
        &json!({"soldOut": true}),
        Some(&staff),
    )
    .await
    .assert_ok();
    let sold = cart(&app, &token).await;
    assert_eq!(sold["saleOutCouponItems"][0]["couponCode"], drink.as_str());
    assert_eq!(sold["saleOutCouponItems"][0]["disableReason"], "soldOut");
    assert_adds_up(&sold);
    let cleared = cart_call(
        &app,
        Method::POST,
        "/api/v1/cart/clear-unavailable",
        None,
        Auth::User(&token),
    )
    .await;
    let cleared = cleared.assert_ok().clone();
    assert_eq!(cleared["saleOutCouponItems"], json!([]));
    assert_eq!(
        cleared["effectOutCouponItems"][0]["couponCode"],
        side.as_str()
    );

    // Removed from the cart, the coupon stays the customer's.
    let removed = app.remove_coupon_item(&token, &side).await;
    assert_eq!(
        removed.assert_ok()["effectOutCouponItems"],
        json!([]),
        "gone"
    );
    app.remove_coupon_item(&token, &side)
        .await
        .assert_error(404, "404");
    assert!(coupons(&app, &token).await["usable"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["couponCode"] == side.as_str()));
}

#[tokio::test]
async fn visitors_and_the_partner_channel_see_no_coupons() {
    let app = crate::helpers::spawn_app().await;
    let visitor = add(&app, Auth::None, json!([{"productCode": "SD001"}])).await;
    let cart_token = visitor["cartToken"].as_str().unwrap().to_string();
    let list = cart_call(
        &app,
        Method::GET,
        "/api/v1/cart/coupons",
        None,
        Auth::Visitor(&cart_token),
    )
    .await;
    assert_eq!(
        list.assert_ok(),
        &json!({"usable": [], "unusable": [], "applied": [], "auto": true, "couponDiscountsAmount": 0.0})
    );
    cart_call(
        &app,
        Method::POST,
        "/api/v1/cart/coupons",
        Some(&json!({"couponCodes": []})),
        Auth::Visitor(&cart_token),
    )
    .await
    .assert_error(401, "401");

    let (token, uid) = app.customer("13512360004").await;
    app.give_coupon(&cash("P30", 0, 500), uid, "p").await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let partner = [("X-Channel-Id", "30")];
    let list = app
        .call(
            Method::GET,
            "/api/v1/cart/coupons",
            None,
            Some(&token),
            &partner,
        )
        .await;
    assert_eq!(list.assert_ok()["usable"], json!([]));
    let cart30 = app
        .call(Method::GET, "/api/v1/cart", None, Some(&token), &partner)
        .await;
    assert_eq!(cart30.assert_ok()["osCoupons"], json!([]));
    app.call(
        Method::POST,
        "/api/v1/cart/coupons",
        Some(&json!({"couponCodes": []})),
        Some(&token),
        &partner,
    )
    .await
    .assert_error(404, "404");
    // Elsewhere the same customer gets the coupon.
    assert_eq!(
        cart(&app, &token).await["osCoupons"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn the_coupon_routes_are_documented() {
    let app = crate::helpers::spawn_app().await;
    let doc = app.get("/api-docs/openapi.json").await.body;
    let paths = doc["paths"].as_object().unwrap();
    for (path, method) in [
        ("/cart/coupons", "get"),
        ("/cart/coupons", "post"),
        ("/cart/coupon-items", "post"),
        ("/cart/coupon-items/{couponCode}", "delete"),
    ] {
        assert!(
            paths[&format!("/api/v1{path}")].get(method).is_some(),
            "{method} {path} missing"
        );
    }
}
