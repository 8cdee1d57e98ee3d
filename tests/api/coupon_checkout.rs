#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Submit with coupons (issue 24): osCoupons compared, the coupons locked in the checkout
//! transaction, 1,000 checkouts racing for one single-use coupon, the coupon used at payment
//! and given back on cancel or unpaid expiry, and points capped after coupons.

use crate::cart::{add, Auth};
use crate::cart_coupons::{cart, cash, codes, coupons, yuan};
use crate::checkout::{home_address, submit, submit_body};
use crate::helpers::TestApp;
use actors::db::coupons::CouponRepo;
use actors::domain::loyalty::coupon::CouponStatus;
use actors::domain::money::Fen;
use serde_json::{json, Value};

#[tokio::test]
async fn submit_compares_and_locks_the_coupons() {
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360005").await;
    let address = home_address(&app, &token).await;
    let coupon = app.give_coupon(&cash("S20", 5000, 2000), uid, "s").await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let priced = app.priced_delivery(&token).await;
    assert_eq!(codes(&priced["osCoupons"]), vec![coupon.clone()]);
    let mut body = submit_body(&priced, Some(address), "online");
    // Without the coupons the customer saw: -6 with the cart, nothing created.
    submit(&app, &token, &body, "k-no-coupons")
        .await
        .assert_error(409, "-6");
    body["osCoupons"] = priced["osCoupons"].clone();
    let order = submit(&app, &token, &body, "k-1").await;
    let order = order.assert_ok().clone();
    assert_eq!(yuan(&order["orderAmount"]), 6400 - 2000 + 600);
    let repo = CouponRepo::new(app.app_state.db.clone());
    let locked = repo.get(&coupon).await.unwrap().unwrap();
    assert_eq!(locked.status, CouponStatus::Locked);
    assert_eq!(locked.order_no.as_deref(), order["orderNo"].as_str());
    // The order keeps the coupons and the breakdown with their entry.
    let detail = app
        .get_auth(
            &format!("/api/v1/orders/{}", order["orderNo"].as_str().unwrap()),
            Some(&token),
        )
        .await;
    let detail = detail.assert_ok();
    let entries = detail["breakdown"]["discounts"].as_array().unwrap();
    assert!(
        entries.iter().any(|e| e["couponCode"] == coupon.as_str()),
        "{entries:?}"
    );
    assert_eq!(yuan(&detail["breakdown"]["payable"]), 6400 - 2000 + 600);
    // The cart is empty and the coupon no longer offered.
    let after = cart(&app, &token).await;
    assert_eq!(after["osCoupons"], json!([]));
    assert_eq!(coupons(&app, &token).await["usable"], json!([]));
}

/// 1,000 checkouts racing for one single-use coupon, each from its own cart through the real
/// `Checkout` path (one user has one cart, and its session runs one checkout at a time, so
/// the race is between carts: each checkout's transaction locks the same coupon for the
/// coupon's owner). Exactly one order commits; every other checkout is told the coupon was
/// taken and created nothing.
#[tokio::test]
async fn a_thousand_checkouts_race_for_one_coupon() {
    use actors::carts::{CartFailure, CartKey, Checkout};
    use actors::db::orders::NewOrder;
    use actors::domain::cart::Cart;
    let app = crate::helpers::spawn_app().await;
    let (_, uid) = app.customer("13512360006").await;
    let coupon = app.give_coupon(&cash("ONCE", 0, 500), uid, "once").await;
    let racers = 1000;
    let state = app.app_state.clone();
    let tasks: Vec<_> = (0..racers)
        .map(|i| {
            let state = state.clone();
            let coupon = coupon.clone();
            tokio::spawn(async move {
                let order_no = format!("RACE{i:06}");
                let order = NewOrder {
                    order_no,
                    user_id: uid,
                    store_code: "SH001".into(),
                    order_type: 1,
                    state: 5,
                    progress: 0,
                    payment_type: "online".into(),
                    is_book: false,
                    order_time: 0,
                    product_amount: Fen(3200),
                    discount_amount: Fen::ZERO,
                    delivery_fee: Fen::ZERO,
                    order_amount: Fen(2700),
                    doc: json!({"coupons": [coupon]}),
                    lines: Vec::new(),
                    created_at: 0,
                };
                state
                    .carts
                    .checkout(
                        &CartKey::Visitor(format!("race-{i}")),
                        Checkout {
                            read_version: 0,
                            order,
                            emptied: Cart::default(),
                            idempotency: None,
                            points_hold: None,
                            coupons_lock: Some((uid, vec![coupon])),
                        },
                    )
                    .await
            })
        })
        .collect();
    let mut won = 0;
    let mut taken = 0;
    let mut other = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => won += 1,
            Err(CartFailure::CouponTaken(_)) => taken += 1,
            Err(e) => other.push(e.to_string()),
        }
    }
    assert_eq!(won, 1, "taken {taken}, other {other:?}");
    assert_eq!(taken + other.len(), racers - 1);
    // Whatever else failed (a busy database), nothing but the winner was created.
    let orders = actors::db::orders::OrderRepo::new(state.db.clone())
        .count_for_user(uid)
        .await
        .unwrap();
    assert_eq!(orders, 1, "other failures: {other:?}");
    let repo = CouponRepo::new(state.db.clone());
    let c = repo.get(&coupon).await.unwrap().unwrap();
    assert_eq!(c.status, CouponStatus::Locked);
    let events = repo.events(&coupon).await.unwrap();
    assert_eq!(
        events
            .iter()
            .filter(|e| e.to_status == CouponStatus::Locked)
            .count(),
        1
    );
    println!(
        "coupon race on {}: {racers} checkouts, 1 order, {taken} told taken, {} other",
        crate::helpers::backend(),
        other.len()
    );
}

/// Submits the cart with what it shows (amounts and osCoupons): the order number.
async fn order_with_coupons(app: &TestApp, token: &str, address: i64) -> (String, Value) {
    let priced = app.priced_delivery(token).await;
    let mut body = submit_body(&priced, Some(address), "online");
    body["osCoupons"] = priced["osCoupons"].clone();
    let key = format!("k-{}", app.clock.now_ms());
    let order = submit(app, token, &body, &key).await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
    (order_no, priced)
}

/// Paying uses the coupon; cancelling an unpaid order, or letting it expire unpaid, gives it
/// back (RETURNED) and the next cart applies it again.
#[tokio::test]
async fn paid_uses_the_coupon_cancelled_or_expired_gives_it_back() {
    use crate::payments::{create_payment, until_state};
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360007").await;
    let address = home_address(&app, &token).await;
    let coupon = app.give_coupon(&cash("J20", 5000, 2000), uid, "j").await;
    let repo = CouponRepo::new(app.app_state.db.clone());
    let status = |code: String| {
        let repo = repo.clone();
        async move { repo.get(&code).await.unwrap().unwrap().status }
    };
    let wings = json!([{"productCode": "SD001", "quantity": 2}]);

    // Cancelled before payment: back.
    add(&app, Auth::User(&token), wings.clone()).await;
    let (first, priced) = order_with_coupons(&app, &token, address).await;
    assert_eq!(codes(&priced["osCoupons"]), vec![coupon.clone()]);
    assert_eq!(status(coupon.clone()).await, CouponStatus::Locked);
    app.post(
        &format!("/api/v1/orders/{first}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    assert_eq!(status(coupon.clone()).await, CouponStatus::Returned);

    // Expired unpaid: back again.
    add(&app, Auth::User(&token), wings.clone()).await;
    let (second, priced) = order_with_coupons(&app, &token, address).await;
    assert_eq!(
        codes(&priced["osCoupons"]),
        vec![coupon.clone()],
        "usable again"
    );
    create_payment(&app, &token, &second).await;
    app.clock.advance_ms(31 * 60_000);
    app.app_state.payments.expire_due().await.unwrap();
    until_state(&app, &token, &second, 9).await;
    assert_eq!(status(coupon.clone()).await, CouponStatus::Returned);

    // Paid: used, and no longer offered.
    add(&app, Auth::User(&token), wings).await;
    let (third, _) = order_with_coupons(&app, &token, address).await;
    app.pay(&token, &third).await;
    for _ in 0..100 {
        if status(coupon.clone()).await == CouponStatus::Used {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(status(coupon.clone()).await, CouponStatus::Used);
    assert_eq!(coupons(&app, &token).await["usable"], json!([]));
    let events = repo.events(&coupon).await.unwrap();
    let moves: Vec<CouponStatus> = events.iter().map(|e| e.to_status).collect();
    assert_eq!(
        moves,
        vec![
            CouponStatus::Issued,
            CouponStatus::Locked,
            CouponStatus::Returned,
            CouponStatus::Locked,
            CouponStatus::Returned,
            CouponStatus::Locked,
            CouponStatus::Used
        ]
    );
}

/// Points come last: their 50 % cap is measured on the amount after coupons, and the order's
/// breakdown holds coupons and points together, adding up.
#[tokio::test]
async fn the_points_cap_is_measured_after_coupons() {
    let app = crate::helpers::spawn_app().await;
    let token = app.register("13512360008").await;
    let version = app.get("/api/v1/members/agreement").await.assert_ok()["version"].clone();
    app.post(
        "/api/v1/members/join",
        &json!({"agreementVersion": version}),
        Some(&token),
    )
    .await
    .assert_ok();
    let uid = app.user_id(&token).await;
    app.app_state
        .loyalty
        .adjust(uid, "seed-coupon-points", 100_000, "test")
        .await
        .unwrap();
    let address = home_address(&app, &token).await;
    let coupon = app.give_coupon(&cash("PT20", 5000, 2000), uid, "pt").await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let priced = app.priced_delivery(&token).await;
    // ¥64 − ¥20 + ¥6 = ¥50: at most half of it in points.
    assert_eq!(yuan(&priced["orderAmount"]), 5000);
    assert_eq!(priced["pointsDeduction"]["usablePoints"], 2500);
    let mut body = submit_body(&priced, Some(address), "online");
    body["osCoupons"] = json!([coupon]);
    body["pointsDeductions"] = json!(2501);
    let over = submit(&app, &token, &body, "k-over").await;
    assert_eq!(over.status, 400, "{}", over.body);
    body["pointsDeductions"] = json!(2500);
    let order = submit(&app, &token, &body, "k-ok").await;
    let order = order.assert_ok().clone();
    assert_eq!(yuan(&order["orderAmount"]), 2500);
    let detail = app
        .get_auth(
            &format!("/api/v1/orders/{}", order["orderNo"].as_str().unwrap()),
            Some(&token),
        )
        .await;
    let b = &detail.assert_ok()["breakdown"];
    assert_eq!(yuan(&b["couponAmount"]), 2000);
    assert_eq!(b["pointsUsed"], 2500);
    assert_eq!(
        yuan(&b["productAmount"]) - yuan(&b["discountAmount"]) + yuan(&b["deliveryFee"])
            - yuan(&b["deliveryFeeWaived"])
            - yuan(&b["couponDeliveryWaived"])
            - yuan(&b["pointsDeduction"]),
        yuan(&b["payable"])
    );
}

/// A coupon item reaches the kitchen: a cash-on-delivery order with a free cola (exchange
/// coupon) has the cola as a line of the tablet's card, and its breakdown names the coupon.
#[tokio::test]
async fn a_coupon_item_is_a_line_the_kitchen_makes() {
    use actors::domain::loyalty::coupon::{CouponKind, Validity};
    let app = crate::helpers::spawn_app().await;
    let (token, uid) = app.customer("13512360009").await;
    let address = home_address(&app, &token).await;
    let mut cola = crate::cart_coupons::template(
        "COLA1",
        CouponKind::ExchangeProduct {
            product_code: "DR001".into(),
        },
    );
    cola.validity = Validity::AfterIssue { days: 7 };
    let cola = app.give_coupon(&cola, uid, "cola").await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    app.add_coupon_item(&token, &cola).await.assert_ok();
    let priced = app.priced_delivery(&token).await;
    assert_eq!(yuan(&priced["priceOfProduct"]), 6400 + 800);
    assert_eq!(yuan(&priced["couponDiscountsAmount"]), 800);
    let mut body = submit_body(&priced, Some(address), "offline");
    body["osCoupons"] = priced["osCoupons"].clone();
    let order = submit(&app, &token, &body, "k-cola").await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
    assert_eq!(yuan(&order.data()["orderAmount"]), 6400 + 600);
    let detail = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let detail = detail.assert_ok();
    assert_eq!(detail["lines"].as_array().unwrap().len(), 2);
    assert!(
        detail["lines"][1]["couponCode"] == cola.as_str(),
        "{detail}"
    );
    // The detail says what the coupons took off, as the cart did.
    assert_eq!(yuan(&detail["couponDiscountsAmount"]), 800);
    assert_eq!(yuan(&detail["couponDeliveryFee"]), 0);
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    let queue = app
        .get_auth("/api/v1/tablet/orders", Some(&staff))
        .await
        .assert_ok()
        .clone();
    let card = queue
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["orderNo"] == order_no.as_str())
        .unwrap_or_else(|| panic!("{queue}"));
    let lines = card["lines"].to_string();
    assert!(lines.contains("可口可乐"), "{lines}");
    assert!(
        card["breakdown"].to_string().contains(&cola),
        "{}",
        card["breakdown"]
    );
}
