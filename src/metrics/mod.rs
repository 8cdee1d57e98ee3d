//! Prometheus metrics (docs/operations.md). Everything counts through the `metrics` facade: the
//! actors crate and the Socket.IO library call its macros without knowing who listens, and this
//! module installs the one recorder (metrics-exporter-prometheus) that renders them at
//! `GET /metrics`. Gauges of things that already have a size (pool, sockets, rooms, actors) are
//! read when scraped rather than kept up to date on every change.

mod bus;
mod scrape;

pub use bus::CountingBus;
pub use scrape::{allowed, configure, serve_separately, Endpoint};

use actix_web::http::{Method, StatusCode};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Duration;

/// The label of requests no route matched (the app's files, unknown paths): one value, so a
/// scan of random paths cannot create series.
pub const UNMATCHED: &str = "unmatched";

/// Request latency buckets, in seconds: the API answers in milliseconds; the tail matters.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The process's recorder, installed on first use. The `metrics` facade has one global
/// recorder, so every app in a process (tests start many) shares it; `None` when it could not
/// be installed.
pub fn install() -> Option<PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let installed = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("http_request_duration_seconds".into()),
                    LATENCY_BUCKETS,
                )
                .and_then(|builder| builder.install_recorder());
            match installed {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "metrics recorder not installed");
                    None
                }
            }
        })
        .clone()
}

/// The HELP lines.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "http_requests_total",
        "HTTP requests answered, by method, route pattern and status."
    );
    describe_histogram!(
        "http_request_duration_seconds",
        Unit::Seconds,
        "Time from the request's arrival to its answer, by method, route pattern and status."
    );
    describe_gauge!(
        "socketio_sockets",
        "Socket.IO sockets connected to this node, by namespace."
    );
    describe_gauge!(
        "socketio_rooms",
        "Rooms with a member on this node, by namespace (each socket's own room not counted)."
    );
    describe_counter!(
        "socketio_events_emitted_total",
        "Bus events emitted to their rooms, by event name."
    );
    describe_counter!(
        "socketio_events_dropped_total",
        "Bus events never emitted: the gateway fell behind the bus's backlog."
    );
    describe_counter!(
        "socketio_clients_cut_off_total",
        "WebSocket clients dropped because more than the send backlog piled up unread."
    );
    describe_counter!(
        "socketio_recoveries_total",
        "Reconnections that asked to recover their session, by namespace and outcome."
    );
    describe_counter!(
        "order_transitions_total",
        "Order moves written, by from and to state/progress."
    );
    describe_counter!(
        "payment_outcomes_total",
        "Payments settled, by outcome (paid, failed, closed, refunded)."
    );
    describe_counter!(
        "payment_notify_retries_total",
        "Sandbox payment notifies sent again after an unacknowledged one."
    );
    describe_gauge!(
        "db_pool_connections",
        "Database pool connections, by state (idle, in_use)."
    );
    describe_gauge!("db_pool_max_connections", "The database pool's ceiling.");
    describe_gauge!("actors_live", "Live actors in this process, by kind.");
}

/// The route label: the matched pattern (`/api/v1/orders/{orderNo}`), never the raw path. The
/// app's files are mounted at the root, whose pattern is empty: they are all "/".
pub fn route_label(pattern: Option<String>) -> String {
    match pattern {
        Some(p) if p.is_empty() => "/".to_string(),
        Some(p) => p,
        None => UNMATCHED.to_string(),
    }
}

/// The method label; an invented method is "other", so clients cannot add series.
pub fn method_label(method: &Method) -> &'static str {
    const KNOWN: [(Method, &str); 9] = [
        (Method::GET, "GET"),
        (Method::POST, "POST"),
        (Method::PUT, "PUT"),
        (Method::PATCH, "PATCH"),
        (Method::DELETE, "DELETE"),
        (Method::HEAD, "HEAD"),
        (Method::OPTIONS, "OPTIONS"),
        (Method::CONNECT, "CONNECT"),
        (Method::TRACE, "TRACE"),
    ];
    KNOWN
        .iter()
        .find(|(m, _)| m == method)
        .map_or("other", |(_, label)| label)
}

/// Counts a request and its time (`http::edge::request_log` calls it for every request).
///
/// The recorder finds a series by hashing its name and labels under a lock, and the labels
/// are owned strings to build first: twice a request, for the counter and the histogram. Each
/// worker thread keeps the handles it has used instead (there are few: the labels are bounded,
/// see [`route_label`] and [`method_label`]), so a request costs one map lookup by route.
/// The maps hash with Fx rather than SipHash: their keys are our own route patterns, methods
/// and statuses, nothing a client can choose to collide, and SipHash of the route cost about
/// 400 instructions a request (callgrind).
pub fn record(method: &'static str, route: String, status: StatusCode, elapsed: Duration) {
    type Handles = (metrics::Counter, metrics::Histogram);
    /// Method and status → the series' handles.
    type OfRoute = FxHashMap<(&'static str, u16), Handles>;
    thread_local! {
        static SERIES: RefCell<FxHashMap<String, OfRoute>> = RefCell::new(FxHashMap::default());
    }
    SERIES.with_borrow_mut(|series| {
        let by_route = match series.get_mut(&route) {
            Some(by_route) => by_route,
            None => series.entry(route.clone()).or_default(),
        };
        let (count, time) = by_route
            .entry((method, status.as_u16()))
            .or_insert_with(|| {
                let status = status.as_u16().to_string();
                (
                    metrics::counter!("http_requests_total", "method" => method, "route" => route.clone(), "status" => status.clone()),
                    metrics::histogram!("http_request_duration_seconds", "method" => method, "route" => route, "status" => status),
                )
            });
        count.increment(1);
        time.record(elapsed.as_secs_f64());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_patterns_or_one_fixed_label() {
        let cases = [
            (Some("/api/v1/orders/{orderNo}"), "/api/v1/orders/{orderNo}"),
            (Some("/metrics"), "/metrics"),
            (Some(""), "/"),
            (None, UNMATCHED),
        ];
        for (pattern, label) in cases {
            assert_eq!(route_label(pattern.map(String::from)), label);
        }
    }

    /// Every series the dashboard queries is documented in docs/operations.md and described
    /// here (so it is the name the code records), and every documented one is on the dashboard.
    #[test]
    fn the_dashboard_and_the_docs_name_the_series_the_code_records() {
        let dashboard = include_str!("../../docs/grafana-dashboard.json");
        let docs = include_str!("../../docs/operations.md");
        let code = include_str!("mod.rs");
        let prefixes = [
            "http_",
            "socketio_",
            "order_",
            "payment_",
            "db_pool_",
            "actors_",
        ];
        let names = |text: &str| -> std::collections::BTreeSet<String> {
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| prefixes.iter().any(|p| w.starts_with(p)))
                .map(|w| w.trim_end_matches("_bucket").to_string())
                .collect()
        };
        let dashboard: serde_json::Value = serde_json::from_str(dashboard).unwrap_or_default();
        let exprs: Vec<String> = dashboard["panels"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|panel| panel["targets"].as_array().into_iter().flatten())
            .filter_map(|target| target["expr"].as_str().map(String::from))
            .collect();
        assert!(exprs.len() >= 15, "{exprs:?}");
        let queried = names(&exprs.join(" "));
        let documented: std::collections::BTreeSet<String> = docs
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .filter(|w| prefixes.iter().any(|p| w.starts_with(p)))
            .map(String::from)
            .collect();
        assert_eq!(documented.len(), 14, "{documented:?}");
        assert_eq!(queried, documented);
        let described = code
            .split_once("fn describe()")
            .and_then(|(_, rest)| rest.split_once("\n}\n"))
            .map_or("", |(body, _)| body);
        for name in &documented {
            assert!(
                described.contains(&format!("\"{name}\"")),
                "{name} is not described"
            );
        }
    }

    #[test]
    fn invented_methods_share_one_label() {
        let cases = [
            (Method::GET, "GET"),
            (Method::DELETE, "DELETE"),
            (Method::OPTIONS, "OPTIONS"),
            (Method::from_bytes(b"BREW").unwrap_or(Method::GET), "other"),
            (Method::from_bytes(b"get").unwrap_or(Method::GET), "other"),
        ];
        for (method, label) in cases {
            assert_eq!(method_label(&method), label, "{method}");
        }
    }
}
