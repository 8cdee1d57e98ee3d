//! The product's gateway as `serve` mounts it: the whole Application on a random port, the
//! official socket.io-client over WebSocket, an event published on the app's bus.

use crate::node::{node_dir, node_ready};
use actors::bus::Event;
use actors::clock::Clock;
use pizza_order::app::Application;
use pizza_order::config::Settings;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

const NOW: i64 = 1_795_406_400_000;

#[tokio::test]
async fn the_gateway_answers_time_sync_and_delivers_store_updates() {
    if !node_ready() {
        return;
    }
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut settings = Settings::load_env(&config_dir, "test").unwrap();
    let dir = std::env::temp_dir().join(format!("pizza-gateway-{}", uuid::Uuid::new_v4()));
    settings.server.data_dir = dir.clone();
    settings.server.static_dir = dir.join("static");
    settings.database.url = String::new();
    settings.redis.url = String::new();
    let app = Application::build(settings, Clock::manual(NOW))
        .await
        .unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    let bus = app.state().bus.clone();
    tokio::spawn(app.run_until_stopped());
    let login: serde_json::Value = reqwest::Client::new()
        .post(format!("{base}/api/v1/tablet/login"))
        .json(&serde_json::json!({"storeCode": "SH001", "staffCode": "manager", "pin": "246810"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let staff_token = login["data"]["token"].as_str().unwrap().to_string();

    let mut child = tokio::process::Command::new("node")
        .args(["gateway.mjs", &base])
        .env("SERVER_TIME", NOW.to_string())
        .env("STAFF_TOKEN", staff_token)
        .current_dir(node_dir())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let outcome = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line == "READY" {
                bus.publish(&Event::StoreUpdate {
                    store_code: "SH001".into(),
                    status: "open".into(),
                    notice: None,
                    sold_out: vec!["PZ001".into()],
                })
                .await
                .unwrap();
            }
            let done = line.starts_with("OK ") || line.starts_with("FAIL ");
            seen.push(line);
            if done {
                break;
            }
        }
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(outcome.is_ok(), "the node client timed out: {seen:?}");
    assert_eq!(
        seen.last().map(String::as_str),
        Some("OK gateway"),
        "{seen:?}"
    );
}

/// Another tab of the same visitor hears about a change to the cart (`cart:updated` in the
/// room of its cart token), after the change is stored.
#[tokio::test]
async fn a_cart_change_reaches_the_visitors_other_tabs() {
    if !node_ready() {
        return;
    }
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut settings = Settings::load_env(&config_dir, "test").unwrap();
    let dir = std::env::temp_dir().join(format!("pizza-gateway-{}", uuid::Uuid::new_v4()));
    settings.server.data_dir = dir.clone();
    settings.server.static_dir = dir.join("static");
    settings.database.url = String::new();
    settings.redis.url = String::new();
    let app = Application::build(settings, Clock::manual(NOW))
        .await
        .unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    let cart: serde_json::Value = client
        .get(format!("{base}/api/v1/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = cart["data"]["cartToken"].as_str().unwrap().to_string();

    let mut child = tokio::process::Command::new("node")
        .args(["cart.mjs", &base, &token])
        .current_dir(node_dir())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let outcome = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line == "READY" {
                let added = client
                    .post(format!("{base}/api/v1/cart/items"))
                    .header("X-Cart-Token", &token)
                    .json(&serde_json::json!({"storeCode": "SH001", "items": [{"productCode": "SD001"}]}))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(added.status(), 200);
            }
            let done = line.starts_with("OK ") || line.starts_with("FAIL ");
            seen.push(line);
            if done {
                break;
            }
        }
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(outcome.is_ok(), "the node client timed out: {seen:?}");
    assert_eq!(
        seen.last().map(String::as_str),
        Some("OK cart 1"),
        "{seen:?}"
    );
}
