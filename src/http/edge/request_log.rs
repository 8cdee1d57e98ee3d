//! What every request leaves behind: its id (the `X-Request-Id` answer header), its line in the
//! access log (as `[log] access_sample` says) and its count and time in `/metrics`. One
//! place for the three ([`crate::http::edge`] calls it), so the clock is read once and the route
//! pattern found once.
//!
//! Why it is built this way (docs/operations.md, "The cost of the access log"): a request
//! costs a few microseconds, and the access log used to cost a third of that, mostly in a span
//! carrying every field, formatted when it opened whether or not a line was written. Now:
//! - the access line is one line carrying all its fields, written outside any span, formatted
//!   by hand ([`crate::http::edge::access_line`]), and what it needs (route, client address, target) is
//!   only gathered once the line is chosen;
//! - no span: the request id is kept in a task-local ([`crate::http::edge::context::current_request_id`]),
//!   and the log's formatter adds it to the lines the request's handlers write (a warning, an
//!   error), which are few;
//! - the id comes from the thread's random generator, not a system call.

use crate::http::edge::access_line;
use crate::http::edge::access_log::AccessLog;
use crate::http::edge::client_ip::client_addr;
use crate::metrics;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use rand::RngCore;
use std::time::Instant;

const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// What the edge is told at start-up.
pub struct RequestLog {
    pub access: AccessLog,
    /// Count and time every request for `/metrics` (`[metrics] enabled`).
    pub metrics: bool,
}

/// A request's id: a random (version 4) UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestId(uuid::Uuid);

impl RequestId {
    pub fn generate() -> RequestId {
        let mut bytes = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut bytes);
        RequestId(uuid::Builder::from_random_bytes(bytes).into_uuid())
    }

    /// Its text (36 bytes), written into `buf`.
    pub fn encode(self, buf: &mut [u8; uuid::fmt::Hyphenated::LENGTH]) -> &str {
        self.0.hyphenated().encode_lower(buf)
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// What is known of a request before it is served.
pub struct Started {
    at: Instant,
    pub id: RequestId,
    method: &'static str,
}

impl Started {
    pub fn now(req: &ServiceRequest) -> Started {
        Started {
            at: Instant::now(),
            id: RequestId::generate(),
            method: metrics::method_label(req.method()),
        }
    }
}

/// Once the request is answered: its access line (as sampled), its count and time in
/// `/metrics`, and its id on the answer.
pub fn finish<B>(
    settings: &RequestLog,
    started: &Started,
    result: &mut Result<ServiceResponse<B>, actix_web::Error>,
) {
    let elapsed = started.at.elapsed();
    let status = match &*result {
        Ok(res) => res.status(),
        Err(e) => e.as_response_error().status_code(),
    };
    let mut id_text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    let id_text = started.id.encode(&mut id_text);
    // The pattern the router matched; an error raised before any answer (none of ours does)
    // has no request left to ask.
    let route = metrics::route_label(
        result
            .as_ref()
            .ok()
            .and_then(|r| r.request().match_pattern()),
    );
    if settings.access.should_log(status.as_u16(), elapsed) {
        write_line(result, id_text, started.method, &route, status, elapsed);
    }
    if settings.metrics {
        metrics::record(started.method, route, status, elapsed);
    }
    if let Ok(res) = result {
        if let Ok(value) = HeaderValue::from_str(id_text) {
            res.headers_mut().insert(REQUEST_ID_HEADER, value);
        }
    }
}

fn write_line<B>(
    result: &Result<ServiceResponse<B>, actix_web::Error>,
    id: &str,
    method: &str,
    route: &str,
    status: StatusCode,
    elapsed: std::time::Duration,
) {
    // Where the filter would drop an `info` line of this module, nothing is gathered.
    if !tracing::enabled!(tracing::Level::INFO) {
        return;
    }
    let req = result.as_ref().ok().map(ServiceResponse::request);
    let line = access_line::Line {
        status: status.as_u16(),
        elapsed,
        method,
        route,
        target: req
            .and_then(|r| r.uri().path_and_query())
            .map_or("", |p| p.as_str()),
        client_ip: req.and_then(client_addr),
        request_id: id,
    };
    if !access_line::write(&line) {
        let client_ip = line
            .client_ip
            .map_or_else(|| "unknown".to_string(), |ip| ip.to_string());
        tracing::info!(
            status = line.status,
            elapsed_ms = elapsed.as_secs_f64() * 1000.0,
            // Displayed, as the hand-written line has them: no quotes.
            http.method = %line.method,
            http.route = %line.route,
            http.target = %line.target,
            http.client_ip = %client_ip,
            request_id = %line.request_id,
            "request"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_version_4_uuids_and_differ() {
        let a = RequestId::generate();
        let b = RequestId::generate();
        assert_ne!(a, b);
        for id in [a, b] {
            assert_eq!(id.0.get_version_num(), 4);
            let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
            let text = id.encode(&mut buf);
            assert_eq!(text, id.to_string());
            assert_eq!(uuid::Uuid::parse_str(text).ok(), Some(id.0));
        }
    }
}
