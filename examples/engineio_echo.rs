//! A bare Engine.IO v4 echo server, the fixture for the engine.io-protocol test suite:
//! `/engine.io/` on 127.0.0.1:3000 (or the port given as the first argument), every message
//! sent back, pingInterval 300 ms, pingTimeout 200 ms, maxPayload 1000000.
//!
//!     cargo run --example engineio_echo [port]

use pizza_order::realtime::engineio::{echo, EngineConfig};
use std::net::TcpListener;
use std::time::Duration;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the port is a number")
        })?,
        None => 3000,
    };
    let config = EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(200),
        max_payload: 1_000_000,
        ..EngineConfig::default()
    };
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!("engine.io echo server on http://127.0.0.1:{port}/engine.io/");
    let (server, _engine) = echo::serve(listener, "/engine.io/", config)?;
    server.await
}
