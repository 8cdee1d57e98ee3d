#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue 34 (15): a request head over the limits is answered like every other error: the
//! envelope, in the request's language when it could be read, with the security headers.
//! Our own limits (docs/security.md "Request heads") come first; what actix-http's parser
//! refuses before any middleware (too many header lines, a URI it cannot hold, a broken
//! request line) is reshaped on its way out.

use crate::helpers::spawn_app;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Status, headers (names lower case) and the body as JSON (a string when it is not JSON).
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The envelope with this status and errCode, a message, and the security headers.
    #[track_caller]
    fn assert_enveloped(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{:?} {}", self.headers, self.body);
        assert_eq!(self.body["errCode"], code, "{}", self.body);
        assert!(
            self.body["errMsg"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.body
        );
        assert!(self.body.get("data").is_some(), "{}", self.body);
        assert!(
            self.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{:?}",
            self.headers
        );
        let csp = self.header("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{:?}",
            self.headers
        );
        assert_eq!(self.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(self.header("x-frame-options"), Some("DENY"));
        assert_eq!(
            self.header("referrer-policy"),
            Some("strict-origin-when-cross-origin")
        );
    }

    fn message(&self) -> &str {
        self.body["errMsg"].as_str().unwrap_or_default()
    }
}

async fn from_reqwest(res: reqwest::Response) -> Raw {
    let status = res.status().as_u16();
    let headers = res
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Raw {
        status,
        headers,
        body,
    }
}

/// Writes `request` on a fresh connection and reads the answer to the end (the server closes
/// a connection whose request it could not read).
async fn exchange(address: &str, request: &[u8]) -> Raw {
    let host = address.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut bytes = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_end(&mut bytes),
    )
    .await
    .expect("the server answers and closes")
    .unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let body = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
    Raw {
        status,
        headers,
        body,
    }
}

#[tokio::test]
async fn a_20_kb_uri_or_header_is_answered_in_the_envelope_with_the_security_headers() {
    let app = spawn_app().await;
    let get = |path: String, headers: Vec<(&'static str, String)>| {
        let mut req = app.client.get(format!("{}{}", app.address, path));
        for (k, v) in headers {
            req = req.header(k, v);
        }
        async move { from_reqwest(req.send().await.unwrap()).await }
    };
    let long = "a".repeat(20 * 1024);

    let uri = get(format!("/api/v1/system/time?pad={long}"), vec![]).await;
    uri.assert_enveloped(414, "414");
    assert_eq!(uri.message(), "请求地址过长");
    let uri = get(
        format!("/api/v1/system/time?pad={long}"),
        vec![("Accept-Language", "en".into())],
    )
    .await;
    uri.assert_enveloped(414, "414");
    assert_eq!(uri.message(), "The request URI is too long");
    // Outside the API too: the app's pages answer errors in the envelope like the API.
    get(format!("/menu?pad={long}"), vec![])
        .await
        .assert_enveloped(414, "414");

    let header = get(
        "/api/v1/system/time".into(),
        vec![
            ("X-Padding", long.clone()),
            ("Accept-Language", "en".into()),
        ],
    )
    .await;
    header.assert_enveloped(431, "431");
    assert_eq!(header.message(), "The request headers are too large");
    get("/".into(), vec![("X-Padding", long.clone())])
        .await
        .assert_enveloped(431, "431");

    // Under the limits, requests go through as always.
    let fine = get(
        format!("/api/v1/system/time?pad={}", "a".repeat(6 * 1024)),
        vec![("X-Padding", "b".repeat(10 * 1024))],
    )
    .await;
    assert_eq!(
        (fine.status, &fine.body["errCode"]),
        (200, &Value::from("00"))
    );
}

#[tokio::test]
async fn heads_the_parser_refuses_itself_are_answered_in_the_envelope_too() {
    let app = spawn_app().await;
    // More header lines than actix-http parses (96), each of them short.
    let mut many = b"GET /api/v1/system/time HTTP/1.1\r\nHost: x\r\n".to_vec();
    for i in 0..120 {
        many.extend_from_slice(format!("X-Line-{i}: {i}\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    let answer = exchange(&app.address, &many).await;
    answer.assert_enveloped(431, "431");
    // Nothing of the request was read: the server's language.
    assert_eq!(answer.message(), "请求头过大");

    // A URI longer than actix-http can hold (64 KiB).
    let uri = format!(
        "GET /api/v1/system/time?pad={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    exchange(&app.address, uri.as_bytes())
        .await
        .assert_enveloped(400, "400");

    // A request line that is not HTTP.
    exchange(&app.address, b"GET /a b c\r\nHost: x\r\n\r\n")
        .await
        .assert_enveloped(400, "400");

    // The connections it refused did not take the server down with them.
    let res = app.get("/api/v1/system/time").await;
    res.assert_ok();
}
