//! The product's gateway as `serve` mounts it: the whole Application on a random port, the
//! official socket.io-client over WebSocket, an event published on the app's bus.

use crate::node::{node_dir, node_ready};
use actors::bus::Event;
use actors::clock::Clock;
use pizza_order::app::Application;
use pizza_order::config::Settings;
use serde_json::json;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

const NOW: i64 = 1_795_406_400_000;

/// The whole app on the embedded database in a fresh directory: (app, base url, directory).
async fn start_app() -> (Application, String, PathBuf) {
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
    (app, base, dir)
}

#[tokio::test]
async fn the_gateway_answers_time_sync_and_delivers_store_updates() {
    if !node_ready() {
        return;
    }
    let (app, base, dir) = start_app().await;
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
                    version: 1,
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
    let (app, base, dir) = start_app().await;
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

/// `order:watch` with the order's view token: the snapshot, then every move as `order:progress`
/// with the next seq, in order.
#[tokio::test]
async fn watching_an_order_follows_its_moves_in_order() {
    if !node_ready() {
        return;
    }
    let (app, base, dir) = start_app().await;
    tokio::spawn(app.run_until_stopped());
    let http = Http::new(&base);

    // A customer places a cash-on-delivery order at the flagship.
    let phone = "13512380001";
    http.post(
        "/api/v1/auth/sms-code",
        json!({"cellPhone": phone, "scene": "register"}),
        None,
    )
    .await;
    let outbox = http
        .get(&format!("/api/v1/dev/sms-outbox?cellPhone={phone}"), None)
        .await;
    let text = outbox["data"][0]["text"]
        .as_str()
        .or(outbox["data"][0]["content"].as_str())
        .unwrap()
        .to_string();
    let code: String = text.chars().filter(char::is_ascii_digit).take(6).collect();
    let reg = http
        .post("/api/v1/auth/register", json!({"cellPhone": phone, "smsCode": code, "password": "Pizza2026ok", "privacyAgreed": true}), None)
        .await;
    let token = reg["data"]["token"].as_str().unwrap().to_string();
    let address = http
        .post("/api/v1/addresses", json!({"name": "张三", "phone": "13812345678", "baseAddress": "上海市黄浦区西藏中路236号",
            "houseNumber": "5楼", "lat": "31.231655", "lng": "121.476213", "cityName": "上海市"}), Some(&token))
        .await;
    let address = address["data"]["id"].as_i64().unwrap();
    http.post(
        "/api/v1/cart/items",
        json!({"storeCode": "SH001", "items": [{"productCode": "SD001"}]}),
        Some(&token),
    )
    .await;
    let cart = http
        .post(
            "/api/v1/orders/reservation",
            json!({"orderType": 0, "storeCode": "SH001"}),
            Some(&token),
        )
        .await;
    let cart = &cart["data"];
    let order = http
        .post(
            "/api/v1/orders",
            json!({"orderType": 0, "consignAddressId": address, "paymentType": "offline",
            "orderProductAmount": cart["priceOfProduct"], "activityAmount": cart["discountAmount"],
            "freightAmount": cart["deliveryFeeAfterPE"], "orderAmount": cart["orderAmount"]}),
            Some(&token),
        )
        .await;
    let order_no = order["data"]["orderNo"].as_str().unwrap().to_string();
    let detail = http
        .get(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let view = detail["data"]["viewToken"].as_str().unwrap().to_string();
    let staff = http
        .post(
            "/api/v1/tablet/login",
            json!({"storeCode": "SH001", "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    let staff = staff["data"]["token"].as_str().unwrap().to_string();

    let mut child = tokio::process::Command::new("node")
        .args(["watch.mjs", &base, &order_no, &view, "3"])
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
                let path = |a: &str| format!("/api/v1/tablet/orders/{order_no}/{a}");
                http.post(&path("accept"), json!({}), Some(&staff)).await;
                http.post(&path("advance"), json!({"from": 1}), Some(&staff))
                    .await;
                http.post(&path("advance"), json!({"from": 10}), Some(&staff))
                    .await;
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
        seen.first().map(String::as_str),
        Some("SNAPSHOT 1"),
        "{seen:?}"
    );
    assert_eq!(
        seen.last().map(String::as_str),
        Some("OK watch 2 3 4"),
        "{seen:?}"
    );
}

/// A small JSON client for the tests above.
struct Http {
    base: String,
    client: reqwest::Client,
}

impl Http {
    fn new(base: &str) -> Http {
        Http {
            base: base.to_string(),
            client: reqwest::Client::new(),
        }
    }

    async fn post(
        &self,
        path: &str,
        body: serde_json::Value,
        token: Option<&str>,
    ) -> serde_json::Value {
        let mut req = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let answer: serde_json::Value = req.send().await.unwrap().json().await.unwrap();
        assert_eq!(answer["errCode"], "00", "POST {path}: {answer}");
        answer
    }

    async fn get(&self, path: &str, token: Option<&str>) -> serde_json::Value {
        let mut req = self.client.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.unwrap().json().await.unwrap()
    }
}
