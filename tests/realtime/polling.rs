//! HTTP long-polling: handshake, GET and POST, payloads, binary, limits, overlaps.

use crate::helpers::{quiet_config, spawn};
use pizza_order::realtime::engineio::{DisconnectReason, EngineConfig, TransportKind};
use std::time::{Duration, Instant};

#[tokio::test]
async fn handshake_answers_the_open_packet() {
    let server = spawn(EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(200),
        ..EngineConfig::default()
    })
    .await;
    let reply = server.get("EIO=4&transport=polling").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.content_type, "text/plain; charset=UTF-8");
    assert!(reply.body.starts_with('0'), "{}", reply.body);
    let open: serde_json::Value = serde_json::from_str(&reply.body[1..]).unwrap();
    let mut keys: Vec<&str> = open
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "maxPayload",
            "pingInterval",
            "pingTimeout",
            "sid",
            "upgrades"
        ]
    );
    let sid = open["sid"].as_str().unwrap();
    assert_eq!(sid.len(), 20);
    assert!(sid
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(open["upgrades"], serde_json::json!(["websocket"]));
    assert_eq!(open["pingInterval"], 300);
    assert_eq!(open["pingTimeout"], 200);
    assert_eq!(open["maxPayload"], 1_000_000);

    let socket = server.engine.socket(sid).unwrap();
    assert_eq!(socket.transport(), TransportKind::Polling);
    assert!(socket.is_connected());
    assert_eq!(server.engine.session_count(), 1);
    assert!(server.recorder.socket(sid).is_some(), "on_connect ran");
}

#[tokio::test]
async fn no_upgrades_are_offered_when_disabled() {
    let server = spawn(EngineConfig {
        allow_upgrades: false,
        ..quiet_config()
    })
    .await;
    let (_, open) = server.handshake().await;
    assert_eq!(open["upgrades"], serde_json::json!([]));
}

#[tokio::test]
async fn echoes_one_and_several_text_packets() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;

    let push = server.post(&sid, "4hello").await;
    assert_eq!((push.status, push.body.as_str()), (200, "ok"));
    let poll = server.poll(&sid).await;
    assert_eq!((poll.status, poll.body.as_str()), (200, "4hello"));

    let push = server.post(&sid, "4test1\x1e4test2\x1e4test3").await;
    assert_eq!(push.body, "ok");
    assert_eq!(server.poll(&sid).await.body, "4test1\x1e4test2\x1e4test3");

    // Unicode and an empty message.
    server.post(&sid, "4披萨 🍕\x1e4").await;
    assert_eq!(server.poll(&sid).await.body, "4披萨 🍕\x1e4");
}

#[tokio::test]
async fn echoes_binary_as_base64() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    assert_eq!(server.post(&sid, "4hello\x1ebAQIDBA==").await.body, "ok");
    assert_eq!(server.poll(&sid).await.body, "4hello\x1ebAQIDBA==");
    // Unpadded base64 in, padded out.
    server.post(&sid, "bAQID\x1ebAQIDBA").await;
    assert_eq!(server.poll(&sid).await.body, "bAQID\x1ebAQIDBA==");
}

#[tokio::test]
async fn a_poll_waits_for_packets() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let started = Instant::now();
    let (poll, push) = tokio::join!(server.poll(&sid), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        server.post(&sid, "4late").await
    });
    assert_eq!(push.body, "ok");
    assert_eq!((poll.status, poll.body.as_str()), (200, "4late"));
    assert!(started.elapsed() >= Duration::from_millis(200));
}

#[tokio::test]
async fn a_second_concurrent_poll_is_refused_and_closes_the_session() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    // The sleep orders the second poll after the first is pending (the quiet config keeps
    // that one waiting); 50 ms was too little on a loaded machine.
    let (first, second) = tokio::join!(server.poll(&sid), async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        server.poll(&sid).await
    });
    assert_eq!((first.status, first.body.as_str()), (200, "1"));
    second.assert_error(3, "Bad request");
    server
        .poll(&sid)
        .await
        .assert_error(1, "Session ID unknown");
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::TransportError
    );
}

#[tokio::test]
async fn an_invalid_payload_is_refused_and_closes_the_session() {
    let server = spawn(quiet_config()).await;
    for body in ["abc", "", "4a\x1e\x1e4b", "b!!!", "1x"] {
        let (sid, _) = server.handshake().await;
        server.post(&sid, body).await.assert_error(3, "Bad request");
        server
            .poll(&sid)
            .await
            .assert_error(1, "Session ID unknown");
        assert_eq!(server.wait_closed(&sid).await, DisconnectReason::ParseError);
    }
}

#[tokio::test]
async fn a_binary_body_is_refused_and_closes_the_session() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let reply = server
        .client
        .post(format!("{}?EIO=4&transport=polling&sid={sid}", server.url))
        .header("content-type", "application/octet-stream")
        .body(vec![4u8, 1, 2])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 400);
    server
        .poll(&sid)
        .await
        .assert_error(1, "Session ID unknown");
}

#[tokio::test]
async fn payloads_over_max_payload_are_refused() {
    let server = spawn(EngineConfig {
        max_payload: 100,
        ..quiet_config()
    })
    .await;
    let (sid, open) = server.handshake().await;
    assert_eq!(open["maxPayload"], 100);
    let too_big = format!("4{}", "x".repeat(100));
    let reply = server.post(&sid, &too_big).await;
    assert_eq!(reply.status, 413);
    // Exactly at the limit is fine, and the session went on.
    let at_limit = format!("4{}", "y".repeat(99));
    assert_eq!(server.post(&sid, &at_limit).await.body, "ok");
    assert_eq!(server.poll(&sid).await.body, at_limit);
}

#[tokio::test]
async fn the_client_close_packet_ends_the_pending_poll_with_a_noop() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let (poll, push) = tokio::join!(server.poll(&sid), async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        server.post(&sid, "1").await
    });
    assert_eq!(push.body, "ok");
    assert_eq!((poll.status, poll.body.as_str()), (200, "6"));
    server
        .poll(&sid)
        .await
        .assert_error(1, "Session ID unknown");
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::ClientClose
    );
}

#[tokio::test]
async fn packets_after_a_close_packet_are_ignored() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    assert_eq!(server.post(&sid, "1\x1e4ignored").await.body, "ok");
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::ClientClose
    );
}

/// actix-web does not tell a handler that its client went away, so an abandoned poll is only
/// noticed when the client polls again (an overlap) or when a ping goes unanswered; either way
/// the session ends, as with the reference server.
#[tokio::test]
async fn a_poll_abandoned_by_the_client_ends_the_session() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let dropped = server
        .client
        .get(format!("{}?EIO=4&transport=polling&sid={sid}", server.url))
        .timeout(Duration::from_millis(100))
        .send()
        .await;
    assert!(dropped.is_err(), "the poll should have timed out");
    assert_eq!(server.poll(&sid).await.status, 400);
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::TransportError
    );
}
