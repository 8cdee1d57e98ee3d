#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Order numbers under load (issue 34, item 6): at about 140 submits a second, 2 of 8,932
//! failed with a 500 on a duplicate number (the second plus six random digits). Numbers drawn
//! by two nodes in one millisecond never repeat; parallel submits on two nodes all succeed with
//! distinct numbers. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.

use crate::helpers::{backend, spawn_app};
use crate::payments::ready_to_submit;
use actors::db::order_numbers::OrderNumbers;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Two nodes (two pools on one database), four drawers each, drawing at a handful of instants
/// that share a second, a millisecond, or neither: 6,000 numbers, none twice, each the time's
/// twelve digits and six more.
#[tokio::test]
async fn numbers_drawn_by_two_nodes_in_one_millisecond_never_repeat() {
    let app = spawn_app().await;
    let now = app.clock.now_ms();
    let instants = [now, now, now + 1, now + 999, now + 1_000];
    let nodes = [app.app_state.db.clone(), app.another_pool().await];
    let mut drawers = tokio::task::JoinSet::new();
    for drawer in 0..8 {
        let numbers = OrderNumbers::new(nodes[drawer % 2].clone());
        drawers.spawn(async move {
            let mut drawn = Vec::with_capacity(750);
            for i in 0..750 {
                let at = instants[(drawer + i) % instants.len()];
                drawn.push((at, numbers.next(at).await.unwrap()));
            }
            drawn
        });
    }
    let drawn: Vec<(i64, String)> = drawers.join_all().await.into_iter().flatten().collect();
    let mut seen = HashSet::new();
    let repeats: Vec<&String> = drawn
        .iter()
        .filter(|(_, n)| !seen.insert(n.clone()))
        .map(|(_, n)| n)
        .collect();
    assert!(
        repeats.is_empty(),
        "{} of {} numbers repeated ({}), e.g. {:?}",
        repeats.len(),
        drawn.len(),
        backend(),
        &repeats[..repeats.len().min(3)]
    );
    for (at, n) in &drawn {
        let second = actors::domain::ordering::checkout::order_no(*at, 0);
        assert_eq!(n.len(), 18, "{n}");
        assert!(n.bytes().all(|b| b.is_ascii_digit()), "{n}");
        assert_eq!(n[..12], second[..12], "{n} at {at}");
    }
}

/// Customers submitting at once on two nodes, all in one second: every submit succeeds, with
/// a number of its own.
#[tokio::test]
async fn parallel_submits_on_two_nodes_get_numbers_of_their_own() {
    let app = spawn_app().await;
    let nodes = [app.address.clone(), app.second_node().await];
    let mut ready = Vec::new();
    for i in 0..40 {
        ready.push(
            ready_to_submit(
                &app,
                &format!("135123450{i:02}"),
                json!([{"productCode": "SD001", "quantity": 4}]),
            )
            .await,
        );
    }
    let mut submits = tokio::task::JoinSet::new();
    for (i, (token, body)) in ready.into_iter().enumerate() {
        let (client, node) = (app.client.clone(), nodes[i % 2].clone());
        submits.spawn(async move {
            let res = client
                .post(format!("{node}/api/v1/orders"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .unwrap();
            (res.status().as_u16(), res.json::<Value>().await.unwrap())
        });
    }
    let answers = submits.join_all().await;
    let failed: Vec<&(u16, Value)> = answers.iter().filter(|(s, _)| *s != 200).collect();
    assert!(failed.is_empty(), "submits refused: {failed:?}");
    let numbers: HashSet<&str> = answers
        .iter()
        .map(|(_, b)| b["data"]["orderNo"].as_str().unwrap())
        .collect();
    assert_eq!(numbers.len(), answers.len(), "a number given twice");
}

/// A number can still be taken (a million drawn within one second, a clock set back onto
/// numbers of old, random ones from before the counter): the submit draws again instead of
/// failing with a 500.
#[tokio::test]
async fn a_number_already_taken_is_drawn_again() {
    let app = spawn_app().await;
    let (token, body) = ready_to_submit(
        &app,
        "13512345101",
        json!([{"productCode": "SD001", "quantity": 4}]),
    )
    .await;
    let user_id = app.user_id(&token).await;
    let now = app.clock.now_ms();
    // The number the submit will draw next, taken by an order already there.
    let next = OrderNumbers::new(app.app_state.db.clone())
        .draw()
        .await
        .unwrap()
        + 1;
    let taken = actors::domain::ordering::checkout::order_no(now, next);
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    crate::coupon_races::order_row(&mut tx, &taken, user_id, 8, now).await;
    tx.commit().await.unwrap();

    let placed = app.post("/api/v1/orders", &body, Some(&token)).await;
    let order_no = placed.assert_ok()["orderNo"].as_str().unwrap().to_string();
    assert_ne!(order_no, taken);
    assert_eq!(order_no[..12], taken[..12], "the same second");
    let mine = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    assert_eq!(
        mine.assert_ok()["orderAmount"],
        placed.data()["orderAmount"]
    );
}
