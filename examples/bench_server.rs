//! The Rust side of the real-time benchmark (`make bench-realtime`, `tests/bench/run.sh`):
//! the crate's Socket.IO v5 server at `/socket.io/` on 127.0.0.1:<port>, speaking the same
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
//!     target/release/examples/bench_server [port] [workers]

use actix_web::App;
use pizza_order::realtime::engineio::{
    configure, serve, EngineConfig, ListenOptions, WebSocketMounts,
};
use pizza_order::realtime::socketio::{SocketIo, SocketIoConfig};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

struct Publish {
    rooms: Vec<String>,
    count: u64,
    rate_hz: f64,
    payload_size: usize,
}

fn parse_publish(args: &[Value]) -> Option<Publish> {
    let spec = args.first()?;
    let rooms: Vec<String> = spec
        .get("rooms")?
        .as_array()?
        .iter()
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect();
    Some(Publish {
        rooms,
        count: spec.get("count")?.as_u64()?,
        rate_hz: spec.get("rateHz").and_then(Value::as_f64).unwrap_or(0.0),
        payload_size: spec.get("payloadSize").and_then(Value::as_u64).unwrap_or(0) as usize,
    })
}

async fn publish(io: SocketIo, job: Publish) -> Value {
    let ns = io.of("/");
    let pad = "x".repeat(job.payload_size);
    let started = Instant::now();
    let mut emitted: u64 = 0;
    let mut max_late = Duration::ZERO;
    for seq in 0..job.count {
        for room in &job.rooms {
            if job.rate_hz > 0.0 {
                let due = started + Duration::from_secs_f64(emitted as f64 / job.rate_hz);
                tokio::time::sleep_until(due.into()).await;
                max_late = max_late.max(Instant::now().saturating_duration_since(due));
            }
            let tick = json!({"room": room, "seq": seq, "sentAt": now_ms(), "pad": pad});
            if let Err(error) = ns.to(room.as_str()).emit("tick", vec![tick]) {
                eprintln!("tick not emitted: {error}");
            }
            emitted += 1;
        }
    }
    json!({
        "emitted": emitted,
        "tookMs": started.elapsed().as_secs_f64() * 1000.0,
        "maxLateMs": max_late.as_secs_f64() * 1000.0,
    })
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3100);
    let workers: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);

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
            let io = io.clone();
            tokio::spawn(async move {
                let result = publish(io, job).await;
                if let Some(ack) = ack {
                    ack.send(vec![result]);
                }
            });
        });
    });
    let engine = io.engine(EngineConfig::default());

    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!(
        "bench_server (rust) pid {} on http://127.0.0.1:{port}/socket.io/ workers {workers}",
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
