//! What a socket knows of how it connected: the CONNECT auth payload and the HTTP request that
//! opened the Engine.IO session.

use crate::realtime::engineio::{Headers, RequestInfo};
use actix_web::http::Uri;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::SystemTime;

/// The handshake of one namespace connection.
#[derive(Debug, Clone)]
pub struct Handshake {
    /// The CONNECT payload (`auth` of the client), always an object (`{}` when none was sent).
    /// With recovery on it also holds the client's `pid` and `offset` when it reconnects.
    pub auth: Value,
    pub headers: Arc<Headers>,
    pub url: Uri,
    /// The query parameters of the request.
    pub query: HashMap<String, String>,
    /// The client's address.
    pub address: Option<SocketAddr>,
    /// When the namespace connection was asked for.
    pub issued: SystemTime,
    /// What the namespace's async auth hook found out about the client (e.g. the store of a
    /// staff token), for the connection callback; null without one.
    pub claims: Value,
}

impl Handshake {
    /// A handshake from a CONNECT payload (anything but an object counts as `{}`) and the
    /// request of the session.
    pub fn new(auth: Option<Value>, request: &RequestInfo) -> Handshake {
        let auth = match auth {
            Some(Value::Object(map)) => Value::Object(map),
            _ => Value::Object(Map::new()),
        };
        let query = actix_web::web::Query::<HashMap<String, String>>::from_query(
            request.uri.query().unwrap_or_default(),
        )
        .map(|q| q.into_inner())
        .unwrap_or_default();
        Handshake {
            auth,
            headers: request.headers.clone(),
            url: request.uri.clone(),
            query,
            address: request.peer_addr,
            issued: SystemTime::now(),
            claims: Value::Null,
        }
    }

    /// A string field of the auth payload (e.g. a token).
    pub fn auth_str(&self, key: &str) -> Option<&str> {
        self.auth.get(key)?.as_str()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn request() -> RequestInfo {
        RequestInfo {
            uri: "/socket.io/?EIO=4&transport=polling&x=1".parse().unwrap(),
            headers: Arc::new(Headers::default()),
            peer_addr: None,
        }
    }

    #[test]
    fn auth_is_always_an_object() {
        for (given, expected) in [
            (None, json!({})),
            (Some(json!({"token": "t"})), json!({"token": "t"})),
            (Some(json!("text")), json!({})),
        ] {
            assert_eq!(Handshake::new(given, &request()).auth, expected);
        }
        let hs = Handshake::new(Some(json!({"token": "t", "n": 1})), &request());
        assert_eq!(hs.auth_str("token"), Some("t"));
        assert_eq!(hs.auth_str("n"), None);
        assert_eq!(hs.query.get("x").map(String::as_str), Some("1"));
    }
}
