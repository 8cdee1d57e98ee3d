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
