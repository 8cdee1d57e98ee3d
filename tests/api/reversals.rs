#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Reversals beyond the model (issue 34): closing an account forfeits what it held; a lost
//! reversal is seen by the reconcile (each ended order against its ledgers) although every
//! ledger agrees with itself, and the sweep gives it back; a customer's cancel racing the
//! payment, on two nodes, gives the points back exactly when the order ends unpaid or refunded.

use crate::cart_coupons::cash;
use crate::helpers::{spawn_app, spawn_app_with, TestApp, MONDAY_NOON_MS};
use crate::payments::{pay_at_cashier, tablet_login, until_state};
use actors::db::coupons::CouponRepo;
use actors::db::gifts::GiftRepo;
use actors::db::payments::PaymentRepo;
use actors::db::points::PointsRepo;
use actors::db::reversals::ReversalRepo;
use actors::domain::loyalty::coupon::CouponStatus;
use actors::domain::payments::state::PaymentState;
use serde_json::{json, Value};
use std::time::Duration;

const OPS: &str = "test-ops-token";

/// A member with `points` available and one ¥10 coupon, four wings in a delivery cart:
/// (token, user id, coupon code, the submit body).
async fn member(app: &TestApp, phone: &str, points: i64) -> (String, i64, String, Value) {
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let m = app
        .ready_member(phone, items, points, "REVERSAL_TEST")
        .await;
    (m.token, m.user_id, m.coupon, m.body)
}

/// Submits the cart as it shows, spending `points`: the order number.
async fn submit(app: &TestApp, token: &str, body: &Value, points: i64) -> String {
    let mut body = body.clone();
    body["pointsDeductions"] = json!(points);
    app.submit_as_the_cart_shows(token, body).await.0
}

async fn account(app: &TestApp, user_id: i64) -> (i64, i64, i64, i64) {
    let a = PointsRepo::new(app.app_state.db.clone())
        .account(user_id)
        .await
        .unwrap();
    (a.available, a.pending, a.held, a.owed)
}

async fn lost(app: &TestApp, order_no: &str) -> Vec<String> {
    ReversalRepo::new(app.app_state.db.clone())
        .reconcile(app.clock.now_ms())
        .await
        .unwrap()
        .lost
        .into_iter()
        .filter(|l| l.order_no == order_no)
        .map(|l| format!("{}: {}", l.ledger, l.found))
        .collect()
}

async fn points_reconcile_clean(app: &TestApp) {
    let report = PointsRepo::new(app.app_state.db.clone())
        .reconcile()
        .await
        .unwrap();
    assert_eq!(
        report.mismatches,
        vec![],
        "the points ledger agrees with itself"
    );
}

async fn complete(app: &TestApp, staff: &str, order_no: &str) {
    let tablet = |action: &str| format!("/api/v1/tablet/orders/{order_no}/{action}");
    app.post(&tablet("accept"), &json!({}), Some(staff))
        .await
        .assert_ok();
    for from in [1, 10, 20, 30, 40] {
        app.post(&tablet("advance"), &json!({"from": from}), Some(staff))
            .await
            .assert_ok();
    }
}

#[tokio::test]
async fn closing_the_account_forfeits_points_coupons_gifts_and_the_membership() {
    let app = spawn_app().await;
    let (token, user_id, coupon, body) = member(&app, "13677010001", 800).await;
    let staff = tablet_login(&app, "SH001").await;
    // A completed order (points pending) and an open one holding points and the coupon.
    let done = submit(&app, &token, &body, 0).await;
    app.pay(&token, &done).await;
    complete(&app, &staff, &done).await;
    crate::cart::add(
        &app,
        crate::cart::Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 4}]),
    )
    .await;
    let open = submit(&app, &token, &body, 100).await;
    let (_, pending, held, _) = account(&app, user_id).await;
    assert!(pending > 0 && held == 100);
    // The first order used the coupon; a second one waits unused.
    let coupons = CouponRepo::new(app.app_state.db.clone());
    assert_eq!(
        coupons.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Used
    );
    let unused = app
        .give_coupon(&cash("REVERSAL_TEST", 0, 1_000), user_id, "13677010001-2")
        .await;

    // While an order is in progress: refused in the request's language, nothing changed.
    let refused = app.delete("/api/v1/me", Some(&token)).await;
    refused.assert_error(409, "409");
    assert!(
        refused.err_msg().contains("进行中的订单"),
        "{}",
        refused.err_msg()
    );
    let refused = app
        .call(
            reqwest::Method::DELETE,
            "/api/v1/me",
            None,
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    refused.assert_error(409, "409");
    assert!(
        refused.err_msg().contains("in progress"),
        "{}",
        refused.err_msg()
    );
    app.get_auth("/api/v1/me", Some(&token)).await.assert_ok();
    assert_eq!(account(&app, user_id).await.2, 100);

    // The open order ends (its points and coupon come back), then the account closes.
    app.post(
        &format!("/api/v1/orders/{open}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    let (available, pending, held, _) = account(&app, user_id).await;
    assert!(available >= 800 && pending > 0 && held == 0);
    let gifts = GiftRepo::new(app.app_state.db.clone());
    assert_eq!(
        gifts.for_user(user_id).await.unwrap()[0].status,
        "available"
    );
    app.delete("/api/v1/me", Some(&token)).await.assert_ok();

    // Everything it held is forfeited, and the ledgers say so.
    assert_eq!(account(&app, user_id).await, (0, 0, 0, 0));
    assert_eq!(
        coupons.get(&unused).await.unwrap().unwrap().status,
        CouponStatus::Expired
    );
    let events = coupons.events(&unused).await.unwrap();
    assert_eq!(events.last().unwrap().reason, "account_closed");
    // The used one stays the record of what paid for its order.
    assert_eq!(
        coupons.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Used
    );
    assert!(gifts
        .for_user(user_id)
        .await
        .unwrap()
        .iter()
        .all(|g| g.status == "forfeited"));
    assert!(app
        .app_state
        .loyalty
        .members()
        .member(user_id)
        .await
        .unwrap()
        .is_none());
    points_reconcile_clean(&app).await;
    // The pending lot's window closing later credits nothing to the closed account.
    app.clock.advance_ms(3_000);
    app.app_state.loyalty.sweep().await.unwrap();
    assert_eq!(account(&app, user_id).await, (0, 0, 0, 0));
    points_reconcile_clean(&app).await;
    // A chain refund of its completed order later gives the closed account nothing either.
    app.post(
        &format!("/api/v1/chain/orders/{done}/refund"),
        &json!({}),
        Some(OPS),
    )
    .await
    .assert_ok();
    app.app_state.loyalty.sweep().await.unwrap();
    app.app_state.coupons.sweep().await.unwrap();
    assert_eq!(account(&app, user_id).await, (0, 0, 0, 0));
    // Its coupon does not come back to a closed account.
    assert_eq!(
        coupons.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Expired
    );
    points_reconcile_clean(&app).await;
    assert_eq!(lost(&app, &done).await, Vec::<String>::new());

    // The phone registers again as a new account with nothing.
    let again = app.register("13677010001").await;
    let me = app.get_auth("/api/v1/members/me", Some(&again)).await;
    assert_eq!(me.assert_ok()["isLoyalty"], false);
    assert_eq!(me.assert_ok()["points"]["available"], 0);
}

/// Undoes, behind the service's back, the give-back of a cancelled paid order's points, the
/// way a lost hook would leave it: the hold still captured, the ledger without the restore,
/// the lots and the balance consistent with that.
async fn lose_the_restore(app: &TestApp, order_no: &str, user_id: i64, points: i64) {
    let pool = app.app_state.db.pool();
    sqlx::query("DELETE FROM points_entries WHERE business_type = 'deduction' AND business_id = $1 AND direction = 'restore'")
        .bind(order_no)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query("UPDATE points_holds SET status = 'captured' WHERE order_no = $1")
        .bind(order_no)
        .execute(pool)
        .await
        .unwrap();
    let lots: String = sqlx::query_scalar("SELECT lots FROM points_holds WHERE order_no = $1")
        .bind(order_no)
        .fetch_one(pool)
        .await
        .unwrap();
    let lots: Vec<(i64, i64)> = serde_json::from_str(&lots).unwrap();
    for (lot, take) in lots {
        sqlx::query("UPDATE points_lots SET remaining = remaining - $2 WHERE id = $1")
            .bind(lot)
            .bind(take)
            .execute(pool)
            .await
            .unwrap();
    }
    sqlx::query("UPDATE points_accounts SET available = available - $2 WHERE user_id = $1")
        .bind(user_id)
        .bind(points)
        .execute(pool)
        .await
        .unwrap();
}

/// A server whose loyalty sweep does not run by itself: the test runs it when it means to.
async fn without_the_background_sweep() -> TestApp {
    spawn_app_with(MONDAY_NOON_MS, |s| s.loyalty.sweep_ms = 3_600_000).await
}

#[tokio::test]
async fn a_lost_reversal_is_seen_by_the_reconcile_and_given_back_by_the_sweep() {
    let app = without_the_background_sweep().await;
    let (token, user_id, _, body) = member(&app, "13677010002", 500).await;
    let order_no = submit(&app, &token, &body, 200).await;
    app.pay(&token, &order_no).await;
    app.post(
        &format!("/api/v1/orders/{order_no}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    assert_eq!(account(&app, user_id).await, (500, 0, 0, 0));
    assert_eq!(lost(&app, &order_no).await, Vec::<String>::new());

    lose_the_restore(&app, &order_no, user_id, 200).await;
    // Each ledger agrees with itself; only the order against its ledgers shows the loss.
    points_reconcile_clean(&app).await;
    assert_eq!(
        lost(&app, &order_no).await,
        vec!["points: hold still captured".to_string()]
    );
    // The chain's reconcile shows it once the order has had time to settle.
    app.clock.advance_ms(11 * 60_000);
    let report = app
        .post("/api/v1/chain/points/reconcile", &json!({}), Some(OPS))
        .await;
    let report = report.assert_ok();
    assert_eq!(report["mismatches"], json!([]));
    assert_eq!(report["lostReversals"][0]["orderNo"], json!(order_no));
    assert_eq!(report["lostReversals"][0]["ledger"], "points");
    // The sweep gives the points back.
    let swept = app.app_state.loyalty.sweep().await.unwrap();
    assert_eq!(swept.holds_settled, 1);
    assert_eq!(account(&app, user_id).await, (500, 0, 0, 0));
    assert_eq!(lost(&app, &order_no).await, Vec::<String>::new());
    points_reconcile_clean(&app).await;
}

#[tokio::test]
async fn a_chain_refund_whose_reversal_was_lost_is_reversed_by_the_sweep() {
    let app = without_the_background_sweep().await;
    let (token, user_id, coupon, body) = member(&app, "13677010003", 500).await;
    let staff = tablet_login(&app, "SH001").await;
    let order_no = submit(&app, &token, &body, 100).await;
    app.pay(&token, &order_no).await;
    complete(&app, &staff, &order_no).await;
    let (_, earned, _, _) = account(&app, user_id).await;
    assert!(earned > 0);
    // The money goes back, and the process dies before the loyalty reversal and the coupon.
    app.app_state
        .payments
        .refund_completed(&order_no)
        .await
        .unwrap();
    let mut found = lost(&app, &order_no).await;
    found.sort();
    assert_eq!(
        found,
        vec![
            format!("coupons: coupon {coupon} still USED"),
            "points: lot pending not reversed".to_string(),
            "points: points earned not reversed".to_string(),
            "points: points used still captured".to_string(),
            "spend: spend not taken back".to_string(),
        ]
    );
    let swept = app.app_state.loyalty.sweep().await.unwrap();
    assert_eq!(swept.refunds_reversed, 1);
    app.app_state.coupons.sweep().await.unwrap();
    assert_eq!(lost(&app, &order_no).await, Vec::<String>::new());
    assert_eq!(account(&app, user_id).await, (500, 0, 0, 0));
    assert_eq!(
        CouponRepo::new(app.app_state.db.clone())
            .get(&coupon)
            .await
            .unwrap()
            .unwrap()
            .status,
        CouponStatus::Returned
    );
    points_reconcile_clean(&app).await;
}

/// The customer cancels on node B while the payment settles on node A, round after round: the
/// member ends with exactly the points of the orders that stand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_racing_the_payment_on_two_nodes_gives_the_points_back_exactly() {
    let app = spawn_app().await;
    let b = app.second_node().await;
    let start = 2_000;
    let (token, user_id, _, body) = member(&app, "13677010004", start).await;
    let client = reqwest::Client::new();
    let spend = 100;
    let mut standing = 0;
    let mut refunded = 0;
    let rounds = 12;
    for round in 0..rounds {
        // A person pays at most five times a minute (the attempt ceiling).
        app.clock.advance_ms(13_000);
        if round > 0 {
            crate::cart::add(
                &app,
                crate::cart::Auth::User(&token),
                json!([{"productCode": "SD001", "quantity": 4}]),
            )
            .await;
        }
        let order_no = submit(&app, &token, &body, spend).await;
        let payment = app.attempt(&token, &order_no).await;
        let cancel = client
            .post(format!("{b}/api/v1/orders/{order_no}/cancel"))
            .bearer_auth(&token)
            .json(&json!({}))
            .send();
        // By thirds: the cancel first, both at once, the payment first.
        let cancelled = match round % 3 {
            0 => {
                let c = cancel.await.unwrap().json::<Value>().await.unwrap();
                pay_at_cashier(&app, &payment, "success").await;
                c
            }
            1 => {
                let (_, c) = tokio::join!(pay_at_cashier(&app, &payment, "success"), async {
                    cancel.await.unwrap().json::<Value>().await.unwrap()
                });
                c
            }
            _ => {
                // Paid, and its points captured, before the cancel.
                pay_at_cashier(&app, &payment, "success").await;
                let points = PointsRepo::new(app.app_state.db.clone());
                for _ in 0..100 {
                    let hold = points.hold_of(&order_no).await.unwrap().unwrap();
                    if hold.2 == "captured" {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                cancel.await.unwrap().json::<Value>().await.unwrap()
            }
        };
        // The order settles: cancelled (and refunded if it was paid), or paid and standing.
        let mut state = 0;
        for _ in 0..100 {
            app.app_state.loyalty.sweep().await.unwrap();
            let o = app
                .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
                .await;
            state = o.assert_ok()["state"].as_i64().unwrap();
            let held = account(&app, user_id).await.2;
            if matches!(state, 3 | 6) && held == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        if state == 6 {
            standing += 1;
            // It stands: the customer cancels it now, before the store accepts.
            app.post(
                &format!("/api/v1/orders/{order_no}/cancel"),
                &json!({}),
                Some(&token),
            )
            .await
            .assert_ok();
            until_state(&app, &token, &order_no, 3).await;
        } else {
            assert_eq!(state, 3, "round {round}: {cancelled}");
        }
        app.app_state.loyalty.sweep().await.unwrap();
        let payments = PaymentRepo::new(app.app_state.db.clone())
            .for_order(&order_no)
            .await
            .unwrap();
        if payments.iter().any(|p| p.state == PaymentState::Refunded) {
            refunded += 1;
        }
        assert!(
            payments.iter().all(|p| p.state != PaymentState::Paid),
            "round {round}: no money kept for a cancelled order"
        );
        assert_eq!(
            account(&app, user_id).await,
            (start, 0, 0, 0),
            "round {round}: every cancelled order's points came back"
        );
        assert_eq!(lost(&app, &order_no).await, Vec::<String>::new());
    }
    points_reconcile_clean(&app).await;
    println!(
        "cancel racing payment: {rounds} rounds, {refunded} paid then refunded \
         ({standing} cancelled again after standing)"
    );
    assert!(
        refunded >= rounds / 3,
        "the paid-then-cancelled path was walked"
    );
}
