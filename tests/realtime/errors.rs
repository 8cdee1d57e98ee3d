//! Every request the protocol refuses, answered like the reference server.

use crate::helpers::{quiet_config, spawn};
use reqwest::Method;

#[tokio::test]
async fn refuses_a_missing_or_wrong_protocol_version() {
    let server = spawn(quiet_config()).await;
    for query in [
        "transport=polling",
        "EIO=abc&transport=polling",
        "EIO=3&transport=polling",
        "EIO=5&transport=polling",
    ] {
        server
            .get(query)
            .await
            .assert_error(5, "Unsupported protocol version");
    }
    // Also on requests of an open session.
    let (sid, _) = server.handshake().await;
    server
        .get(&format!("transport=polling&sid={sid}"))
        .await
        .assert_error(5, "Unsupported protocol version");
}

#[tokio::test]
async fn refuses_an_unknown_transport() {
    let server = spawn(quiet_config()).await;
    for query in [
        "EIO=4",
        "EIO=4&transport=abc",
        "EIO=4&transport=constructor",
    ] {
        server.get(query).await.assert_error(0, "Transport unknown");
    }
}

#[tokio::test]
async fn refuses_a_handshake_with_another_method_than_get() {
    let server = spawn(quiet_config()).await;
    for method in [Method::POST, Method::PUT, Method::DELETE] {
        server
            .request(method, "EIO=4&transport=polling", "4hello")
            .await
            .assert_error(2, "Bad handshake method");
    }
}

#[tokio::test]
async fn refuses_an_unknown_sid() {
    let server = spawn(quiet_config()).await;
    server
        .poll("abcdefghijklmnopqrst")
        .await
        .assert_error(1, "Session ID unknown");
    server
        .post("nope", "4hello")
        .await
        .assert_error(1, "Session ID unknown");
}

#[tokio::test]
async fn refuses_bad_requests() {
    let server = spawn(quiet_config()).await;
    // A WebSocket handshake that is no WebSocket upgrade.
    server
        .get("EIO=4&transport=websocket")
        .await
        .assert_error(3, "Bad request");
    let (sid, _) = server.handshake().await;
    server
        .get(&format!("EIO=4&transport=websocket&sid={sid}"))
        .await
        .assert_error(3, "Bad request");
    // A method polling does not know.
    server
        .request(
            Method::PUT,
            &format!("EIO=4&transport=polling&sid={sid}"),
            "",
        )
        .await
        .assert_error(3, "Bad request");
    // The session survives these.
    assert_eq!(server.post(&sid, "4still").await.body, "ok");
    assert_eq!(server.poll(&sid).await.body, "4still");
}

/// Sends a WebSocket upgrade request over raw TCP and reads the answer to the end (a refused
/// upgrade is answered, then the connection closed).
async fn upgrade(base: &str, path_and_query: &str, version: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = crate::websocket::upgrade_request(address, path_and_query, version);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_string(&mut answer),
    )
    .await
    .expect("the refused upgrade is answered and the connection closed")
    .unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[tokio::test]
async fn refuses_websocket_upgrades_like_any_request() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let error = |code: u64, message: &str| {
        serde_json::json!({"code": code, "message": message}).to_string()
    };
    #[rustfmt::skip]
    let cases = [
        ("/engine.io/?EIO=3&transport=websocket", "13", 400, error(5, "Unsupported protocol version")),
        ("/engine.io/?EIO=4&transport=carrier-pigeon", "13", 400, error(0, "Transport unknown")),
        ("/engine.io/?EIO=4&transport=polling", "13", 400, error(3, "Bad request")),
        ("/engine.io/?EIO=4&transport=websocket&sid=nope", "13", 400, error(1, "Session ID unknown")),
        ("/engine.io/?EIO=4&transport=websocket", "8", 400, error(3, "Bad request")),
        ("/elsewhere/?EIO=4&transport=websocket", "13", 404, "Not Found".to_owned()),
    ];
    for (path, version, status, body) in cases {
        assert_eq!(
            upgrade(&server.base, path, version).await,
            (status, body),
            "{path} (version {version})"
        );
    }
    // None of them touched the open session.
    assert!(server.engine.socket(&sid).is_some());
}
