//! The conformance fixture: what the reference servers of the official Socket.IO v5 and
//! Engine.IO v4 protocol test suites do, on one actix-web server.
//!
//! - `/socket.io/`: namespaces `/` and `/custom`; on connection each emits `auth` with the
//!   handshake auth payload (50 ms after the CONNECT answer: see [`AUTH_DELAY`]); on `/`, a
//!   `message` event comes back as `message-back` with the same arguments (binary attachments
//!   included), and `message-with-ack` is acknowledged with its own arguments;
//! - `/engine.io/`: a bare Engine.IO server that sends every message back;
//! - pingInterval 300 ms, pingTimeout 200 ms, maxPayload 1000000, connect timeout 1000 ms, no
//!   connection state recovery (the suite expects the CONNECT answer to hold only `sid`).

use super::config::SocketIoConfig;
use super::server::SocketIo;
use super::socket::Socket;
use crate::realtime::engineio::{
    self, configure, echo::EchoHandler, EngineConfig, EngineIo, ListenOptions, WebSocketMounts,
};
use actix_web::dev::Server;
use actix_web::App;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

/// The suites' Engine.IO settings.
pub fn engine_config() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(200),
        max_payload: 1_000_000,
        ..EngineConfig::default()
    }
}

/// The suites' Socket.IO settings.
pub fn socketio_config() -> SocketIoConfig {
    SocketIoConfig {
        connect_timeout: Duration::from_millis(1000),
        recovery: None,
        ..SocketIoConfig::default()
    }
}

/// How long after the CONNECT answer `auth` is emitted. The suites' clients add a listener only
/// when a test awaits a frame, and `ws` (8.17 and later) emits every frame of one TCP read
/// synchronously, before the awaiting test can add the next listener: a frame read together
/// with the CONNECT answer is lost, and the test fails on the ping that comes next. This
/// server writes a socket once per turn, so an `auth` emitted in the connection handler would
/// always share the CONNECT answer's segment; the official Node server writes them a tick
/// apart and loses the same race now and then (2 to 4 of the 32 tests a run on a busy 2-core
/// machine). A real client reads both either way: only the fixture waits.
const AUTH_DELAY: Duration = Duration::from_millis(50);

fn emit_auth(socket: &Socket) {
    let socket = socket.clone();
    tokio::spawn(async move {
        tokio::time::sleep(AUTH_DELAY).await;
        let auth = socket.handshake().auth.clone();
        if let Err(error) = socket.emit("auth", vec![auth]) {
            tracing::debug!(%error, "auth not emitted");
        }
    });
}

/// The fixture's Socket.IO server.
pub fn fixture(config: SocketIoConfig) -> SocketIo {
    let io = SocketIo::new(config);
    io.of("/").on_connection(|socket| {
        emit_auth(&socket);
        socket.on("message", |socket, args, _ack| {
            if let Err(error) = socket.emit("message-back", args) {
                tracing::debug!(%error, "message-back not emitted");
            }
        });
        socket.on("message-with-ack", |_socket, args, ack| {
            if let Some(ack) = ack {
                ack.send(args);
            }
        });
    });
    io.of("/custom").on_connection(|socket| emit_auth(&socket));
    io
}

/// Serves a Socket.IO engine at `/socket.io/` and an echo engine with the same settings at
/// `/engine.io/` on `listener`. The returned server must be awaited or spawned.
pub fn serve(listener: TcpListener, socketio: Arc<EngineIo<SocketIo>>) -> std::io::Result<Server> {
    let echo = Arc::new(EngineIo::new(
        EchoHandler::default(),
        socketio.config().clone(),
    ));
    let mounts = WebSocketMounts::new()
        .mount("/socket.io/", &socketio)
        .mount("/engine.io/", &echo);
    // One worker, as the reference server has one event loop: the suites send on one connection
    // and at once on another (a poll right after the upgrade's `5`) and expect them handled in
    // that order, which two workers would race.
    let options = ListenOptions {
        workers: 1,
        shutdown_timeout: 1,
        ..ListenOptions::default()
    };
    engineio::serve(listener, mounts, &options, move || {
        let socketio = Arc::clone(&socketio);
        let echo = Arc::clone(&echo);
        App::new().configure(move |cfg| {
            configure(cfg, "/socket.io/", socketio);
            configure(cfg, "/engine.io/", echo);
        })
    })
}
