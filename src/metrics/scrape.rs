//! `GET /metrics`. The figures say how busy the chain is and where it fails, which is nobody's
//! business outside: on the main port only the `[metrics] allow` addresses (loopback by
//! default) may scrape, judged on the client address after the trusted-proxies rule, so a
//! request relayed by our own proxy counts as its client's and is refused. Refused, or off, it
//! answers a bare 404, as an unknown path would. With `[metrics] bind` the figures are served
//! on a listener of their own instead, and the main port always answers 404.

use super::install;
use crate::config::MetricsSettings;
use crate::http::edge::client_ip::{client_addr, TrustedProxies};
use crate::state::AppState;
use actix_web::dev::Server;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use anyhow::Context;
use metrics::gauge;
use metrics_exporter_prometheus::PrometheusHandle;
use std::net::{IpAddr, TcpListener};

/// What `/metrics` serves on one listener.
#[derive(Clone)]
pub struct Endpoint {
    /// `None`: nothing is served here (metrics off, or on their own listener).
    handle: Option<PrometheusHandle>,
    /// Who may scrape; `None`: whoever reaches the listener (the separate one).
    allow: Option<TrustedProxies>,
}

impl Endpoint {
    /// The main port's endpoint.
    pub fn main_port(settings: &MetricsSettings) -> anyhow::Result<Endpoint> {
        let allow = TrustedProxies::parse(&settings.allow).map_err(|entry| {
            anyhow::anyhow!("[metrics] allow: {entry:?} is neither an IP nor a CIDR")
        })?;
        let here = settings.enabled && settings.bind.trim().is_empty();
        Ok(Endpoint {
            handle: here.then(install).flatten(),
            allow: Some(allow),
        })
    }
}

/// Whether a client at `client` may scrape, given the allowed addresses.
pub fn allowed(client: Option<IpAddr>, allow: &TrustedProxies) -> bool {
    client.is_some_and(|ip| allow.trusts(ip))
}

/// Mounts `/metrics` (before the app's files, whose fallback would answer it otherwise).
pub fn configure(cfg: &mut web::ServiceConfig, endpoint: Endpoint) {
    cfg.service(
        web::resource("/metrics")
            .app_data(web::Data::new(endpoint))
            .route(web::get().to(metrics)),
    );
}

async fn metrics(
    req: HttpRequest,
    endpoint: web::Data<Endpoint>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let Some(handle) = endpoint.handle.as_ref() else {
        return HttpResponse::NotFound().finish();
    };
    if let Some(allow) = &endpoint.allow {
        if !allowed(client_addr(&req), allow) {
            return HttpResponse::NotFound().finish();
        }
    }
    sample_gauges(&state);
    handle.run_upkeep();
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(handle.render())
}

/// The sizes read at scrape time.
fn sample_gauges(state: &AppState) {
    let pool = state.db.pool();
    let idle = pool.num_idle() as f64;
    gauge!("db_pool_connections", "state" => "idle").set(idle);
    gauge!("db_pool_connections", "state" => "in_use")
        .set((f64::from(pool.size()) - idle).max(0.0));
    gauge!("db_pool_max_connections").set(f64::from(pool.options().get_max_connections()));
    for namespace in state.io.namespaces() {
        let name = namespace.name().to_string();
        gauge!("socketio_sockets", "namespace" => name.clone())
            .set(namespace.socket_count() as f64);
        gauge!("socketio_rooms", "namespace" => name).set(namespace.adapter().room_count() as f64);
    }
    gauge!("actors_live", "kind" => "order_session").set(state.orders.live_sessions() as f64);
    gauge!("actors_live", "kind" => "cart_session").set(state.carts.live_sessions() as f64);
    gauge!("actors_live", "kind" => "store_actor").set(state.stores.live_actors() as f64);
    gauge!("actors_live", "kind" => "payment_session").set(state.payments.live_sessions() as f64);
}

/// With `[metrics] bind`: a listener serving only `/metrics`, to everyone who can reach it (the
/// operator binds it where only the scraper can). Answers its port and the running server.
pub fn serve_separately(
    settings: &MetricsSettings,
    state: AppState,
) -> anyhow::Result<Option<(u16, Server)>> {
    let bind = settings.bind.trim();
    if !settings.enabled || bind.is_empty() {
        return Ok(None);
    }
    let listener =
        TcpListener::bind(bind).with_context(|| format!("binding [metrics] bind {bind}"))?;
    let port = listener.local_addr()?.port();
    let endpoint = Endpoint {
        handle: install(),
        allow: None,
    };
    let data = web::Data::new(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .configure(|cfg| configure(cfg, endpoint.clone()))
    })
    .workers(1)
    .disable_signals()
    .listen(listener)?
    .run();
    Ok(Some((port, server)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allowed_clients_may_scrape() {
        let loopback = TrustedProxies::parse(&["127.0.0.1", "::1"]).unwrap_or_default();
        let cluster = TrustedProxies::parse(&["10.1.0.0/16"]).unwrap_or_default();
        let ip = |text: &str| text.parse::<IpAddr>().ok();
        let cases = [
            (&loopback, ip("127.0.0.1"), true),
            (&loopback, ip("::1"), true),
            (&loopback, ip("::ffff:127.0.0.1"), true),
            (&loopback, ip("127.0.0.2"), false),
            (&loopback, ip("203.0.113.7"), false),
            (&loopback, None, false),
            (&cluster, ip("10.1.44.3"), true),
            (&cluster, ip("10.2.0.1"), false),
            (&cluster, ip("127.0.0.1"), false),
        ];
        for (allow, client, want) in cases {
            assert_eq!(allowed(client, allow), want, "{client:?}");
        }
    }
}
