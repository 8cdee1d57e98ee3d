#![allow(clippy::unwrap_used, clippy::expect_used)]
//! An order's coupon over HTTP (issue 24): given back once when the order is cancelled, a
//! give-back that fails answered 退券失败 with the store's phone and finished by the sweep, a
//! cash order's coupon used at completion and given back by the chain's refund.

use crate::coupon_races::check_invariants;
use crate::coupons::{tab, uid, OPS};
use crate::helpers::spawn_app;
use crate::payments::ready_to_submit;
use actors::domain::coupon::CouponStatus;
use serde_json::{json, Value};

#[tokio::test]
async fn a_cancelled_order_gives_its_coupon_back_once() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512360007", items).await;
    let user = uid(&app, &token).await;
    let coupon = app
        .post(
            "/api/v1/coupons/collect/CP_CASH_100_20",
            &json!({}),
            Some(&token),
        )
        .await
        .assert_ok()["couponCode"]
        .as_str()
        .unwrap()
        .to_string();
    let order_no = app
        .post("/api/v1/orders", &body, Some(&token))
        .await
        .assert_ok()["orderNo"]
        .as_str()
        .unwrap()
        .to_string();
    // The cart's checkout locks coupons in its transaction (coupons-cart); here the lock is
    // taken as it does, for the order just submitted.
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    actors::db::coupons::CouponRepo::lock_in(
        &mut tx,
        user,
        std::slice::from_ref(&coupon),
        &order_no,
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    app.post(
        &format!("/api/v1/orders/{order_no}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    let repo = app.app_state.coupons.repo();
    let back = repo.get(&coupon).await.unwrap().unwrap();
    assert_eq!(back.status, CouponStatus::Returned);
    // Asked again, swept, hooked again: still one give-back.
    app.post(
        &format!("/api/v1/orders/{order_no}/refund"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.app_state.coupons.sweep().await.unwrap();
    app.app_state.coupons.order_moved(&order_no, 3).await;
    let events = repo.events(&coupon).await.unwrap();
    let returned = events
        .iter()
        .filter(|e| e.to_status == CouponStatus::Returned)
        .count();
    assert_eq!(returned, 1, "{events:?}");
    assert_eq!(
        tab(&app, &token, "available").await["list"][0]["status"],
        "returned"
    );
    check_invariants(&app).await;
}

/// A give-back that fails where the customer asked is 退券失败，请联系客服 with the store's phone
/// (errCode 01); the sweep gives the coupon back once the database answers again.
#[tokio::test]
async fn a_failed_give_back_says_so_with_the_store_phone_and_the_sweep_finishes_it() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512360010", items).await;
    let user = uid(&app, &token).await;
    let coupon = app
        .post(
            "/api/v1/coupons/collect/CP_CASH_100_20",
            &json!({}),
            Some(&token),
        )
        .await
        .assert_ok()["couponCode"]
        .as_str()
        .unwrap()
        .to_string();
    let order_no = app
        .post("/api/v1/orders", &body, Some(&token))
        .await
        .assert_ok()["orderNo"]
        .as_str()
        .unwrap()
        .to_string();
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    actors::db::coupons::CouponRepo::lock_in(
        &mut tx,
        user,
        std::slice::from_ref(&coupon),
        &order_no,
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    // The outbox table goes away for a while: every give-back fails.
    let pool = app.app_state.db.pool();
    sqlx::query("ALTER TABLE coupon_returns RENAME TO coupon_returns_away")
        .execute(pool)
        .await
        .unwrap();
    let cancel = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    cancel.assert_error(502, "01");
    assert_eq!(cancel.err_msg(), "退券失败，请联系客服");
    assert!(
        !cancel.data()["storeTel"].as_str().unwrap().is_empty(),
        "{}",
        cancel.body
    );
    let repo = app.app_state.coupons.repo();
    assert_eq!(
        repo.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Locked
    );
    sqlx::query("ALTER TABLE coupon_returns_away RENAME TO coupon_returns")
        .execute(pool)
        .await
        .unwrap();
    // The sweep finds the coupon still locked by a cancelled order and gives it back.
    app.app_state.coupons.sweep().await.unwrap();
    app.app_state.coupons.sweep().await.unwrap();
    assert_eq!(
        repo.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Returned
    );
    check_invariants(&app).await;
}

/// Cash on delivery: the coupon stays locked until the order is completed (paid at the door),
/// then used; the chain's full refund gives it back, once.
#[tokio::test]
async fn a_completed_cash_order_uses_its_coupon_and_the_chain_refund_gives_it_back() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, mut body) = ready_to_submit(&app, "13512360011", items).await;
    body["paymentType"] = json!("offline");
    let user = uid(&app, &token).await;
    let coupon = app
        .post(
            "/api/v1/coupons/collect/CP_CASH_100_20",
            &json!({}),
            Some(&token),
        )
        .await
        .assert_ok()["couponCode"]
        .as_str()
        .unwrap()
        .to_string();
    let order_no = app
        .post("/api/v1/orders", &body, Some(&token))
        .await
        .assert_ok()["orderNo"]
        .as_str()
        .unwrap()
        .to_string();
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    actors::db::coupons::CouponRepo::lock_in(
        &mut tx,
        user,
        std::slice::from_ref(&coupon),
        &order_no,
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let repo = app.app_state.coupons.repo();
    let status = || async { repo.get(&coupon).await.unwrap().unwrap().status };
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    let tablet = |path: String, body: Value| {
        let (app, staff) = (&app, staff.clone());
        async move {
            app.post(&path, &body, Some(&staff))
                .await
                .assert_ok()
                .clone()
        }
    };
    tablet(
        format!("/api/v1/tablet/orders/{order_no}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(
        status().await,
        CouponStatus::Locked,
        "accepted, not paid yet"
    );
    for from in [1, 10, 20, 30, 40] {
        tablet(
            format!("/api/v1/tablet/orders/{order_no}/advance"),
            json!({"from": from}),
        )
        .await;
    }
    assert_eq!(
        status().await,
        CouponStatus::Used,
        "completed: paid at the door"
    );
    for _ in 0..2 {
        app.post(
            &format!("/api/v1/chain/orders/{order_no}/refund"),
            &json!({}),
            Some(OPS),
        )
        .await
        .assert_ok();
    }
    assert_eq!(status().await, CouponStatus::Returned);
    let events = repo.events(&coupon).await.unwrap();
    let back = events
        .iter()
        .filter(|e| e.to_status == CouponStatus::Returned)
        .count();
    assert_eq!(back, 1, "{events:?}");
    check_invariants(&app).await;
}
