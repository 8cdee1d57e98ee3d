//! How large a request head may be (issue 34): the request target (path and query) up to
//! [`MAX_TARGET_BYTES`], the header fields up to [`MAX_HEADER_BYTES`] in all. Over either, the
//! answer is the envelope like any error (414 or 431, in the request's language, with the
//! security headers), checked by the edge before anything else reads the request.
//!
//! Both limits sit well below actix-http's own (a head of 128 KiB, 96 header lines, a URI of
//! 64 KiB), so a request the parser takes is judged here. What the parser refuses itself never
//! reaches the edge: its bare answer is replaced on the way out by [`parser_refusal`] (see
//! `realtime::engineio::refusals`), in the server's language, since nothing of the request was
//! read. docs/security.md "Request heads" says why this way.

use crate::http::edge::error::ApiError;
use crate::http::edge::security_headers;
use actix_web::body::MessageBody;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::HeaderMap;
use actix_web::http::StatusCode;
use actix_web::ResponseError;
use std::fmt::Write;

/// The request target: an address bar's worth; the app's longest links are a few hundred bytes.
pub const MAX_TARGET_BYTES: usize = 8 * 1024;
/// Every header field's name and value together: a token, a language, a proxy's additions.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The refusal of a head over the limits, if it is.
pub fn check(req: &ServiceRequest) -> Option<ApiError> {
    let target = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if target > MAX_TARGET_BYTES {
        return Some(ApiError::UriTooLong);
    }
    (header_bytes(req.headers()) > MAX_HEADER_BYTES).then_some(ApiError::HeadersTooLarge)
}

/// The header section's size as sent: each field's name, value, ": " and line end.
fn header_bytes(headers: &HeaderMap) -> usize {
    headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum()
}

/// The answer that replaces the parser's bare 400 or 431: the envelope (in the default
/// language) with the security headers, the whole HTTP/1.1 message.
pub fn parser_refusal(status: u16) -> Vec<u8> {
    let error = match status {
        431 => ApiError::HeadersTooLarge,
        _ => ApiError::bad_input("请求格式不正确", "The request is malformed"),
    };
    let mut res = error.error_response();
    security_headers::apply(&security_headers::Facts::unknown(), res.headers_mut());
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().try_into_bytes().unwrap_or_default();
    message(status, &headers, &body)
}

fn message(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default()
    );
    for (name, value) in headers {
        if let Ok(value) = value.to_str() {
            let _ = write!(head, "{name}: {value}\r\n");
        }
    }
    let date = chrono::Utc::now().format("%a, %d %b %Y %H:%M:%S GMT");
    let _ = write!(
        head,
        "content-length: {}\r\nconnection: close\r\ndate: {date}\r\n\r\n",
        body.len()
    );
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn heads_over_the_limits_are_refused_and_the_rest_pass() {
        let long = |n: usize| "a".repeat(n);
        let target = |len: usize| format!("/p?{}", long(len - 3));
        let cases: Vec<(TestRequest, Option<&str>)> = vec![
            (TestRequest::get().uri("/api/v1/system/time"), None),
            (TestRequest::get().uri(&target(MAX_TARGET_BYTES)), None),
            (
                TestRequest::get().uri(&target(MAX_TARGET_BYTES + 1)),
                Some("414"),
            ),
            (
                // "x-pad: " and the line end are counted with the value.
                TestRequest::get().insert_header(("x-pad", long(MAX_HEADER_BYTES - 9))),
                None,
            ),
            (
                TestRequest::get().insert_header(("x-pad", long(MAX_HEADER_BYTES - 8))),
                Some("431"),
            ),
            (
                // Many fields that are each small still add up.
                (0..20).fold(TestRequest::get(), |r, i| {
                    r.insert_header((format!("x-pad-{i}"), long(1000)))
                }),
                Some("431"),
            ),
            (
                TestRequest::get()
                    .uri(&target(MAX_TARGET_BYTES + 1))
                    .insert_header(("x-pad", long(MAX_HEADER_BYTES))),
                Some("414"),
            ),
        ];
        for (i, (req, want)) in cases.into_iter().enumerate() {
            let got = check(&req.to_srv_request()).map(|e| e.code());
            assert_eq!(got, want, "case {i}");
        }
    }

    #[test]
    fn the_parsers_refusals_become_the_envelope_with_the_security_headers() {
        for (status, code) in [(431, "431"), (400, "400")] {
            let text = String::from_utf8(parser_refusal(status)).unwrap_or_default();
            let (head, body) = text.split_once("\r\n\r\n").unwrap_or_default();
            assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
            for want in [
                "content-type: application/json",
                "x-content-type-options: nosniff",
                "x-frame-options: DENY",
                "content-security-policy: default-src 'self'",
                "connection: close",
                &format!("content-length: {}", body.len()),
            ] {
                assert!(head.contains(want), "{want} missing from {head}");
            }
            let json: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
            assert_eq!(json["errCode"], code, "{body}");
            assert!(json["errMsg"].as_str().is_some_and(|m| !m.is_empty()));
            // Not taken for one of the parser's own by the stream that rewrites them.
            assert_eq!(
                crate::realtime::engineio::refusals::parser_refusal(text.as_bytes()),
                None
            );
        }
    }
}
