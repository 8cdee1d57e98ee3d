//! The Rust side of the real-time benchmark (`make bench-realtime`, `tests/bench/run.sh`):
//! the crate's Socket.IO v5 server at `/socket.io/` on <host>:<port>, speaking the same
//! small protocol as `tests/bench/node-server.mjs` (the official socket.io 4.8 server):
//!
//! - `join` (ack) `[room, ...]`: the socket joins the rooms named; the ack carries how many.
//! - `publish` (ack) `{rooms, count, rateHz, payloadSize}`: the SERVER emits `count` rounds of
//!   one `tick` event to each room of `rooms`, `rateHz` events per second in all (0: all at
//!   once, a burst); each `tick` carries `{room, seq, sentAt, pad}` with `seq` 0.. per room,
//!   `sentAt` the wall clock in milliseconds (microsecond resolution) taken just before the
//!   emit and `pad` a string of `payloadSize` bytes. The ack comes once every event is emitted:
//!   `{emitted, tookMs}`.
//!
//! Connection state recovery is OFF (as on the Node side, where it is off by default), so a
//! broadcast is not kept in a history nor given an offset. Engine.IO settings are the
//! defaults (ping every 25 s), the same as the Node server's.
//!
//!     cargo build --release --example bench_server
//!     target/release/examples/bench_server [port] [workers] [host, default 127.0.0.1]

#[path = "bench_common/mod.rs"]
mod common;

use actix_web::App;
use common::{parse_publish, publish};
use pizza_order::realtime::engineio::{
    configure, serve, EngineConfig, ListenOptions, WebSocketMounts,
};
use pizza_order::realtime::socketio::{SocketIo, SocketIoConfig};
use serde_json::{json, Value};
use std::net::TcpListener;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3100);
    let workers: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let host = args.next().unwrap_or_else(|| "127.0.0.1".into());

    let io = SocketIo::new(SocketIoConfig {
        recovery: None,
        ..SocketIoConfig::default()
    });
    let publisher = io.clone();
    io.of("/").on_connection(move |socket| {
        socket.on("join", |socket, args, ack| {
            let rooms: Vec<String> = match args.first() {
                Some(Value::Array(list)) => list
                    .iter()
                    .filter_map(|r| r.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            };
            for room in &rooms {
                socket.join(room.as_str());
            }
            if let Some(ack) = ack {
                ack.send(vec![json!(rooms.len())]);
            }
        });
        let io = publisher.clone();
        socket.on("publish", move |_socket, args, ack| {
            let Some(job) = parse_publish(&args) else {
                if let Some(ack) = ack {
                    ack.send(vec![json!({"error": "bad publish"})]);
                }
                return;
            };
            let ns = io.of("/");
            tokio::spawn(async move {
                let result = publish(job, |room, tick| {
                    if let Err(error) = ns.to(room).emit("tick", vec![tick]) {
                        eprintln!("tick not emitted: {error}");
                    }
                })
                .await;
                if let Some(ack) = ack {
                    ack.send(vec![result]);
                }
            });
        });
    });
    let engine = io.engine(EngineConfig::default());

    let listener = TcpListener::bind((host.as_str(), port))?;
    println!(
        "bench_server (rust) pid {} on http://{host}:{port}/socket.io/ workers {workers}",
        std::process::id()
    );
    let mounts = WebSocketMounts::new().mount("/socket.io/", &engine);
    let options = ListenOptions {
        workers,
        shutdown_timeout: 1,
        backlog: 4096,
        max_connections_per_worker: 1 << 20,
    };
    serve(listener, mounts, &options, move || {
        let engine = engine.clone();
        App::new().configure(move |cfg| configure(cfg, "/socket.io/", engine))
    })?
    .await
}
