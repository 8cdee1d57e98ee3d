#![allow(clippy::unwrap_used, clippy::expect_used)]
//! What an order leaves running on a node goes once it is idle (issue 34, item 7): the cart's,
//! the order's and the payment attempt's actors stop after `[memory] session_idle_seconds`, and
//! the memory sweep drops their registry entries; the next use of the order starts its actor
//! again from the database, as after a restart.

use crate::helpers::{spawn_app_with, TestApp, MONDAY_NOON_MS};
use serde_json::json;
use std::time::{Duration, Instant};

async fn live(app: &TestApp) -> (usize, usize, usize) {
    let s = &app.app_state;
    (
        s.carts.live_sessions(),
        s.orders.live_sessions(),
        s.payments.live_sessions(),
    )
}

async fn until(app: &TestApp, want: impl Fn((usize, usize, usize)) -> bool, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let now = live(app).await;
        if want(now) {
            return;
        }
        assert!(Instant::now() < deadline, "live sessions still {now:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn an_orders_actors_stop_after_the_configured_idle_and_start_again_when_needed() {
    let app = spawn_app_with(MONDAY_NOON_MS, |s| {
        s.memory.session_idle_seconds = 1;
        s.memory.sweep_seconds = 1;
    })
    .await;
    let paid = app.paid_order("13512377001").await;
    let (carts, orders, payments) = live(&app).await;
    assert!(
        carts >= 1 && orders >= 1 && payments >= 1,
        "{carts} {orders} {payments}"
    );

    // Nobody uses them for the idle spell: all stop (the paid attempt has no timer pending).
    until(&app, |n| n == (0, 0, 0), Duration::from_secs(10)).await;

    // The order moves on as before: the store accepts it and walks it to delivered, its
    // actor started again from the row.
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    let path = |step: &str| format!("/api/v1/tablet/orders/{}/{step}", paid.order_no);
    app.post(&path("accept"), &json!({}), Some(&staff))
        .await
        .assert_ok();
    assert_eq!(live(&app).await.1, 1);
    for from in [1, 10, 20, 30, 40] {
        app.post(&path("advance"), &json!({ "from": from }), Some(&staff))
            .await
            .assert_ok();
    }
    let order = app
        .get_auth(
            &format!("/api/v1/orders/{}", paid.order_no),
            Some(&paid.token),
        )
        .await;
    let order = order.assert_ok();
    assert_eq!(
        (order["state"].as_u64(), order["progress"].as_u64()),
        (Some(8), Some(50))
    );

    // The sweep has dropped the stopped actors' entries: what is held is what runs.
    until(&app, |n| n == (0, 0, 0), Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let s = &app.app_state;
    assert_eq!(s.orders.held_sessions(), 0);
    assert_eq!(s.payments.held_sessions(), 0);
    assert_eq!(s.carts.held_sessions(), 0);
}
