//! One client of the harness: minimal Engine.IO v4 + Socket.IO v5 on namespace "/" over a
//! WebSocket (text frames only), and the per-phase measurement state its frames feed.

use super::Options;
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::rc::Rc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

pub fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

// ---- measurement state, reset per phase ----

#[derive(Default)]
pub struct Stats {
    /// Bumped at each phase: a client's last seq per room from an earlier phase is stale.
    pub phase: u32,
    pub latencies: Vec<f64>,
    pub received: u64,
    pub reordered: u64,
    pub last_received: f64,
    /// When the harness published each order's events (orderNo -> seq -> ms), when it is the
    /// publisher (`--redis-url`).
    pub sent: HashMap<String, HashMap<u64, f64>>,
}

thread_local! {
    pub static STATS: RefCell<Stats> = RefCell::new(Stats::default());
}

/// Resets the counters for a new phase.
pub fn reset_stats() {
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        s.phase += 1;
        s.latencies.clear();
        s.received = 0;
        s.reordered = 0;
        s.last_received = 0.0;
        s.sent.clear();
    });
}

/// A delivered EVENT: `[name, payload]`, and the offset after them when the server has
/// connection state recovery on (the product).
#[derive(Deserialize)]
struct Delivered<'a>(
    &'a str,
    #[serde(borrow)] Payload<'a>,
    #[serde(default)]
    #[allow(dead_code)] // read only to be allowed
    Option<serde::de::IgnoredAny>,
);

/// What the harness reads of `order:progress` and `store:update` (bench_common/mod.rs).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload<'a> {
    #[serde(borrow)]
    order_no: Option<&'a str>,
    #[serde(borrow)]
    store_code: Option<&'a str>,
    seq: Option<u64>,
    at: Option<f64>,
    #[serde(borrow)]
    notice: Option<&'a str>,
}

impl Payload<'_> {
    /// (room key, seq, sentAt): for an order, `at` unless the harness published the event
    /// itself (then when it did: the product's `at` is whole milliseconds).
    fn reading(&self, stats: &Stats) -> Option<(&str, u64, f64)> {
        if let Some(order_no) = self.order_no {
            let seq = self.seq?;
            let sent = stats
                .sent
                .get(order_no)
                .and_then(|by_seq| by_seq.get(&seq).copied())
                .or(self.at)?;
            return Some((order_no, seq, sent));
        }
        let mut words = self.notice?.split(' ');
        let seq = words.next()?.parse().ok()?;
        let sent = words.next()?.parse().ok()?;
        Some((self.store_code?, seq, sent))
    }
}

/// The ack of `time:sync`: the client's own time comes back.
#[derive(Deserialize)]
struct SyncAck {
    #[serde(rename = "clientTime")]
    client_time: f64,
}

/// `time:sync` acks carry ids from here up, so that they need no entry in the ack table.
pub const SYNC_IDS: u64 = 1 << 40;

pub struct Client {
    stream: TcpStream,
    /// The rooms whose deliveries it checks for order (fanout).
    rooms: Vec<String>,
    /// Events emitted (each with an ack) once connected, before the client counts as ready:
    /// `order:watch`, `store:watch` (fanout).
    joins: Vec<(String, Value)>,
    /// (phase, last seq) per room of `rooms`.
    last: RefCell<Vec<(u32, u64)>>,
    next_ack: Cell<u64>,
    next_sync: Cell<u64>,
    acks: RefCell<HashMap<u64, oneshot::Sender<Value>>>,
    ready: RefCell<Option<oneshot::Sender<Result<(), String>>>>,
    pub closed: Cell<bool>,
}

/// A masked text frame (clients must mask; the key need not be secret here).
pub fn text_frame(text: &str) -> Vec<u8> {
    const KEY: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];
    let len = text.len();
    let mut frame = Vec::with_capacity(len + 14);
    frame.push(0x81);
    if len < 126 {
        frame.push(0x80 | len as u8);
    } else if len <= 0xffff {
        frame.push(0x80 | 126);
        frame.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        frame.push(0x80 | 127);
        frame.extend_from_slice(&(len as u64).to_be_bytes());
    }
    frame.extend_from_slice(&KEY);
    frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ KEY[i % 4]));
    frame
}

pub async fn write_all(stream: &TcpStream, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        match stream.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.writable().await?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether an ack says yes: the product's answers carry `errCode` ("00" is success).
pub fn ack_ok(ack: &Value) -> bool {
    match ack.get(0).and_then(|a| a.get("errCode")) {
        Some(code) => code == "00",
        None => ack.get(0).is_some(),
    }
}

impl Client {
    async fn send(&self, text: &str) {
        // A failed write shows up as the read side closing.
        let _ = write_all(&self.stream, &text_frame(text)).await;
    }

    pub async fn emit_with_ack(&self, event: &str, arg: Value) -> Option<Value> {
        let id = self.next_ack.get();
        self.next_ack.set(id + 1);
        let (tx, rx) = oneshot::channel();
        self.acks.borrow_mut().insert(id, tx);
        self.send(&format!("42{id}{}", json!([event, arg]))).await;
        rx.await.ok()
    }

    /// Sends `time:sync` with the time now; its ack is counted in STATS (latency: the round
    /// trip). False when the socket did not take the whole frame at once (not counted as sent).
    pub fn send_sync(&self) -> bool {
        let id = SYNC_IDS + self.next_sync.get();
        self.next_sync.set(self.next_sync.get() + 1);
        let text = format!(r#"42{id}["time:sync",{{"clientTime":{:.3}}}]"#, now_ms());
        let frame = text_frame(&text);
        matches!(self.stream.try_write(&frame), Ok(n) if n == frame.len())
    }

    fn settle(&self, result: Result<(), String>) {
        if let Some(ready) = self.ready.borrow_mut().take() {
            let _ = ready.send(result);
        }
    }

    /// Handles one text message; the writes it asks for are returned, not awaited here.
    fn on_text(self: &Rc<Self>, text: &str) -> Option<String> {
        let bytes = text.as_bytes();
        match bytes.first() {
            Some(b'2') => return Some("3".into()),  // ping -> pong
            Some(b'0') => return Some("40".into()), // open -> CONNECT "/"
            Some(b'4') => {}
            _ => return None,
        }
        match bytes.get(1) {
            Some(b'2') => self.on_event(&text[2..]),
            Some(b'0') if self.joins.is_empty() => self.settle(Ok(())),
            Some(b'0') => {
                let client = self.clone();
                tokio::task::spawn_local(async move {
                    for (event, arg) in client.joins.clone() {
                        match client.emit_with_ack(&event, arg).await {
                            Some(ack) if ack_ok(&ack) => {}
                            Some(ack) => return client.settle(Err(format!("{event}: {ack}"))),
                            None => return client.settle(Err(format!("{event} not acknowledged"))),
                        }
                    }
                    client.settle(Ok(()));
                });
            }
            Some(b'3') => {
                let start = text.find('[')?;
                let id: u64 = text[2..start].parse().ok()?;
                if id >= SYNC_IDS {
                    on_sync_ack(&text[start..]);
                    return None;
                }
                let value: Value = serde_json::from_str(&text[start..]).ok()?;
                if let Some(tx) = self.acks.borrow_mut().remove(&id) {
                    let _ = tx.send(value);
                }
            }
            Some(b'4') => self.settle(Err(format!("connect error {text}"))),
            _ => {}
        }
        None
    }

    fn on_event(&self, data: &str) {
        let at = now_ms();
        let Ok(Delivered(event, payload, _)) = serde_json::from_str::<Delivered>(data) else {
            return;
        };
        let kind = match event {
            "order:progress" => "order:",
            "store:update" => "store:",
            _ => return,
        };
        STATS.with(|stats| {
            let mut stats = stats.borrow_mut();
            let Some((key, seq, sent_at)) = payload.reading(&stats) else {
                return;
            };
            stats.received += 1;
            stats.last_received = at;
            stats.latencies.push(at - sent_at);
            let Some(k) = self
                .rooms
                .iter()
                .position(|r| r.strip_prefix(kind) == Some(key))
            else {
                return;
            };
            let mut last = self.last.borrow_mut();
            let (phase, last_seq) = last[k];
            if phase == stats.phase && seq <= last_seq {
                stats.reordered += 1;
            }
            last[k] = (stats.phase, seq);
        });
    }

    /// Reads frames until the connection ends.
    async fn run(self: Rc<Self>, mut buf: Vec<u8>) {
        let mut chunk = vec![0u8; 16 * 1024];
        loop {
            let mut at = 0;
            let mut replies = Vec::new();
            while let Some((opcode, start, end)) = next_frame(&buf[at..]) {
                let payload = &buf[at + start..at + end];
                match opcode {
                    0x1 => {
                        if let Some(reply) = std::str::from_utf8(payload)
                            .ok()
                            .and_then(|text| self.on_text(text))
                        {
                            replies.push(reply);
                        }
                    }
                    0x8 => {
                        self.closed.set(true);
                        self.settle(Err("closed by the server".into()));
                        return;
                    }
                    _ => {} // binary, ping (the servers send Engine.IO pings), pong
                }
                at += end;
            }
            buf.drain(..at);
            for reply in replies {
                self.send(&reply).await;
            }
            if self.stream.readable().await.is_err() {
                break;
            }
            match self.stream.try_read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
        self.closed.set(true);
        self.settle(Err("closed before connect".into()));
    }
}

/// A `time:sync` ack: `[{"clientTime": t, "serverTime": …}]`.
fn on_sync_ack(args: &str) {
    let at = now_ms();
    let Ok((ack,)) = serde_json::from_str::<(SyncAck,)>(args) else {
        return;
    };
    STATS.with(|stats| {
        let mut stats = stats.borrow_mut();
        stats.received += 1;
        stats.last_received = at;
        stats.latencies.push(at - ack.client_time);
    });
}

/// The next whole unmasked frame of `buf`: (opcode, payload start, payload end).
fn next_frame(buf: &[u8]) -> Option<(u8, usize, usize)> {
    let (b0, b1) = (*buf.first()?, *buf.get(1)?);
    let (len, head) = match b1 & 0x7f {
        126 => (
            u16::from_be_bytes(buf.get(2..4)?.try_into().ok()?) as usize,
            4,
        ),
        127 => (
            u64::from_be_bytes(buf.get(2..10)?.try_into().ok()?) as usize,
            10,
        ),
        n => (n as usize, 2),
    };
    (buf.len() >= head + len).then_some((b0 & 0x0f, head, head + len))
}

/// Connects, upgrades, and waits until the client made its `joins` (each acknowledged).
pub async fn open(
    opts: &Options,
    index: Option<usize>,
    rooms: Vec<String>,
    joins: Vec<(String, Value)>,
) -> Result<Rc<Client>, String> {
    let [a, b, c] = opts.source_net;
    let local = match index {
        None => Ipv4Addr::UNSPECIFIED,
        Some(i) => Ipv4Addr::new(a, b, c, (opts.addr_base + i / opts.per_addr) as u8),
    };
    let socket = TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket
        .bind(SocketAddr::from((local, 0)))
        .map_err(|e| format!("bind: {e}"))?;
    let stream = socket
        .connect(SocketAddr::from((opts.host, opts.port)))
        .await
        .map_err(|e| format!("connect: {}", e.kind()))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let request = format!(
        "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {}:{}\r\n\
         Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n",
        opts.host, opts.port
    );
    write_all(&stream, request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        stream.readable().await.map_err(|e| e.to_string())?;
        match stream.try_read(&mut chunk) {
            Ok(0) => return Err("closed during the upgrade".into()),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e.to_string()),
        }
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    if !buf.starts_with(b"HTTP/1.1 101") {
        let line = String::from_utf8_lossy(&buf[..buf.len().min(40)]).into_owned();
        return Err(format!("upgrade refused: {line}"));
    }
    buf.drain(..head_end);
    let (ready, joined) = oneshot::channel();
    let last = vec![(u32::MAX, 0); rooms.len()];
    let client = Rc::new(Client {
        stream,
        rooms,
        joins,
        last: RefCell::new(last),
        next_ack: Cell::new(0),
        next_sync: Cell::new(0),
        acks: RefCell::new(HashMap::new()),
        ready: RefCell::new(Some(ready)),
        closed: Cell::new(false),
    });
    tokio::task::spawn_local(client.clone().run(buf));
    joined.await.map_err(|_| "no answer".to_string())??;
    Ok(client)
}
