//! The floor of the real-time benchmark (`make bench-realtime`, `tests/bench/run.sh`): the same
//! events as `pizza-order serve` and `tests/bench/node-server.mjs`, just enough of Engine.IO and
//! Socket.IO for the harness, and nothing a real server needs (no sessions, no heartbeat, no
//! acks of its own, no recovery, no checks). On the harness's `publish` command (see
//! `bench_common`) each event (`order:progress`, `store:update`, shaped as the product's) is
//! encoded once and its frame handed to each member socket of the room with one non-blocking
//! `send`.
//!
//! For the inbound benchmark (`BENCH_MODE=inbound`) it answers the product's customer events
//! the same way, with nothing behind them: `time:sync` (ack `{clientTime, serverTime}`),
//! `order:watch` (joins `order:<orderNo>`; ack `{errCode, order}` with the snapshot of
//! `BENCH_ORDER_SNAPSHOT`, a file holding what `pizza-order` answers, its orderNo replaced;
//! the view token is not checked) and `store:watch` (joins `store:<storeCode>`).
//!
//! What it costs per delivery is what the kernel costs: the least any server that sends each
//! delivery to its socket can pay on this machine. Beside it, the report shows how much of the
//! CPU of the two real servers is theirs and how much is the kernel's.
//!
//!     cargo build --release --example bench_floor
//!     target/release/examples/bench_floor [port] [host, default 127.0.0.1]

#[path = "bench_common/mod.rs"]
mod common;

use common::{parse_publish, product_event, publish};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::rc::Rc;
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::Notify;
use tokio::task::LocalSet;

/// Engine.IO's heartbeat: by default none for the benchmark's length. With
/// `BENCH_FLOOR_PING_MS` (the inbound benchmark sets the servers' 25 s), a ping every so often
/// on each connection, as the real servers send them (the harness answers; no timeout here).
fn ping_interval_ms() -> Option<u64> {
    std::env::var("BENCH_FLOOR_PING_MS").ok()?.parse().ok()
}

/// Engine.IO's open packet.
fn open_packet() -> String {
    let ping = ping_interval_ms().unwrap_or(3_600_000);
    format!(
        r#"0{{"sid":"floor","upgrades":[],"pingInterval":{ping},"pingTimeout":60000,"maxPayload":1000000}}"#
    )
}

struct Conn {
    stream: TcpStream,
    /// What the socket did not take yet; flushed by the connection's task.
    out: RefCell<Vec<u8>>,
    wake: Notify,
    rooms: RefCell<Vec<String>>,
}

thread_local! {
    static ROOMS: RefCell<HashMap<String, Vec<Rc<Conn>>>> = RefCell::new(HashMap::new());
    /// The order detail `order:watch` answers (inbound benchmark), read once at start.
    static SNAPSHOT: Value = std::env::var("BENCH_ORDER_SNAPSHOT")
        .ok()
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
}

/// An unmasked text frame.
fn text_frame(text: &str) -> Vec<u8> {
    let len = text.len();
    let mut frame = Vec::with_capacity(len + 10);
    frame.push(0x81);
    if len < 126 {
        frame.push(len as u8);
    } else if let Ok(short) = u16::try_from(len) {
        frame.push(126);
        frame.extend_from_slice(&short.to_be_bytes());
    } else {
        frame.push(127);
        frame.extend_from_slice(&(len as u64).to_be_bytes());
    }
    frame.extend_from_slice(text.as_bytes());
    frame
}

impl Conn {
    fn send(&self, frame: &[u8]) {
        let mut out = self.out.borrow_mut();
        if !out.is_empty() {
            out.extend_from_slice(frame);
            return;
        }
        match self.stream.try_write(frame) {
            Ok(n) if n == frame.len() => return,
            Ok(n) => out.extend_from_slice(&frame[n..]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => out.extend_from_slice(frame),
            Err(_) => return, // gone: its task ends on the read side
        }
        self.wake.notify_one();
    }

    async fn flush(&self) -> io::Result<()> {
        loop {
            {
                let mut out = self.out.borrow_mut();
                if out.is_empty() {
                    return Ok(());
                }
                match self.stream.try_write(&out) {
                    Ok(n) => {
                        out.drain(..n);
                        continue;
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
            }
            self.stream.writable().await?;
        }
    }

    /// Handles one text message of the client.
    fn on_text(self: &Rc<Self>, text: &str) {
        if text.starts_with("40") {
            self.send(&text_frame(r#"40{"sid":"floor"}"#));
            return;
        }
        let Some(rest) = text.strip_prefix("42") else {
            return; // pong, or anything the harness does not send
        };
        let start = rest.find('[').unwrap_or(rest.len());
        let id: Option<u64> = rest[..start].parse().ok();
        let Ok(Value::Array(args)) = serde_json::from_str::<Value>(&rest[start..]) else {
            return;
        };
        match args.first().and_then(Value::as_str) {
            Some("publish") => {
                let Some(job) = parse_publish(&args[1..]) else {
                    self.ack(id, json!({"error": "bad publish"}));
                    return;
                };
                let conn = self.clone();
                tokio::task::spawn_local(async move {
                    let result = publish(job, |room, seq, sent_at, pad| {
                        let (event, payload) = product_event(room, seq, sent_at, pad);
                        let frame = text_frame(&format!("42{}", json!([event, payload])));
                        ROOMS.with(|all| {
                            for member in all.borrow().get(room).into_iter().flatten() {
                                member.send(&frame);
                            }
                        });
                    })
                    .await;
                    conn.ack(id, result);
                });
            }
            Some("time:sync") => {
                let client_time = args
                    .get(1)
                    .and_then(|a| a.get("clientTime"))
                    .cloned()
                    .unwrap_or(Value::Null);
                self.ack(
                    id,
                    json!({"clientTime": client_time, "serverTime": common::now_ms() as i64}),
                );
            }
            Some("order:watch") => {
                let order_no = args
                    .get(1)
                    .and_then(|a| a.get("orderNo"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                self.join(&format!("order:{order_no}"));
                let mut order = SNAPSHOT.with(Clone::clone);
                order["orderNo"] = json!(order_no);
                self.ack(id, json!({"errCode": "00", "order": order}));
            }
            Some("store:watch") => {
                let code = args
                    .get(1)
                    .and_then(|a| a.get("storeCode"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.join(&format!("store:{code}"));
                self.ack(id, json!({"errCode": "00"}));
            }
            _ => {}
        }
    }

    fn join(self: &Rc<Self>, room: &str) {
        ROOMS.with(|all| {
            all.borrow_mut()
                .entry(room.to_owned())
                .or_default()
                .push(self.clone());
        });
        self.rooms.borrow_mut().push(room.to_owned());
    }

    fn ack(&self, id: Option<u64>, value: Value) {
        if let Some(id) = id {
            self.send(&text_frame(&format!("43{id}{}", json!([value]))));
        }
    }

    fn leave_all(self: &Rc<Self>) {
        ROOMS.with(|all| {
            let mut all = all.borrow_mut();
            for room in self.rooms.borrow().iter() {
                if let Some(members) = all.get_mut(room) {
                    members.retain(|m| !Rc::ptr_eq(m, self));
                }
            }
        });
    }
}

/// The next whole client frame of `buf` (masked): (opcode, unmasked payload, length used).
fn next_frame(buf: &[u8]) -> Option<(u8, Vec<u8>, usize)> {
    let (b0, b1) = (*buf.first()?, *buf.get(1)?);
    let (len, mut at) = match b1 & 0x7f {
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
    let key: [u8; 4] = if b1 & 0x80 != 0 {
        let key = buf.get(at..at + 4)?.try_into().ok()?;
        at += 4;
        key
    } else {
        [0; 4]
    };
    let payload = buf.get(at..at + len)?;
    let payload = payload
        .iter()
        .enumerate()
        .map(|(i, b)| b ^ key[i % 4])
        .collect();
    Some((b0 & 0x0f, payload, at + len))
}

/// Reads until the end of the HTTP head; answers the WebSocket upgrade.
async fn upgrade(stream: &TcpStream) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        stream.readable().await?;
        match stream.try_read(&mut chunk) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let key = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("sec-websocket-key")
                .then(|| value.trim().to_owned())
        })
        .ok_or(io::ErrorKind::InvalidData)?;
    let accept = actix_http::ws::hash_key(key.as_bytes());
    let answer = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {}\r\n\r\n",
        String::from_utf8_lossy(&accept)
    );
    let mut bytes = answer.as_bytes();
    while !bytes.is_empty() {
        stream.writable().await?;
        match stream.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(buf.split_off(head_end))
}

/// A read that, coming back short of `chunk`, tells tokio the socket is drained (as tokio's
/// own `AsyncRead` does on epoll, and as the product's connections read): no second `read`
/// only to be told `EAGAIN`. The floor stays the least a server can pay for a request.
fn read_draining(stream: &TcpStream, chunk: &mut [u8]) -> io::Result<usize> {
    use std::io::Read;
    let room = chunk.len();
    let mut got = 0;
    let result = stream.try_io(tokio::io::Interest::READABLE, || {
        got = (&*socket2::SockRef::from(stream)).read(chunk)?;
        if got > 0 && got < room {
            Err(io::ErrorKind::WouldBlock.into())
        } else {
            Ok(got)
        }
    });
    match result {
        Err(e) if e.kind() == io::ErrorKind::WouldBlock && got > 0 => Ok(got),
        other => other,
    }
}

async fn serve(stream: TcpStream) {
    let Ok(mut buf) = upgrade(&stream).await else {
        return;
    };
    let conn = Rc::new(Conn {
        stream,
        out: RefCell::new(Vec::new()),
        wake: Notify::new(),
        rooms: RefCell::new(Vec::new()),
    });
    conn.send(&text_frame(&open_packet()));
    let ping_every = ping_interval_ms().map(std::time::Duration::from_millis);
    let first_ping =
        tokio::time::Instant::now() + ping_every.unwrap_or(std::time::Duration::from_secs(86_400));
    let mut ping = Box::pin(tokio::time::sleep_until(first_ping));
    let mut chunk = vec![0u8; 16 * 1024];
    'reading: loop {
        while let Some((opcode, payload, used)) = next_frame(&buf) {
            buf.drain(..used);
            match opcode {
                0x1 => conn.on_text(&String::from_utf8_lossy(&payload)),
                0x8 => break 'reading,
                _ => {}
            }
        }
        tokio::select! {
            ready = conn.stream.readable() => {
                if ready.is_err() {
                    break;
                }
                match read_draining(&conn.stream, &mut chunk) {
                    Ok(0) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(_) => break,
                }
            }
            () = ping.as_mut(), if ping_every.is_some() => {
                conn.send(&text_frame("2"));
                if let Some(every) = ping_every {
                    ping.as_mut().reset(tokio::time::Instant::now() + every);
                }
            }
            _ = conn.wake.notified() => {
                if conn.flush().await.is_err() {
                    break;
                }
            }
        }
    }
    conn.leave_all();
}

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3300);
    let host: Ipv4Addr = match args.next() {
        None => Ipv4Addr::LOCALHOST,
        Some(a) => a.parse().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not an IPv4 address: {a}"),
            )
        })?,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(LocalSet::new().run_until(async move {
        let socket = TcpSocket::new_v4()?;
        socket.set_reuseaddr(true)?;
        socket.bind(SocketAddr::from((host, port)))?;
        let listener = socket.listen(4096)?;
        println!(
            "bench_floor pid {} on http://{host}:{port}/socket.io/",
            std::process::id()
        );
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            tokio::task::spawn_local(serve(stream));
        }
    }))
}
