//! The official engine.io-client (npm) against the echo fixture server: WebSocket only,
//! polling only, polling upgraded to WebSocket, heartbeat; plus raw-protocol WebSocket checks.

use pizza_order::realtime::engineio::{echo, EngineConfig};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

pub fn node_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/realtime/node")
}

/// Whether node is here; installs the client packages once (npm ci) if they are missing.
/// Shared by the engine.io-client and socket.io-client tests, so that npm runs once.
pub fn node_ready() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        if Command::new("node").arg("--version").output().is_err() {
            eprintln!("SKIPPED: `node` is not installed; the Node client tests did not run");
            return false;
        }
        let dir = node_dir();
        let installed = ["engine.io-client", "socket.io-client", "ws"]
            .iter()
            .all(|package| dir.join("node_modules").join(package).exists());
        if !installed {
            let status = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir)
                .status()
                .expect("npm is needed to install the Node clients (tests/realtime/node)");
            assert!(status.success(), "npm ci failed in {}", dir.display());
        }
        true
    })
}

/// The conformance fixture's heartbeat (300 ms / 200 ms), checked by the raw scenarios.
fn fixture_config() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(200),
        upgrade_timeout: Duration::from_secs(2),
        ..EngineConfig::default()
    }
}

/// Frequent pings, but a timeout a loaded two-core machine can meet with a Node client.
fn client_config() -> EngineConfig {
    EngineConfig {
        ping_timeout: Duration::from_millis(1000),
        ..fixture_config()
    }
}

async fn run_scenario(scenario: &str, config: EngineConfig) {
    if !node_ready() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (server, engine) = echo::serve(listener, "/engine.io/", config).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    let base = format!("http://127.0.0.1:{port}");
    let dir = node_dir();
    let scenario_name = scenario.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg("client.mjs")
            .arg(&base)
            .arg(&scenario_name)
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
    // Every client closed its session.
    for _ in 0..100 {
        if engine.session_count() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(engine.session_count(), 0, "sessions left open");
    assert_eq!(engine.handler().connected(), 0);
    handle.stop(false).await;
}

#[tokio::test]
async fn official_client_over_websocket_only() {
    run_scenario("websocket-only", client_config()).await;
}

#[tokio::test]
async fn official_client_over_polling_only() {
    run_scenario("polling-only", client_config()).await;
}

#[tokio::test]
async fn official_client_upgrades_from_polling_to_websocket() {
    run_scenario("upgrade", client_config()).await;
}

#[tokio::test]
async fn official_client_survives_heartbeats() {
    run_scenario("heartbeat", client_config()).await;
}

#[tokio::test]
async fn raw_websocket_protocol() {
    run_scenario("raw-websocket", fixture_config()).await;
}

#[tokio::test]
async fn raw_upgrade_protocol() {
    run_scenario("raw-upgrade", fixture_config()).await;
}
