#![allow(clippy::unwrap_used, clippy::expect_used)]
//! An order's detail is read from memory (`http::orders::views`): on the node where the order
//! moves, the next read shows the move; on another node, once the bus delivers (with
//! TEST_REDIS_URL), or once its memory is older than its max age (nodes without a shared bus).

use crate::helpers::{spawn_app, PaidOrder};
use crate::payments::{order, tablet_login};
use pizza_order::http::orders::views::MAX_AGE_MS;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_move_on_one_node_shows_in_the_detail_on_both() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let PaidOrder {
        token, order_no, ..
    } = a.paid_order("13512390201").await;
    let staff = tablet_login(&a, "SH001").await;
    let client = reqwest::Client::new();
    let detail_on_b = || async {
        let answer: serde_json::Value = client
            .get(format!("{b}/api/v1/orders/{order_no}"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        answer["data"].clone()
    };
    // Both nodes hold the paid order's detail.
    assert_eq!(order(&a, &token, &order_no).await["progress"], 0);
    assert_eq!(detail_on_b().await["progress"], 0);

    // The tablet accepts on node A: A's next read shows it at once.
    a.post(
        &format!("/api/v1/tablet/orders/{order_no}/accept"),
        &json!({}),
        Some(&staff),
    )
    .await
    .assert_ok();
    let on_a = order(&a, &token, &order_no).await;
    assert_eq!(
        (on_a["state"].clone(), on_a["progress"].clone()),
        (json!(1), json!(1))
    );

    // Node B hears of it on the bus, or asks the database once its memory is too old.
    if a.has_redis() {
        let mut seen = serde_json::Value::Null;
        for _ in 0..500 {
            seen = detail_on_b().await["progress"].clone();
            if seen == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(seen, 1, "node B still shows the order before the move");
    } else {
        a.clock.advance_ms(MAX_AGE_MS);
        assert_eq!(detail_on_b().await["progress"], 1);
    }
    // Kept in memory or not, the detail is its owner's only.
    let other = a.register("13512390202").await;
    a.get_auth(&format!("/api/v1/orders/{order_no}"), Some(&other))
        .await
        .assert_error(404, "404");
}
