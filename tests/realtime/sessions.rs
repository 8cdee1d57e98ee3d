//! Heartbeat, ping timeout, server close, writes after close.

use crate::helpers::{fast_config, quiet_config, spawn};
use pizza_order::realtime::engineio::DisconnectReason;
use pizza_order::realtime::engineio::EngineConfig;
use std::time::{Duration, Instant};

/// Pings every 300 ms and waits long for the pong: for tests where the client answers, so a
/// late round trip on a loaded machine is not taken for a dead client.
fn patient_config() -> EngineConfig {
    EngineConfig {
        ping_timeout: Duration::from_millis(1500),
        ..fast_config()
    }
}

#[tokio::test]
async fn the_server_pings_and_the_client_pongs() {
    let server = spawn(patient_config()).await;
    let (sid, _) = server.handshake().await;
    for _ in 0..3 {
        let started = Instant::now();
        let poll = server.poll(&sid).await;
        assert_eq!((poll.status, poll.body.as_str()), (200, "2"));
        // The ping comes ping_interval (300 ms) after the handshake or the last pong.
        assert!(
            started.elapsed() >= Duration::from_millis(200),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(server.post(&sid, "3").await.body, "ok");
    }
    assert!(server.engine.socket(&sid).is_some());
}

#[tokio::test]
async fn an_unanswered_ping_closes_the_session() {
    let server = spawn(fast_config()).await;
    let (sid, _) = server.handshake().await;
    // The client never polls: the ping waits in the queue unanswered and the session ends
    // ping_interval + ping_timeout (500 ms) after the handshake. Polling at a fixed moment
    // near that boundary races the timer (a loaded CI machine saw the ping itself), so the
    // test waits for the close and then checks the session is gone for both verbs.
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::PingTimeout
    );
    server
        .poll(&sid)
        .await
        .assert_error(1, "Session ID unknown");
    server
        .post(&sid, "3")
        .await
        .assert_error(1, "Session ID unknown");
}

#[tokio::test]
async fn a_waiting_poll_gets_the_close_packet_on_ping_timeout() {
    // The second poll must be pending when the timeout strikes: 1.5 s after the ping.
    let server = spawn(patient_config()).await;
    let (sid, _) = server.handshake().await;
    // The first poll gets the ping; the client never answers; the next poll is pending when
    // the timeout strikes.
    assert_eq!(server.poll(&sid).await.body, "2");
    let poll = server.poll(&sid).await;
    assert_eq!((poll.status, poll.body.as_str()), (200, "1"));
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::PingTimeout
    );
}

#[tokio::test]
async fn a_server_close_delivers_what_is_queued_then_closes() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    // The handler echoes "bye" and then closes the socket.
    assert_eq!(server.post(&sid, "4first\x1e4bye").await.body, "ok");
    let poll = server.poll(&sid).await;
    assert_eq!(poll.body, "4first\x1e4bye\x1e1");
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::ServerClose
    );
    server
        .poll(&sid)
        .await
        .assert_error(1, "Session ID unknown");
}

#[tokio::test]
async fn a_server_close_answers_a_waiting_poll() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let socket = server.recorder.socket(&sid).unwrap();
    let (poll, _) = tokio::join!(server.poll(&sid), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        socket.close();
    });
    assert_eq!(poll.body, "1");
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::ServerClose
    );
}

#[tokio::test]
async fn writes_to_a_closed_session_are_dropped() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let socket = server.recorder.socket(&sid).unwrap();
    server.post(&sid, "1").await;
    server.wait_closed(&sid).await;
    assert!(!socket.is_connected());
    socket.send_text("late".into());
    socket.send_binary(vec![1]);
    socket.close();
    assert_eq!(
        server.recorder.disconnects().len(),
        1,
        "one disconnect only"
    );
    assert_eq!(server.engine.session_count(), 0);
}

#[tokio::test]
async fn messages_keep_their_order() {
    let server = spawn(quiet_config()).await;
    let (sid, _) = server.handshake().await;
    let socket = server.recorder.socket(&sid).unwrap();
    let expected: Vec<String> = (0..50).map(|i| format!("4m{i}")).collect();
    for i in 0..50 {
        socket.send_text(format!("m{i}"));
    }
    assert_eq!(server.poll(&sid).await.body, expected.join("\x1e"));
}

#[tokio::test]
async fn close_all_closes_every_session() {
    let server = spawn(quiet_config()).await;
    let (a, _) = server.handshake().await;
    let (b, _) = server.handshake().await;
    assert_eq!(server.engine.session_count(), 2);
    server.engine.close_all();
    assert_eq!(server.poll(&a).await.body, "1");
    assert_eq!(server.poll(&b).await.body, "1");
    assert_eq!(server.engine.session_count(), 0);
}
