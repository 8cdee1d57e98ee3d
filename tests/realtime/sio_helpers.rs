//! A Socket.IO server on a random port for the tests: the conformance fixture's namespaces plus
//! what the scenarios need (rooms, broadcasts, server acks, a refusing namespace), and a raw
//! long-polling client.

#![allow(dead_code)]

use pizza_order::realtime::engineio::{EngineConfig, EngineIo};
use pizza_order::realtime::socketio::binary::binary_value;
use pizza_order::realtime::socketio::{
    conformance, AckSender, RecoveryConfig, Socket, SocketIo, SocketIoConfig,
};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Settings for the scenarios: a quick connect timeout and ack timeout, recovery with the
/// given window (none when `None`).
pub fn config(window: Option<Duration>) -> SocketIoConfig {
    SocketIoConfig {
        connect_timeout: Duration::from_millis(1000),
        ack_timeout: Duration::from_millis(1000),
        recovery: window.map(|window| RecoveryConfig {
            max_disconnection_duration: window,
            max_history: 1000,
        }),
        ..SocketIoConfig::default()
    }
}

/// No pings during a test (raw polling clients do not answer them).
pub fn quiet_engine() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_secs(20),
        ping_timeout: Duration::from_secs(20),
        ..EngineConfig::default()
    }
}

/// Pings often, with a timeout a loaded machine meets.
pub fn client_engine() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(1000),
        upgrade_timeout: Duration::from_secs(2),
        ..EngineConfig::default()
    }
}

fn ack_with(ack: Option<AckSender>, args: Vec<Value>) {
    if let Some(ack) = ack {
        ack.send(args);
    }
}

fn arg_str(args: &[Value], i: usize) -> String {
    args.get(i)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// What the server saw, for the Rust side of a test to check.
#[derive(Default)]
pub struct Seen {
    pub disconnects: Mutex<Vec<(String, String, &'static str)>>,
}

/// The fixture (`/`: auth, message-back, message-with-ack; `/custom`), plus on `/`:
/// `welcome` on connection (`{id, recovered, rooms}`), and the events `join`, `leave`,
/// `to-room` [room, event, payload], `except-room` [room, event, payload], `to-others`
/// [event, payload], `room-size` [room], `ask` [event, question, timeout ms] (the server
/// emits with an ack and acks the answer or the error), `stream` [event, count, interval ms]
/// (emits `event` with 0, 1, … spaced by the interval), `disconnect-me`, `send-binary`,
/// `shared` (a handler of the namespace's, for every socket: acks `{from: "namespace", id,
/// args}`) and `own-shared` (the socket sets its own `shared`, acking `{from: "socket"}`);
/// and `/private`, which refuses any token but `secret` with "bad token".
pub fn scenario_io(config: SocketIoConfig) -> (SocketIo, Arc<Seen>) {
    let io = conformance::fixture(config);
    let seen = Arc::new(Seen::default());
    let main = io.of("/");
    let ns = main.clone();
    let seen_main = Arc::clone(&seen);
    main.on("shared", |socket, args, ack| {
        ack_with(
            ack,
            vec![json!({"from": "namespace", "id": socket.id(), "args": args})],
        );
    });
    main.on_connection(move |socket: Socket| {
        let welcome = json!({
            "id": socket.id(),
            "recovered": socket.recovered(),
            "rooms": socket.rooms(),
        });
        socket
            .emit("auth", vec![socket.handshake().auth.clone()])
            .unwrap();
        socket.emit("welcome", vec![welcome]).unwrap();
        let seen = Arc::clone(&seen_main);
        socket.on_disconnect(move |socket, reason| {
            seen.disconnects.lock().unwrap().push((
                socket.namespace().to_owned(),
                socket.id().to_owned(),
                reason.as_str(),
            ));
        });
        socket.on("message", |socket, args, _| {
            socket.emit("message-back", args).unwrap();
        });
        socket.on("message-with-ack", |_, args, ack| ack_with(ack, args));
        socket.on("join", |socket, args, ack| {
            socket.join(arg_str(&args, 0));
            ack_with(ack, vec![json!(socket.rooms())]);
        });
        socket.on("leave", |socket, args, ack| {
            socket.leave(&arg_str(&args, 0));
            ack_with(ack, vec![json!(socket.rooms())]);
        });
        let n = ns.clone();
        socket.on("to-room", move |_, args, ack| {
            let payload = args.get(2).cloned().unwrap_or(Value::Null);
            n.to(arg_str(&args, 0))
                .emit(&arg_str(&args, 1), vec![payload])
                .unwrap();
            ack_with(ack, vec![json!("sent")]);
        });
        let n = ns.clone();
        socket.on("except-room", move |_, args, ack| {
            let payload = args.get(2).cloned().unwrap_or(Value::Null);
            n.except(arg_str(&args, 0))
                .emit(&arg_str(&args, 1), vec![payload])
                .unwrap();
            ack_with(ack, vec![json!("sent")]);
        });
        socket.on("to-others", |socket, args, ack| {
            let payload = args.get(1).cloned().unwrap_or(Value::Null);
            socket
                .broadcast()
                .emit(&arg_str(&args, 0), vec![payload])
                .unwrap();
            ack_with(ack, vec![json!("sent")]);
        });
        let n = ns.clone();
        socket.on("room-size", move |_, args, ack| {
            let size = n.to(arg_str(&args, 0)).socket_ids().len();
            ack_with(ack, vec![json!(size)]);
        });
        socket.on("ask", |socket, args, ack| {
            let timeout = Duration::from_millis(args.get(2).and_then(Value::as_u64).unwrap_or(500));
            let question = args.get(1).cloned().unwrap_or(Value::Null);
            let answer = socket.emit_with_ack(&arg_str(&args, 0), vec![question], Some(timeout));
            tokio::spawn(async move {
                let reply = match answer.await {
                    Ok(args) => json!({ "answer": args }),
                    Err(error) => json!({ "error": error.to_string() }),
                };
                ack_with(ack, vec![reply]);
            });
        });
        socket.on("stream", |socket, args, _| {
            let event = arg_str(&args, 0);
            let count = args.get(1).and_then(Value::as_u64).unwrap_or(0);
            let every = Duration::from_millis(args.get(2).and_then(Value::as_u64).unwrap_or(1));
            let socket = socket.clone();
            tokio::spawn(async move {
                for seq in 0..count {
                    if socket.emit(&event, vec![json!(seq)]).is_err() {
                        return;
                    }
                    tokio::time::sleep(every).await;
                }
            });
        });
        socket.on("own-shared", |socket, _, ack| {
            socket.on("shared", |_, _, ack| {
                ack_with(ack, vec![json!({"from": "socket"})])
            });
            ack_with(ack, vec![json!("ok")]);
        });
        socket.on("disconnect-me", |socket, _, _| socket.disconnect());
        socket.on("send-binary", |socket, _, _| {
            socket
                .emit(
                    "binary",
                    vec![
                        binary_value(&[1, 2, 3]),
                        json!({"nested": binary_value(&[255])}),
                    ],
                )
                .unwrap();
        });
    });
    io.of("/private")
        .auth(|handshake| match handshake.auth_str("token") {
            Some("secret") => Ok(()),
            _ => Err("bad token".to_owned()),
        })
        .on_connection(|socket| {
            socket
                .emit(
                    "welcome",
                    vec![json!({"id": socket.id(), "auth": socket.handshake().auth})],
                )
                .unwrap();
        });
    (io, seen)
}

pub struct SioServer {
    pub base: String,
    pub url: String,
    pub io: SocketIo,
    pub seen: Arc<Seen>,
    pub http: reqwest::Client,
    pub engine: Arc<EngineIo<SocketIo>>,
    pub handle: actix_web::dev::ServerHandle,
    pending: Mutex<HashMap<String, VecDeque<String>>>,
}

/// Serves the scenario server (and the echo engine at `/engine.io/`) on a random port.
pub fn spawn(config: SocketIoConfig, engine: EngineConfig) -> SioServer {
    let (io, seen) = scenario_io(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let engine = io.engine(engine);
    let server = conformance::serve(listener, Arc::clone(&engine)).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    let base = format!("http://127.0.0.1:{port}");
    SioServer {
        url: format!("{base}/socket.io/"),
        base,
        io,
        seen,
        http: reqwest::Client::new(),
        engine,
        handle,
        pending: Mutex::new(HashMap::new()),
    }
}

impl SioServer {
    /// Opens a polling session; returns its sid.
    pub async fn handshake(&self) -> String {
        let body = self.get("EIO=4&transport=polling").await.1;
        assert!(body.starts_with('0'), "{body}");
        let open: Value = serde_json::from_str(&body[1..]).unwrap();
        open["sid"].as_str().unwrap().to_owned()
    }

    async fn get(&self, query: &str) -> (u16, String) {
        let response = self
            .http
            .get(format!("{}?{query}", self.url))
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// Posts Engine.IO packets (joined with the record separator).
    pub async fn post(&self, sid: &str, packets: &[&str]) -> (u16, String) {
        let response = self
            .http
            .post(format!("{}?EIO=4&transport=polling&sid={sid}", self.url))
            .body(packets.join("\x1e"))
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// Posts Socket.IO packets (each in an Engine.IO message packet).
    pub async fn send(&self, sid: &str, packets: &[&str]) {
        let messages: Vec<String> = packets.iter().map(|p| format!("4{p}")).collect();
        let refs: Vec<&str> = messages.iter().map(String::as_str).collect();
        let (status, body) = self.post(sid, &refs).await;
        assert_eq!((status, body.as_str()), (200, "ok"));
    }

    /// One poll: the status and the Engine.IO packets.
    pub async fn poll(&self, sid: &str) -> (u16, Vec<String>) {
        let (status, body) = self
            .get(&format!("EIO=4&transport=polling&sid={sid}"))
            .await;
        if status != 200 {
            return (status, vec![body]);
        }
        (status, body.split('\x1e').map(str::to_owned).collect())
    }

    /// The next `count` packets (pings excluded), polling as needed; packets that came in the
    /// same poll after them are kept for the next call.
    pub async fn receive(&self, sid: &str, count: usize) -> Vec<String> {
        loop {
            {
                let mut pending = self.pending.lock().unwrap();
                let queue = pending.entry(sid.to_owned()).or_default();
                if queue.len() >= count {
                    return queue.drain(..count).collect();
                }
            }
            let (status, batch) = self.poll(sid).await;
            assert_eq!(status, 200, "poll failed: {batch:?}");
            let mut pending = self.pending.lock().unwrap();
            let queue = pending.entry(sid.to_owned()).or_default();
            queue.extend(batch.into_iter().filter(|p| p != "2"));
        }
    }

    /// Asserts that nothing is waiting from an earlier poll.
    pub fn assert_nothing_pending(&self, sid: &str) {
        let pending = self.pending.lock().unwrap();
        let queue = pending.get(sid).cloned().unwrap_or_default();
        assert!(queue.is_empty(), "unexpected {queue:?}");
    }

    /// Opens a session and connects to a namespace; returns the sid and the socket id.
    pub async fn connect(&self, connect: &str) -> (String, String) {
        let (sid, data) = self.connect_full(connect).await;
        (sid, data["sid"].as_str().unwrap().to_owned())
    }

    /// Opens a session and connects to a namespace; returns the sid and the CONNECT data.
    pub async fn connect_full(&self, connect: &str) -> (String, Value) {
        let sid = self.handshake().await;
        self.send(&sid, &[connect]).await;
        let packets = self.receive(&sid, 1).await;
        let answer = packets[0].strip_prefix("40").unwrap();
        let json = &answer[answer.find('{').unwrap()..];
        (sid, serde_json::from_str(json).unwrap())
    }

    /// Loses the connection: the server closes the session (a recoverable reason, as a lost
    /// transport is), the client polls its close packet. Waits until the server has seen it.
    pub async fn drop_connection(&self, sid: &str) {
        let before = self.io.client_count();
        self.engine.socket(sid).unwrap().close();
        self.pending.lock().unwrap().remove(sid);
        let (_, packets) = self.poll(sid).await;
        assert_eq!(packets.last().map(String::as_str), Some("1"), "{packets:?}");
        self.wait_clients(before - 1).await;
    }

    /// Waits until the Socket.IO server has `count` Engine.IO sessions.
    pub async fn wait_clients(&self, count: usize) {
        for _ in 0..150 {
            if self.io.client_count() == count {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{} sessions, not {count}", self.io.client_count());
    }

    /// Asserts that the session was closed: its next poll gets the close packet, or 400.
    pub async fn assert_closed(&self, sid: &str) {
        self.assert_nothing_pending(sid);
        let (status, packets) = self.poll(sid).await;
        assert!(
            status == 400 || packets.last().map(String::as_str) == Some("1"),
            "{status} {packets:?}"
        );
    }

    pub fn disconnects(&self) -> Vec<(String, String, &'static str)> {
        self.seen.disconnects.lock().unwrap().clone()
    }
}
