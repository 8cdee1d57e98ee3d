#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Two nodes of one deployment (the same database and Redis): a customer pays and watches on
//! node A, the store's tablet moves the order on node B, and the customer's socket on A
//! follows every move in order. Runs with TEST_REDIS_URL (the Redis variant of the suite);
//! the watching client is the official socket.io-client (tests/realtime/node).

use crate::helpers::{spawn_app, PaidOrder};
use crate::payments::{order, tablet_login};
use serde_json::json;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

fn node_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/realtime/node")
}

#[tokio::test]
async fn a_customer_on_one_node_follows_a_tablet_on_another() {
    let a = spawn_app().await;
    if !a.has_redis() {
        eprintln!("SKIPPED: two nodes need Redis (TEST_REDIS_URL); the Redis variant runs this");
        return;
    }
    if !node_dir().join("node_modules/socket.io-client").exists() {
        eprintln!("SKIPPED: the Node client is not installed (the realtime tests install it)");
        return;
    }
    let b = a.second_node().await;
    let PaidOrder {
        token, order_no, ..
    } = a.paid_order("13512390001").await;
    let view = order(&a, &token, &order_no).await["viewToken"]
        .as_str()
        .unwrap()
        .to_string();

    // The tablet logs in and works on node B.
    let staff = tablet_login(&a, "SH001").await;
    let client = reqwest::Client::new();
    let on_b = |action: &str, body: serde_json::Value| {
        client
            .post(format!("{b}/api/v1/tablet/orders/{order_no}/{action}"))
            .bearer_auth(&staff)
            .json(&body)
            .send()
    };

    let mut child = tokio::process::Command::new("node")
        .args(["watch.mjs", &a.address, &order_no, &view, "6"])
        .current_dir(node_dir())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let outcome = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line == "READY" {
                assert_eq!(on_b("accept", json!({})).await.unwrap().status(), 200);
                for from in [1, 10, 20, 30, 40] {
                    assert_eq!(
                        on_b("advance", json!({"from": from}))
                            .await
                            .unwrap()
                            .status(),
                        200
                    );
                }
            }
            let done = line.starts_with("OK ") || line.starts_with("FAIL ");
            seen.push(line);
            if done {
                break;
            }
        }
    })
    .await;
    assert!(outcome.is_ok(), "the node client timed out: {seen:?}");
    assert_eq!(
        seen.first().map(String::as_str),
        Some("SNAPSHOT 2"),
        "{seen:?}"
    );
    assert_eq!(
        seen.last().map(String::as_str),
        Some("OK watch 3 4 5 6 7 8"),
        "{seen:?}"
    );
    assert_eq!(order(&a, &token, &order_no).await["state"], 8);
}
