//! A bare echo server for conformance fixtures and tests: every message, text or binary, is
//! sent back to the session it came from.

use super::config::EngineConfig;
use super::handler::{DisconnectReason, EngineHandler, EngineSocket, Sid};
use super::server::{configure, EngineIo};
use super::{ListenOptions, WebSocketMounts};
use actix_web::dev::Server;
use actix_web::App;
use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Echoes every message back to its sender.
#[derive(Default)]
pub struct EchoHandler {
    sockets: Mutex<HashMap<Sid, EngineSocket>>,
}

impl EchoHandler {
    fn sockets(&self) -> MutexGuard<'_, HashMap<Sid, EngineSocket>> {
        self.sockets.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn socket(&self, sid: &Sid) -> Option<EngineSocket> {
        self.sockets().get(sid).cloned()
    }

    /// How many sessions are connected.
    pub fn connected(&self) -> usize {
        self.sockets().len()
    }
}

impl EngineHandler for EchoHandler {
    fn on_connect(&self, socket: EngineSocket) {
        self.sockets().insert(socket.sid().clone(), socket);
    }

    fn on_message(&self, sid: &Sid, text: String) {
        if let Some(socket) = self.socket(sid) {
            socket.send_text(text);
        }
    }

    fn on_binary(&self, sid: &Sid, data: Vec<u8>) {
        if let Some(socket) = self.socket(sid) {
            socket.send_binary(data);
        }
    }

    fn on_disconnect(&self, sid: &Sid, _reason: DisconnectReason) {
        self.sockets().remove(sid);
    }
}

/// Serves an echo engine at `path` on `listener` (one worker). The returned server must be
/// awaited or spawned.
pub fn serve(
    listener: TcpListener,
    path: &str,
    config: EngineConfig,
) -> std::io::Result<(Server, Arc<EngineIo<EchoHandler>>)> {
    let engine = Arc::new(EngineIo::new(EchoHandler::default(), config));
    let mounted = Arc::clone(&engine);
    let path = path.to_owned();
    let mounts = WebSocketMounts::new().mount(&path, &engine);
    let options = ListenOptions {
        shutdown_timeout: 1,
        ..ListenOptions::default()
    };
    let server = super::serve(listener, mounts, &options, move || {
        let engine = Arc::clone(&mounted);
        let path = path.clone();
        App::new().configure(move |cfg| configure(cfg, &path, engine))
    })?;
    Ok((server, engine))
}
