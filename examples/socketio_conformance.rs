//! The conformance fixture of the official Socket.IO v5 and Engine.IO v4 protocol test suites,
//! on 127.0.0.1:3000 (or the port given as the first argument):
//!
//! - `/socket.io/`: namespaces `/` and `/custom`, each emitting `auth` with the handshake auth
//!   payload on connection; on `/`, `message` comes back as `message-back` with the same
//!   arguments (binary attachments included) and `message-with-ack` is acknowledged with its
//!   own arguments;
//! - `/engine.io/`: a bare Engine.IO server that sends every message back;
//! - pingInterval 300 ms, pingTimeout 200 ms, maxPayload 1000000, connect timeout 1000 ms.
//!
//!     cargo run --release --example socketio_conformance [port]

use pizza_order::realtime::socketio::conformance;
use std::net::TcpListener;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the port is a number")
        })?,
        None => 3000,
    };
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!("socket.io conformance server on http://127.0.0.1:{port}/socket.io/ (engine.io echo at /engine.io/)");
    let io = conformance::fixture(conformance::socketio_config());
    let engine = io.engine(conformance::engine_config());
    conformance::serve(listener, engine)?.await
}
