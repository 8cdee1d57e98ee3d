#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The tablets' live queue on two nodes of one deployment (one database; with TEST_REDIS_URL
//! one Redis too): node B's StoreActor already holds SH001's queue in memory when the customer
//! pays and the crew moves the order on node A. Nothing tells B; B's very next tablet read
//! still lists exactly what A's does, because every read checks the queue's versions against
//! the database.

use crate::helpers::{spawn_app, TestApp};
use crate::payments::{tablet_login, unpaid_order};
use serde_json::{json, Value};

async fn queue_on_b(b: &str, staff: &str, scope: &str) -> Value {
    let answer: Value = reqwest::Client::new()
        .get(format!("{b}/api/v1/tablet/orders?scope={scope}"))
        .bearer_auth(staff)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["errCode"], "00", "{answer}");
    answer["data"].clone()
}

async fn queue_on_a(a: &TestApp, staff: &str, scope: &str) -> Value {
    a.get_auth(&format!("/api/v1/tablet/orders?scope={scope}"), Some(staff))
        .await
        .assert_ok()
        .clone()
}

fn numbers(queue: &Value) -> Vec<&str> {
    queue
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["orderNo"].as_str().unwrap())
        .collect()
}

async fn on_a(a: &TestApp, staff: &str, order_no: &str, action: &str, body: Value) {
    a.post(
        &format!("/api/v1/tablet/orders/{order_no}/{action}"),
        &body,
        Some(staff),
    )
    .await
    .assert_ok();
}

#[tokio::test]
async fn an_order_paid_and_moved_on_one_node_is_in_the_next_queue_read_on_another() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let staff = tablet_login(&a, "SH001").await;
    // B's tablet has read the queue: B's StoreActor holds it (nothing in it yet).
    assert_eq!(queue_on_b(&b, &staff, "active").await, json!([]));

    let (token, first) = unpaid_order(&a, "13512380201").await;
    let (token2, second) = unpaid_order(&a, "13512380202").await;
    assert_eq!(queue_on_b(&b, &staff, "active").await, json!([]), "unpaid");
    for (token, order_no) in [(&token, &first), (&token2, &second)] {
        a.pay(token, order_no).await;
    }
    let on_b = queue_on_b(&b, &staff, "active").await;
    assert_eq!(numbers(&on_b), [first.as_str(), second.as_str()]);
    assert_eq!(
        on_b,
        queue_on_a(&a, &staff, "active").await,
        "the same cards"
    );

    // The crew accepts the first on A and takes it to the oven: B's next read shows it there.
    on_a(&a, &staff, &first, "accept", json!({})).await;
    on_a(&a, &staff, &first, "advance", json!({"from": 1})).await;
    on_a(&a, &staff, &first, "advance", json!({"from": 10})).await;
    let on_b = queue_on_b(&b, &staff, "active").await;
    assert_eq!(
        (on_b[0]["state"].clone(), on_b[0]["progress"].clone()),
        (json!(1), json!(20))
    );
    assert_eq!(on_b, queue_on_a(&a, &staff, "active").await);

    // Refused on A: it leaves B's live queue, and B's "today" lists it closed, in queue order.
    on_a(&a, &staff, &second, "refuse", json!({"reason": "太忙"})).await;
    assert_eq!(
        numbers(&queue_on_b(&b, &staff, "active").await),
        [first.as_str()]
    );
    let today = queue_on_b(&b, &staff, "today").await;
    assert_eq!(numbers(&today), [first.as_str(), second.as_str()]);
    assert_eq!(today[1]["closedBy"], "store", "{today}");
    assert_eq!(today, queue_on_a(&a, &staff, "today").await);
}
