//! The Redis adapter: two Socket.IO servers in this process (two "nodes") on one Redis, each
//! test under its own key prefix (removed at the end). The adapter alone (cross-node delivery,
//! history, sessions, replay filtering), then the official socket.io-client: an emit to a room
//! on one node reaches the room's sockets on both, `except` works across nodes, and a client
//! that lost its connection to node A recovers on node B.
//!
//! Needs Redis at 127.0.0.1:6379 (or `REDIS_URL`); without one the tests print
//! `SKIPPED: no Redis at 127.0.0.1:6379` and pass, except on CI (`CI=true`), where they fail.

use crate::node::{node_dir, node_ready};
use pizza_order::realtime::engineio::{EngineConfig, Message};
use pizza_order::realtime::socketio::adapter::{
    Adapter, AdapterFactory, BroadcastOptions, LocalSocket, LocalSocketRef, LocalSockets,
    PersistedSession,
};
use pizza_order::realtime::socketio::{
    conformance, AckSender, RecoveryConfig, RedisAdapterFactory, SocketIo, SocketIoConfig,
};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

pub(crate) fn redis_url() -> String {
    std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/".to_owned())
}

/// Whether Redis answers; panics when it does not on CI.
pub(crate) fn redis_ready() -> bool {
    let up = redis::Client::open(redis_url())
        .and_then(|client| client.get_connection_with_timeout(Duration::from_secs(1)))
        .and_then(|mut conn| redis::cmd("PING").query::<String>(&mut conn))
        .is_ok();
    if !up {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no Redis at {} on CI",
            redis_url()
        );
        eprintln!("SKIPPED: no Redis at 127.0.0.1:6379; the Redis adapter tests did not run");
    }
    up
}

/// A unique key prefix, and the removal of its keys when the test ends (even on failure).
pub(crate) struct Prefix(pub(crate) String);

impl Prefix {
    pub(crate) fn new() -> Prefix {
        Prefix(format!("sio-test-{}", uuid::Uuid::new_v4().simple()))
    }

    fn keys(&self) -> Vec<String> {
        let Ok(mut conn) = redis::Client::open(redis_url()).and_then(|c| c.get_connection()) else {
            return Vec::new();
        };
        redis::cmd("KEYS")
            .arg(format!("{}:*", self.0))
            .query(&mut conn)
            .unwrap_or_default()
    }
}

impl Drop for Prefix {
    fn drop(&mut self) {
        let keys = self.keys();
        if keys.is_empty() {
            return;
        }
        if let Ok(mut conn) = redis::Client::open(redis_url()).and_then(|c| c.get_connection()) {
            let _: redis::RedisResult<i64> = redis::cmd("DEL").arg(&keys).query(&mut conn);
        }
    }
}

fn recovery(window: Duration, max_history: usize) -> Option<RecoveryConfig> {
    Some(RecoveryConfig {
        max_disconnection_duration: window,
        max_history,
    })
}

// ----- the adapter alone -----

type Delivery = (String, String, Option<String>);

/// Plays a namespace where every id is a connected socket, and records every delivery as
/// (socket, text of the packet, offset).
#[derive(Default)]
struct Recorder {
    delivered: Arc<Mutex<Vec<Delivery>>>,
}

impl Recorder {
    fn take(&self) -> Vec<Delivery> {
        std::mem::take(&mut *self.delivered.lock().unwrap())
    }

    /// Waits until `count` deliveries came, then a little more for any extra one.
    async fn wait_for(&self, count: usize) -> Vec<Delivery> {
        for _ in 0..250 {
            if self.delivered.lock().unwrap().len() >= count {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        self.take()
    }
}

struct RecordedSocket {
    id: String,
    delivered: Arc<Mutex<Vec<Delivery>>>,
}

impl LocalSocket for RecordedSocket {
    fn deliver(&self, messages: &[Message], offset: Option<&str>) {
        let text = match &messages[0] {
            Message::Text(text) => text.clone(),
            Message::Binary(_) => panic!("a packet starts with text"),
        };
        self.delivered
            .lock()
            .unwrap()
            .push((self.id.clone(), text, offset.map(str::to_owned)));
    }
}

impl LocalSockets for Recorder {
    fn get(&self, socket: &str) -> Option<LocalSocketRef> {
        Some(Arc::new(RecordedSocket {
            id: socket.to_owned(),
            delivered: Arc::clone(&self.delivered),
        }))
    }
}

struct Node {
    adapter: Arc<dyn Adapter>,
    recorder: Arc<Recorder>,
}

fn node(prefix: &Prefix, recovery: Option<RecoveryConfig>) -> Node {
    let factory = RedisAdapterFactory::connect(&redis_url(), &prefix.0).unwrap();
    let recorder = Arc::new(Recorder::default());
    let local: Weak<dyn LocalSockets> = Arc::downgrade(&recorder) as Weak<dyn LocalSockets>;
    let adapter = factory.create("/", local, recovery);
    Node { adapter, recorder }
}

fn opts(to: &[&str], except: &[&str]) -> BroadcastOptions {
    BroadcastOptions {
        rooms: to.iter().map(|s| s.to_string()).collect(),
        except: except.iter().map(|s| s.to_string()).collect(),
    }
}

fn rooms(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn sockets_of(delivered: &[(String, String, Option<String>)]) -> Vec<&str> {
    let mut sockets: Vec<&str> = delivered.iter().map(|(s, _, _)| s.as_str()).collect();
    sockets.sort();
    sockets
}

#[tokio::test]
async fn redis_adapter_delivers_across_nodes_without_recovery() {
    if !redis_ready() {
        return;
    }
    let prefix = Prefix::new();
    let a = node(&prefix, None);
    let b = node(&prefix, None);
    a.adapter.add_all("a1", &rooms(&["a1", "news"]));
    a.adapter.add_all("a2", &rooms(&["a2", "news", "vip"]));
    b.adapter.add_all("b1", &rooms(&["b1", "news"]));
    b.adapter.add_all("b2", &rooms(&["b2", "sport"]));
    // Membership is per node.
    assert_eq!(
        a.adapter.sockets(&opts(&["news"], &[])),
        rooms(&["a1", "a2"])
    );
    assert_eq!(b.adapter.sockets(&opts(&["news"], &[])), rooms(&["b1"]));

    b.adapter
        .broadcast(vec![json!("e"), json!(1)], &opts(&["news"], &["vip"]));
    let on_a = a.recorder.wait_for(1).await;
    let on_b = b.recorder.wait_for(1).await;
    assert_eq!(sockets_of(&on_a), vec!["a1"]);
    assert_eq!(
        sockets_of(&on_b),
        vec!["b1"],
        "delivered once on the emitting node"
    );
    assert_eq!(on_a[0].1, r#"2["e",1]"#);
    assert_eq!(on_a[0].2, None, "no offset without recovery");

    a.adapter
        .broadcast(vec![json!("e"), json!(2)], &opts(&[], &["a1"]));
    assert_eq!(sockets_of(&a.recorder.wait_for(1).await), vec!["a2"]);
    assert_eq!(sockets_of(&b.recorder.wait_for(2).await), vec!["b1", "b2"]);
    assert_eq!(a.adapter.current_offset(), None);
    // Nothing is stored without recovery.
    assert!(prefix.keys().is_empty(), "{:?}", prefix.keys());
}

#[tokio::test]
async fn redis_adapter_keeps_order_offsets_history_and_sessions() {
    if !redis_ready() {
        return;
    }
    let prefix = Prefix::new();
    let window = Duration::from_secs(60);
    let a = node(&prefix, recovery(window, 100));
    let b = node(&prefix, recovery(window, 100));
    a.adapter.add_all("a1", &rooms(&["a1", "news"]));
    b.adapter.add_all("b1", &rooms(&["b1", "news"]));
    let start = b.adapter.current_offset().unwrap();
    assert_eq!(start, "0");

    for n in 0..20 {
        let node = if n % 2 == 0 { &a } else { &b };
        node.adapter
            .broadcast(vec![json!("e"), json!(n)], &opts(&["news"], &[]));
    }
    let on_a = a.recorder.wait_for(20).await;
    let on_b = b.recorder.wait_for(20).await;
    for delivered in [&on_a, &on_b] {
        assert_eq!(delivered.len(), 20);
        let mut offsets: Vec<u64> = delivered
            .iter()
            .map(|(_, text, offset)| {
                let offset = offset.clone().unwrap();
                assert!(text.ends_with(&format!(",\"{offset}\"]")), "{text}");
                offset.parse().unwrap()
            })
            .collect();
        // Each node's own broadcasts come in the order they were emitted.
        let numbers: Vec<i64> = delivered
            .iter()
            .map(|(_, text, _)| {
                let value: Value = serde_json::from_str(&text[1..]).unwrap();
                value[1].as_i64().unwrap()
            })
            .collect();
        for parity in [0, 1] {
            let own: Vec<i64> = numbers
                .iter()
                .copied()
                .filter(|n| n % 2 == parity)
                .collect();
            let mut sorted = own.clone();
            sorted.sort();
            assert_eq!(own, sorted);
        }
        offsets.sort();
        assert_eq!(offsets, (1..=20).collect::<Vec<u64>>());
    }
    assert_eq!(a.adapter.current_offset().as_deref(), Some("20"));

    // A session persisted on A is taken (once) on B; B replays what it missed, filtered.
    let session = PersistedSession {
        pid: "pid1".into(),
        sid: "a1".into(),
        rooms: rooms(&["a1", "news"]),
        resume_from: Some(start.clone()),
    };
    a.adapter.persist_session(session.clone());
    b.adapter
        .broadcast(vec![json!("e"), json!("missed-1")], &opts(&["news"], &[]));
    b.adapter
        .broadcast(vec![json!("e"), json!("not-mine")], &opts(&["sport"], &[]));
    b.adapter
        .broadcast(vec![json!("e"), json!("except-me")], &opts(&[], &["a1"]));
    // Broadcasts from two nodes are ordered by Redis as they arrive: let B's go first.
    for _ in 0..100 {
        if a.adapter.current_offset().as_deref() == Some("23") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.adapter
        .broadcast(vec![json!("e"), json!("missed-2")], &opts(&["a1"], &[]));
    b.recorder.wait_for(1).await;
    assert_eq!(a.adapter.current_offset().as_deref(), Some("24"));
    assert_eq!(a.adapter.take_session("other"), None);
    assert_eq!(b.adapter.take_session("bad:pid"), None);
    let taken = b.adapter.take_session("pid1").unwrap();
    assert_eq!(taken, session);
    assert_eq!(a.adapter.take_session("pid1"), None, "taken once");
    let missed = b.adapter.replay_since(&taken, Some("20")).unwrap();
    let texts: Vec<(String, Value)> = missed
        .iter()
        .map(|p| (p.offset.clone(), Value::Array(p.data.clone())))
        .collect();
    assert_eq!(
        texts,
        vec![
            ("21".into(), json!(["e", "missed-1", "21"])),
            ("24".into(), json!(["e", "missed-2", "24"])),
        ]
    );
    // No offset from the client: from where the history stood when it connected.
    assert_eq!(b.adapter.replay_since(&taken, None).unwrap().len(), 22);
    assert_eq!(b.adapter.replay_since(&taken, Some("24")), Some(vec![]));
    for bad in ["25", "x", "", "1.5", "-1"] {
        assert_eq!(b.adapter.replay_since(&taken, Some(bad)), None, "{bad:?}");
    }
    // `append` stores without publishing.
    let appended = a
        .adapter
        .append(vec![json!("e"), json!("stored")], &opts(&[], &[]))
        .unwrap();
    assert_eq!(appended.offset, "25");
    assert_eq!(
        appended.data,
        vec![json!("e"), json!("stored"), json!("25")]
    );
    assert!(b.recorder.wait_for(1).await.is_empty());
    assert_eq!(
        b.adapter.replay_since(&taken, Some("24")).unwrap(),
        vec![appended]
    );
    let keys = prefix.keys();
    for suffix in [":sio:/:offset", ":sio:/:history"] {
        assert!(keys.contains(&format!("{}{suffix}", prefix.0)), "{keys:?}");
    }
}

#[tokio::test]
async fn redis_adapter_history_is_bounded_by_size_and_age() {
    if !redis_ready() {
        return;
    }
    let prefix = Prefix::new();
    let a = node(&prefix, recovery(Duration::from_millis(600), 3));
    let session = PersistedSession {
        pid: "p".into(),
        sid: "s".into(),
        rooms: rooms(&["s"]),
        resume_from: None,
    };
    for n in 0..6 {
        a.adapter
            .append(vec![json!("e"), json!(n)], &opts(&[], &[]));
    }
    // 3 kept (4, 5, 6): after 1 or 2 something is missing; after 3 nothing is.
    assert_eq!(a.adapter.replay_since(&session, Some("1")), None);
    assert_eq!(a.adapter.replay_since(&session, Some("2")), None);
    assert_eq!(
        a.adapter.replay_since(&session, Some("3")).unwrap().len(),
        3
    );
    // Past the window: what is older is gone (and so is the session).
    a.adapter.persist_session(session.clone());
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(a.adapter.take_session("p"), None, "past the window");
    assert_eq!(a.adapter.replay_since(&session, Some("5")), None);
    assert_eq!(a.adapter.replay_since(&session, Some("6")), Some(vec![]));
    a.adapter
        .append(vec![json!("e"), json!(7)], &opts(&[], &[]));
    assert_eq!(
        a.adapter.replay_since(&session, Some("6")).unwrap().len(),
        1
    );
}

// ----- two servers and the official client -----

/// A node: `/` with `welcome`, `join`, `to-room`, `except-room` and `room-size` (see
/// node/redis.mjs), on the Redis adapter.
struct Server {
    base: String,
    io: SocketIo,
    handle: actix_web::dev::ServerHandle,
}

fn arg_str(args: &[Value], i: usize) -> String {
    args.get(i)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn ack_with(ack: Option<AckSender>, args: Vec<Value>) {
    if let Some(ack) = ack {
        ack.send(args);
    }
}

fn server(prefix: &Prefix) -> Server {
    let factory = RedisAdapterFactory::connect(&redis_url(), &prefix.0).unwrap();
    let config = SocketIoConfig {
        connect_timeout: Duration::from_millis(2000),
        recovery: recovery(Duration::from_secs(30), 1000),
        ..SocketIoConfig::default()
    };
    let io = SocketIo::with_adapter(config, Arc::new(factory));
    let ns = io.of("/");
    let history_prefix = prefix.0.clone();
    ns.on_connection({
        let ns = ns.clone();
        move |socket| {
            let history_prefix = history_prefix.clone();
            let welcome = json!({"id": socket.id(), "recovered": socket.recovered()});
            socket.emit("welcome", vec![welcome]).unwrap();
            socket.on("join", |socket, args, ack| {
                socket.join(arg_str(&args, 0));
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
                let payload = args.get(3).cloned().unwrap_or(Value::Null);
                n.to(arg_str(&args, 0))
                    .except(arg_str(&args, 1))
                    .emit(&arg_str(&args, 2), vec![payload])
                    .unwrap();
                ack_with(ack, vec![json!("sent")]);
            });
            let n = ns.clone();
            socket.on("room-size", move |_, args, ack| {
                ack_with(ack, vec![json!(n.to(arg_str(&args, 0)).socket_ids().len())]);
            });
            // Publishes again every broadcast of the history after the offset given, as the
            // pub/sub copies of broadcasts that reached the history before a recovery read it
            // but reach this node only after the recovered socket opened (a slow subscriber).
            let channel = format!("{history_prefix}:sio:/");
            socket.on("late-copies", move |_, args, ack| {
                let after = arg_str(&args, 0);
                let mut conn = redis::Client::open(redis_url())
                    .and_then(|c| c.get_connection())
                    .unwrap();
                let entries: redis::streams::StreamRangeReply = redis::cmd("XRANGE")
                    .arg(format!("{channel}:history"))
                    .arg(format!("({after}-0"))
                    .arg("+")
                    .query(&mut conn)
                    .unwrap();
                let mut sent = 0;
                for entry in entries.ids {
                    let message: String = entry.get("m").unwrap();
                    let _: i64 = redis::cmd("PUBLISH")
                        .arg(&channel)
                        .arg(message)
                        .query(&mut conn)
                        .unwrap();
                    sent += 1;
                }
                ack_with(ack, vec![json!(sent)]);
            });
        }
    });
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let engine = io.engine(EngineConfig {
        ping_interval: Duration::from_millis(500),
        ping_timeout: Duration::from_millis(2000),
        ..EngineConfig::default()
    });
    let http = conformance::serve(listener, engine).unwrap();
    let handle = http.handle();
    tokio::spawn(http);
    Server {
        base: format!("http://127.0.0.1:{port}"),
        io,
        handle,
    }
}

async fn run_two_nodes(scenario: &str) {
    if !redis_ready() || !node_ready() {
        return;
    }
    let prefix = Prefix::new();
    let a = server(&prefix);
    let b = server(&prefix);
    let (base_a, base_b) = (a.base.clone(), b.base.clone());
    let name = scenario.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .args(["redis.mjs", &base_a, &base_b, &name])
            .current_dir(node_dir())
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
    for server in [&a, &b] {
        for _ in 0..100 {
            if server.io.client_count() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(server.io.client_count(), 0, "sessions left open");
    }
    a.handle.stop(false).await;
    b.handle.stop(false).await;
}

#[tokio::test]
async fn redis_adapter_official_client_rooms_and_except_across_nodes() {
    run_two_nodes("cross-node").await;
}

#[tokio::test]
async fn redis_adapter_official_client_recovers_on_another_node() {
    run_two_nodes("recover-on-other-node").await;
}
