//! What a session keeps of the HTTP request that opened it, for as long as it lives, so kept
//! small: the URI, the headers in one vector, the peer address.

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use actix_web::http::Uri;
use std::net::SocketAddr;
use std::sync::Arc;

/// The HTTP request that opened a session (the handshake poll, or the WebSocket upgrade).
/// Shared, not copied, by every namespace socket of the session.
#[derive(Debug, Clone)]
pub struct RequestInfo {
    pub uri: Uri,
    pub headers: Arc<Headers>,
    pub peer_addr: Option<SocketAddr>,
}

impl RequestInfo {
    /// A copy of the request that holds on to nothing of the connection: actix-http's parsed
    /// values point into the connection's 8 KiB read buffer, and its header map is sized for
    /// any request, so keeping them would keep both alive as long as the session.
    pub fn detached(uri: &Uri, headers: &HeaderMap, peer_addr: Option<SocketAddr>) -> Self {
        RequestInfo {
            uri: uri.to_string().parse().unwrap_or_default(),
            headers: Arc::new(Headers::copied(headers)),
            peer_addr,
        }
    }
}

/// Request headers in arrival order. Names are lowercase, as HTTP/1 parsing leaves them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(Vec<(HeaderName, HeaderValue)>);

impl Headers {
    /// Copies every header (values into their own memory).
    pub fn copied(headers: &HeaderMap) -> Self {
        Headers(
            headers
                .iter()
                .filter_map(|(name, value)| {
                    let name = HeaderName::from_bytes(name.as_str().as_bytes()).ok()?;
                    let value = HeaderValue::from_bytes(value.as_bytes()).ok()?;
                    Some((name, value))
                })
                .collect(),
        )
    }

    /// The first value of a header; `name` in any case.
    pub fn get(&self, name: &str) -> Option<&HeaderValue> {
        self.0
            .iter()
            .find(|(n, _)| n.as_str().eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// Every value of a header, in order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a HeaderValue> + 'a {
        self.0
            .iter()
            .filter(move |(n, _)| n.as_str().eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&HeaderName, &HeaderValue)> {
        self.0.iter().map(|(n, v)| (n, v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn headers_are_found_in_any_case_and_repeated_ones_kept_in_order() {
        let mut map = HeaderMap::new();
        map.append(
            HeaderName::from_static("accept-language"),
            HeaderValue::from_static("zh-CN"),
        );
        map.append(
            HeaderName::from_static("x-forwarded-for"),
            HeaderValue::from_static("10.0.0.1"),
        );
        map.append(
            HeaderName::from_static("x-forwarded-for"),
            HeaderValue::from_static("10.0.0.2"),
        );
        let headers = Headers::copied(&map);
        assert_eq!(headers.len(), 3);
        assert_eq!(headers.get("Accept-Language").unwrap(), "zh-CN");
        let forwarded: Vec<&HeaderValue> = headers.get_all("x-forwarded-for").collect();
        assert_eq!(forwarded, ["10.0.0.1", "10.0.0.2"]);
        assert!(headers.get("cookie").is_none());
    }

    #[test]
    fn a_detached_request_keeps_uri_and_peer() {
        let uri: Uri = "/socket.io/?EIO=4&transport=websocket".parse().unwrap();
        let peer = "127.0.0.1:5000".parse().ok();
        let request = RequestInfo::detached(&uri, &HeaderMap::new(), peer);
        assert_eq!(request.uri, uri);
        assert_eq!(request.peer_addr, peer);
        assert!(request.headers.is_empty());
    }
}
