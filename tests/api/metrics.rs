#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `GET /metrics`: the Prometheus text after real traffic (requests, a Socket.IO connection, a
//! paid order), who may scrape it, and its own listener.
//!
//! The `metrics` facade has one recorder per process, shared by every app the test binary
//! starts, so counters here also move with other tests' traffic. Exact checks use what only
//! these tests touch: the `/metrics` route's own counter and the gauges set at scrape time
//! (only the scrapes of the first test render them; the second one's are all refused).

use crate::helpers::{spawn_app, spawn_app_with, TestApp, MONDAY_NOON_MS};
use crate::payments::{create_payment, pay_at_cashier, unpaid_order, until_state};
use actors::clock::Clock;
use pizza_order::app::Application;
use pizza_order::config::Settings;
use std::path::PathBuf;
use std::time::Duration;

/// The scrape's text; fails unless it is Prometheus text.
async fn scrape(base: &str) -> String {
    let res = reqwest::get(format!("{base}/metrics")).await.unwrap();
    assert_eq!(res.status(), 200);
    let kind = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    res.text().await.unwrap()
}

/// The value of the series `name` whose labels include all of `labels` (the first such line).
fn value(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (series, number) = line.rsplit_once(' ')?;
            let (series_name, rest) = series.split_once('{').unwrap_or((series, "}"));
            if series_name != name {
                return None;
            }
            let have = rest.strip_suffix('}')?;
            let all = labels
                .iter()
                .all(|(k, v)| have.split(',').any(|pair| pair == format!("{k}=\"{v}\"")));
            all.then(|| number.parse().ok()).flatten()
        })
}

fn must(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    value(text, name, labels).unwrap_or_else(|| panic!("no {name} {labels:?} in\n{text}"))
}

const SCRAPES: [(&str, &str); 3] = [("method", "GET"), ("route", "/metrics"), ("status", "200")];

/// A Socket.IO client over long-polling that joins its cart's room: (engine sid).
async fn connect_socket(app: &TestApp, cart_token: &str) -> String {
    let url = format!("{}/socket.io/", app.address);
    let open = app
        .client
        .get(format!("{url}?EIO=4&transport=polling"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let open: serde_json::Value = serde_json::from_str(open.strip_prefix('0').unwrap()).unwrap();
    let sid = open["sid"].as_str().unwrap().to_string();
    let posted = app
        .client
        .post(format!("{url}?EIO=4&transport=polling&sid={sid}"))
        .body(format!(r#"40{{"cartToken":"{cart_token}"}}"#))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 200);
    let connected = app
        .client
        .get(format!("{url}?EIO=4&transport=polling&sid={sid}"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        connected.starts_with("40{") && connected.contains("\"sid\""),
        "{connected}"
    );
    sid
}

#[tokio::test]
async fn the_scrape_counts_requests_by_route_sockets_payments_and_the_pool() {
    let app = spawn_app().await;
    let base = app.address.clone();

    // Routes are labelled by pattern: the order number and the unknown path are not labels.
    app.get("/api/v1/orders/METRICS4711").await;
    app.get("/no/such/metrics-path-4712").await;
    app.get("/api/v1/no-such-metrics-4713").await;
    let first = scrape(&base).await;
    for _ in 0..3 {
        scrape(&base).await;
    }
    let text = scrape(&base).await;
    // The first scrape, rendered before it was counted, saw none of the four that followed it.
    assert_eq!(
        must(&text, "http_requests_total", &SCRAPES),
        value(&first, "http_requests_total", &SCRAPES).unwrap_or(0.0) + 4.0
    );
    assert_eq!(
        must(&text, "http_request_duration_seconds_count", &SCRAPES),
        must(&text, "http_requests_total", &SCRAPES),
        "one timing per request"
    );
    let le_inf = [SCRAPES[0], SCRAPES[1], SCRAPES[2], ("le", "+Inf")];
    assert_eq!(
        must(&text, "http_request_duration_seconds_bucket", &le_inf),
        must(&text, "http_requests_total", &SCRAPES)
    );
    assert!(must(&text, "http_request_duration_seconds_sum", &SCRAPES) > 0.0);
    let order_route = [("route", "/api/v1/orders/{orderNo}"), ("status", "401")];
    assert!(must(&text, "http_requests_total", &order_route) >= 1.0);
    assert!(must(&text, "http_requests_total", &[("route", "unmatched")]) >= 1.0);
    // The app's files and its client routes are one label, the mount point.
    assert!(must(&text, "http_requests_total", &[("route", "/")]) >= 1.0);
    for raw in ["METRICS4711", "metrics-path-4712", "metrics-4713"] {
        assert!(!text.contains(raw), "{raw} became a label");
    }

    // One socket, in one room (its cart's), on this node.
    let _socket = connect_socket(&app, "metricsCart01").await;
    let text = scrape(&base).await;
    assert_eq!(must(&text, "socketio_sockets", &[("namespace", "/")]), 1.0);
    assert_eq!(must(&text, "socketio_rooms", &[("namespace", "/")]), 1.0);
    assert_eq!(
        must(&text, "socketio_sockets", &[("namespace", "/store")]),
        0.0
    );

    // A paid order: a payment outcome, order moves, events emitted to the order's rooms.
    let (token, order_no) = unpaid_order(&app, "13512379901").await;
    let payment = create_payment(&app, &token, &order_no).await;
    let payment_id = payment["paymentId"].as_str().unwrap();
    let paid = pay_at_cashier(&app, payment_id, "success").await;
    assert!(paid.body["returnUrl"].is_string(), "{:?}", paid.body);
    until_state(&app, &token, &order_no, 6).await;
    let text = scrape(&base).await;
    assert!(must(&text, "payment_outcomes_total", &[("outcome", "paid")]) >= 1.0);
    let to_paid: f64 = text
        .lines()
        .filter(|l| l.starts_with("order_transitions_total{") && l.contains("to=\"6/"))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum();
    assert!(to_paid >= 1.0, "no move to paid in\n{text}");
    assert!(
        must(
            &text,
            "socketio_events_emitted_total",
            &[("event", "order:progress")]
        ) >= 1.0
    );
    assert!(value(&text, "payment_notify_retries_total", &[]).is_some());
    assert!(must(&text, "actors_live", &[("kind", "cart_session")]) >= 1.0);
    assert!(must(&text, "actors_live", &[("kind", "order_session")]) >= 1.0);
    assert!(must(&text, "actors_live", &[("kind", "store_actor")]) >= 1.0);
    assert!(must(&text, "actors_live", &[("kind", "payment_session")]) >= 1.0);

    // The pool, read at scrape time.
    let max = must(&text, "db_pool_max_connections", &[]);
    let idle = must(&text, "db_pool_connections", &[("state", "idle")]);
    let busy = must(&text, "db_pool_connections", &[("state", "in_use")]);
    assert!(
        max >= 1.0 && idle + busy >= 1.0 && idle + busy <= max,
        "{idle} {busy} {max}"
    );

    // A scraper in the cluster, once its network is allowed; its neighbours still may not.
    let cluster = spawn_app_with(MONDAY_NOON_MS, |s| {
        s.metrics.allow = vec!["10.20.0.0/16".into()];
    })
    .await;
    let from = |ip: &'static str| {
        cluster
            .client
            .get(format!("{}/metrics", cluster.address))
            .header("X-Forwarded-For", ip)
            .send()
    };
    assert_eq!(from("10.20.3.4").await.unwrap().status(), 200);
    assert_eq!(from("10.21.3.4").await.unwrap().status(), 404);
    assert_eq!(
        reqwest::get(format!("{}/metrics", cluster.address))
            .await
            .unwrap()
            .status(),
        404
    );

    // With its own listener, the main port answers 404 and the listener serves the text.
    let dir = std::env::temp_dir().join(format!("pizza-metrics-{}", uuid::Uuid::new_v4()));
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut settings = Settings::load_env(&config_dir, "test").unwrap();
    settings.server.data_dir = dir.clone();
    settings.server.static_dir = dir.join("static");
    settings.database.url = String::new();
    settings.redis.url = String::new();
    settings.metrics.bind = "127.0.0.1:0".into();
    let separate = Application::build(settings, Clock::manual(MONDAY_NOON_MS))
        .await
        .unwrap();
    let main = format!("http://127.0.0.1:{}", separate.port());
    let own = format!("http://127.0.0.1:{}", separate.metrics_port().unwrap());
    tokio::spawn(separate.run_until_stopped());
    let refused = reqwest::get(format!("{main}/metrics")).await.unwrap();
    assert_eq!(refused.status(), 404);
    assert!(scrape(&own)
        .await
        .contains("# TYPE http_requests_total counter"));
    let elsewhere = reqwest::get(format!("{own}/api/v1/system/time"))
        .await
        .unwrap();
    assert_eq!(
        elsewhere.status(),
        404,
        "the metrics listener serves nothing else"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn only_allowed_addresses_scrape_and_off_means_off() {
    let app = spawn_app().await;
    // Relayed by our proxy (the test client is trusted) for a client outside: refused.
    let outside = app
        .client
        .get(format!("{}/metrics", app.address))
        .header("X-Forwarded-For", "203.0.113.50")
        .send()
        .await
        .unwrap();
    assert_eq!(outside.status(), 404);
    // The client's own claim to be local, left of what the proxy wrote, proves nothing.
    let spoofed = app
        .client
        .get(format!("{}/metrics", app.address))
        .header("X-Forwarded-For", "127.0.0.1, 203.0.113.50")
        .send()
        .await
        .unwrap();
    assert_eq!(spoofed.status(), 404);

    // For the monitoring system, not for API clients: not an operation of the API document.
    let doc: serde_json::Value = app
        .client
        .get(format!("{}/api-docs/openapi.json", app.address))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(
        paths.keys().any(|p| p.ends_with("/system/time")),
        "{paths:?}"
    );
    assert!(paths.keys().all(|p| !p.contains("metrics")), "{paths:?}");

    let off = spawn_app_with(MONDAY_NOON_MS, |s| s.metrics.enabled = false).await;
    let res = reqwest::get(format!("{}/metrics", off.address))
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
}

/// Issue 34 (14): a proxy on the same host (the test client, trusted) relays a request whose
/// last hop is not an address. The client is unknown then, not the proxy, whose loopback
/// address would be allowed to scrape.
#[tokio::test]
async fn a_forwarded_hop_that_is_not_an_address_does_not_open_the_scrape() {
    let app = spawn_app().await;
    let status = |forwarded: Option<&'static str>| {
        let mut req = app.client.get(format!("{}/metrics", app.address));
        if let Some(forwarded) = forwarded {
            req = req.header("X-Forwarded-For", forwarded);
        }
        async move { req.send().await.unwrap().status().as_u16() }
    };
    // The proxy's own request (no header): it is local, and may scrape.
    assert_eq!(status(None).await, 200);
    for forwarded in ["unknown", "1.2.3.4, garbage", "1.2.3.4, unknown", "_hidden"] {
        assert_eq!(
            status(Some(forwarded)).await,
            404,
            "X-Forwarded-For: {forwarded}"
        );
    }
    // An empty element is no hop at all: the proxy's own request again.
    assert_eq!(status(Some("127.0.0.1, ")).await, 200);
}
