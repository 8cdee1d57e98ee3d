#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The store board on two nodes of one deployment (one database; with TEST_REDIS_URL one Redis
//! and its bus too): the tablet works on node B, the customer on node A, whose StoreActor
//! already holds the board in memory. The money path (cart pricing, submit) sees B's change on
//! its very next call; the card, the menu and store lists see it once the bus delivers (with
//! Redis), or once the board in memory is older than its max age (nodes without a shared bus).

use crate::helpers::{spawn_app, TestApp};
use crate::payments::{ready_to_submit, tablet_login};
use actors::stores::MAX_AGE_MS;
use serde_json::{json, Value};
use std::time::Duration;

async fn on_b(b: &str, staff: &str, path: &str, body: Value) {
    let answer: Value = reqwest::Client::new()
        .put(format!("{b}/api/v1{path}"))
        .bearer_auth(staff)
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["errCode"], "00", "{answer}");
}

/// What a customer browsing node A sees of SH001: the card's status, the menu's soldOut for
/// the cola, and the store's status in a store list.
async fn browsing(a: &TestApp) -> (Value, Value, Value) {
    let card = a.get("/api/v1/stores/SH001").await.assert_ok().clone();
    let city = card["cityCode"].as_str().unwrap().to_string();
    let menu = a.get("/api/v1/stores/SH001/menu?orderType=0").await;
    let cola = menu.assert_ok()["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["products"].as_array().unwrap().clone())
        .find(|p| p["productCode"] == "DR001")
        .unwrap()["soldOut"]
        .clone();
    let list = a
        .get(&format!("/api/v1/stores/search?cityCode={city}"))
        .await;
    let listed = list
        .assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["storeCode"] == "SH001")
        .map(|s| s["status"].clone())
        .unwrap_or(Value::Null);
    (card["status"].clone(), cola, listed)
}

#[tokio::test]
async fn a_board_change_on_one_node_is_seen_by_the_next_read_on_another() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let (token, body) = ready_to_submit(
        &a,
        "13512380101",
        json!([{"productCode": "SD001", "quantity": 2}, {"productCode": "DR001", "quantity": 1}]),
    )
    .await;
    let staff = tablet_login(&a, "SH001").await;
    // Node A holds SH001's board in memory from here on.
    let before = browsing(&a).await;
    assert_eq!(before.0, "open");
    assert_eq!(before.1, false);

    // The crew 86es the cola on node B. The money path on A sees it at once: the cart shows it
    // sold out and submit refuses it.
    on_b(
        &b,
        &staff,
        "/tablet/products/DR001/availability",
        json!({"soldOut": true}),
    )
    .await;
    let cart = a.get_auth("/api/v1/cart", Some(&token)).await;
    assert_eq!(
        cart.assert_ok()["saleOutItemsFromShoppingCar"][0]["productCode"],
        "DR001",
        "{}",
        cart.body
    );
    a.post("/api/v1/orders", &body, Some(&token))
        .await
        .assert_error(409, "-7");

    // Then they say they are busy, on B. Browsing on A (no money call in between): with a
    // shared bus, as soon as it delivers (the clock stands still, so nothing else can bring
    // it); without one, the first read past the max age.
    on_b(
        &b,
        &staff,
        "/tablet/store/status",
        json!({"status": "busy"}),
    )
    .await;
    let want = (json!("busy"), json!(true), json!("busy"));
    if a.has_redis() {
        let mut seen = browsing(&a).await;
        for _ in 0..500 {
            if seen == want {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            seen = browsing(&a).await;
        }
        assert_eq!(seen, want, "the bus brought B's change to A");
    } else {
        a.clock.advance_ms(MAX_AGE_MS);
        assert_eq!(browsing(&a).await, want, "the next read past the max age");
    }

    // Back on sale on B: A's very next submit goes through.
    on_b(
        &b,
        &staff,
        "/tablet/products/DR001/availability",
        json!({"soldOut": false}),
    )
    .await;
    let done = a.post("/api/v1/orders", &body, Some(&token)).await;
    assert_eq!(done.err_code(), "00", "{}", done.body);
}

#[tokio::test]
async fn a_store_closed_on_one_node_refuses_the_next_submit_on_another() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let (token, body) = ready_to_submit(
        &a,
        "13512380102",
        json!([{"productCode": "SD001", "quantity": 1}]),
    )
    .await;
    let staff = tablet_login(&a, "SH001").await;
    assert_eq!(browsing(&a).await.0, "open");
    on_b(
        &b,
        &staff,
        "/tablet/store/status",
        json!({"status": "closed", "notice": "装修中"}),
    )
    .await;
    let refused = a.post("/api/v1/orders", &body, Some(&token)).await;
    assert_ne!(refused.err_code(), "00", "{}", refused.body);
    let orders = a.get_auth("/api/v1/orders?state=all", Some(&token)).await;
    assert_eq!(orders.assert_ok()["total"], 0, "nothing was created");
}
