//! The official socket.io-client (npm, v4) against the Rust Socket.IO server: WebSocket only,
//! polling only, polling upgraded to WebSocket, namespaces, acks both ways, rooms, auth refused,
//! unknown namespace, binary, server disconnect, connection state recovery (within and past
//! the window); and the Socket.IO part of the official protocol test suite against the
//! conformance fixture.

use crate::node::{node_dir, node_ready};
use crate::sio_helpers::{client_engine, config, spawn};
use pizza_order::realtime::socketio::conformance;
use std::net::TcpListener;
use std::process::Command;
use std::time::Duration;

async fn run_node(base: String, scenario: &str) {
    let dir = node_dir();
    let name = scenario.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg("socketio.mjs")
            .arg(&base)
            .arg(&name)
            .current_dir(dir)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains(&format!("OK {scenario}")),
        "scenario {scenario} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
}

/// Runs a scenario against the test server (recovery on, with this window), then checks that
/// every client is gone.
async fn run_scenario(scenario: &str, window: Duration) {
    if !node_ready() {
        return;
    }
    let server = spawn(config(Some(window)), client_engine());
    run_node(server.base.clone(), scenario).await;
    for _ in 0..100 {
        if server.io.client_count() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(server.io.client_count(), 0, "sessions left open");
    for ns in ["/", "/custom", "/private"] {
        assert!(
            server.io.of(ns).sockets().is_empty(),
            "sockets left in {ns}"
        );
    }
    server.handle.stop(false).await;
}

const WINDOW: Duration = Duration::from_secs(120);

#[tokio::test]
async fn official_client_over_websocket_only() {
    run_scenario("websocket-only", WINDOW).await;
}

#[tokio::test]
async fn official_client_over_polling_only() {
    run_scenario("polling-only", WINDOW).await;
}

#[tokio::test]
async fn official_client_upgrades_from_polling() {
    run_scenario("polling-upgrade", WINDOW).await;
}

#[tokio::test]
async fn an_upgrade_in_the_middle_of_a_stream_loses_and_reorders_nothing() {
    run_scenario("upgrade-mid-stream", WINDOW).await;
}

#[tokio::test]
async fn official_client_multiplexes_namespaces() {
    run_scenario("namespaces", WINDOW).await;
}

#[tokio::test]
async fn official_client_acks_both_ways() {
    run_scenario("acks", WINDOW).await;
}

#[tokio::test]
async fn official_client_rooms_and_except() {
    run_scenario("rooms", WINDOW).await;
}

#[tokio::test]
async fn official_client_is_refused_with_the_reason() {
    run_scenario("auth-refused", WINDOW).await;
}

#[tokio::test]
async fn official_client_unknown_namespace() {
    run_scenario("invalid-namespace", WINDOW).await;
}

#[tokio::test]
async fn official_client_binary_round_trip() {
    run_scenario("binary", WINDOW).await;
}

#[tokio::test]
async fn official_client_disconnected_by_the_server() {
    run_scenario("server-disconnect", WINDOW).await;
}

#[tokio::test]
async fn official_client_recovers_missed_events() {
    run_scenario("recovery", WINDOW).await;
}

#[tokio::test]
async fn official_client_does_not_recover_past_the_window() {
    run_scenario("recovery-expired", Duration::from_millis(800)).await;
}

/// The conformance fixture, exactly as `examples/socketio_conformance.rs` serves it, against
/// the Socket.IO part of the official protocol test suite.
#[tokio::test]
async fn conformance_fixture_passes_the_protocol_suite() {
    if !node_ready() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let io = conformance::fixture(conformance::socketio_config());
    let server = conformance::serve(listener, io.engine(conformance::engine_config())).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    run_node(format!("http://127.0.0.1:{port}"), "protocol").await;
    handle.stop(false).await;
}
