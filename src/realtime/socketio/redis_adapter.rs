//! The Redis adapter: broadcasts reach the sockets of a namespace on every node, and the
//! connection state recovery history and sessions live in Redis, so a client recovers on any
//! node. Used when `REDIS_URL` is set; [`super::LocalAdapter`] is the embedded default.
//!
//! # Keys and channels (one set per namespace `<nsp>`, under a configurable `<prefix>`)
//!
//! | name | type | what |
//! |---|---|---|
//! | `<prefix>:sio:<nsp>` | pub/sub channel | every broadcast, as JSON [`WireMessage`] `{uid, nsp, rooms, except, data, offset?}` |
//! | `<prefix>:sio:<nsp>:offset` | string (INCR) | the last offset given; never expires |
//! | `<prefix>:sio:<nsp>:history` | stream | one entry per broadcast (recovery on): id `<offset>-0`, fields `at` (Redis time, ms) and `m` (the published JSON); at most `max_history` entries, entries older than the window are deleted on each append, and the key expires one window after the last append |
//! | `<prefix>:sio:<nsp>:session:<pid>` | string, `PX` = window | a closed socket's session, JSON [`StoredSession`] `{sid, rooms, resume_from, disconnected_at}`; taken with `GETDEL` |
//!
//! # How a broadcast travels
//!
//! Room membership stays in process (each node knows only its own sockets, as in
//! socket.io-redis-adapter); `sockets`/`socket_rooms` answer for this node. A broadcast is queued
//! to this adapter's writer thread, which (with recovery on) runs one Lua script: `INCR` the
//! counter (the offset), `XADD` the entry, trim, `PUBLISH` the message, all atomically. Then the
//! writer delivers the message to this node's matching sockets (with its offset). Each node's
//! subscriber thread (a dedicated pub/sub connection) delivers the messages of *other* nodes
//! (it drops its own `uid`) to its matching local sockets. Without recovery there is no
//! script: the broadcast is delivered locally at once and `PUBLISH`ed by the writer.
//!
//! Recovery reads (`current_offset` on connect, `take_session` and `replay_since` on a
//! reconnect, `persist_session` on a lost connection) are synchronous round trips on a
//! separate connection: they block the calling worker thread for one Redis round trip
//! (the trait is synchronous; these happen once per connection, not per message).
//!
//! # Ordering and delivery guarantees
//!
//! - Offsets are one counter per namespace shared by all nodes; the history is in offset
//!   order, and a replay is in offset order.
//! - The broadcasts of one node reach every socket in the order they were emitted (one writer
//!   thread per namespace, Redis delivers a publisher's messages in order).
//! - Broadcasts from different nodes reach a socket in the order its node got them, which can
//!   differ from offset order by what was in flight. The client keeps the *last received*
//!   offset, so a recovery after such an inversion replays a few events twice: recovery is
//!   at-least-once, never lossy, as long as the history still holds what followed the offset.
//!   A broadcast is in the history before its pub/sub copy reaches the other nodes, so a
//!   recovery can replay one whose live copy arrives after: the socket drops the live copy of
//!   every offset it replayed (`Socket::finish_connect`).
//! - Pub/sub stores nothing: a node cut off from Redis misses live broadcasts meanwhile (its
//!   subscriber reconnects with backoff); if Redis is unreachable, broadcasts still reach the
//!   local sockets, without an offset. Offsets are not tied to a Redis instance: flushing Redis
//!   also drops the sessions, so old offsets are never looked up.
//!
//! # Load balancer
//!
//! A Socket.IO connection over **WebSocket needs no stickiness**: the whole Engine.IO session
//! lives on the one TCP connection, and recovery works across nodes through Redis. HTTP
//! **long-polling needs sticky routing**: an Engine.IO session lives in the memory of the node
//! that opened it, and every later `GET`/`POST` for it must reach that node — route by the
//! `sid` query parameter (e.g. HAProxy `balance url_param sid`, nginx `hash $arg_sid
//! consistent`; the handshake request has no `sid` and may go anywhere), or by a cookie set on
//! the handshake. A poll that reaches the wrong node gets `400 Session ID unknown` and the
//! client reconnects (and then recovers through Redis). Recommend WebSocket-first clients
//! (`transports: ["websocket"]`, or `["websocket", "polling"]` as a fallback).

use super::adapter::{
    event_packet, packet_messages, Adapter, AdapterFactory, BroadcastOptions, HistoryPacket,
    LocalAdapter, LocalSockets, PersistedSession, Room, SystemClock,
};
use super::config::RecoveryConfig;
use super::redis_wire::{entry_seq, parse_offset, Keys, StoredSession, WireMessage};
use redis::{Connection, RedisError, RedisResult};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const IO_TIMEOUT: Duration = Duration::from_secs(2);
/// How often the subscriber looks whether its adapter is gone.
const POLL: Duration = Duration::from_millis(250);
/// How long `create` waits for the subscription before returning.
const SUBSCRIBE_WAIT: Duration = Duration::from_secs(3);

/// Appends a broadcast: KEYS counter, history, channel; ARGV head of the message (JSON less
/// its closing brace), max history, window (ms), publish ("1"/"0"). Returns the offset.
const APPEND_SCRIPT: &str = r#"
local seq = redis.call('INCR', KEYS[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local offset = string.format('%d', seq)
local message = ARGV[1] .. ',"offset":"' .. offset .. '"}'
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[2], offset .. '-0', 'at', string.format('%d', now), 'm', message)
local cutoff = now - tonumber(ARGV[3])
while true do
  local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
  if #first == 0 then break end
  if tonumber(first[1][2][2]) >= cutoff then break end
  redis.call('XDEL', KEYS[2], first[1][1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if ARGV[4] == '1' then redis.call('PUBLISH', KEYS[3], message) end
return seq
"#;

/// Makes [`RedisAdapter`]s; every adapter it makes shares its node id.
#[derive(Clone)]
pub struct RedisAdapterFactory {
    client: redis::Client,
    prefix: String,
    uid: String,
}

impl RedisAdapterFactory {
    /// Checks that Redis answers (one blocking `PING`, meant for startup) and makes a factory
    /// whose keys and channels start with `key_prefix`, with a fresh node id.
    pub fn connect(url: &str, key_prefix: &str) -> Result<RedisAdapterFactory, RedisError> {
        let client = redis::Client::open(url)?;
        let mut conn = open(&client)?;
        redis::cmd("PING").query::<String>(&mut conn)?;
        Ok(RedisAdapterFactory {
            client,
            prefix: key_prefix.to_owned(),
            uid: uuid::Uuid::new_v4().simple().to_string(),
        })
    }

    /// This node's id (in every message it publishes).
    pub fn uid(&self) -> &str {
        &self.uid
    }

    pub fn key_prefix(&self) -> &str {
        &self.prefix
    }
}

impl AdapterFactory for RedisAdapterFactory {
    fn create(
        &self,
        namespace: &str,
        local: Weak<dyn LocalSockets>,
        recovery: Option<RecoveryConfig>,
    ) -> Arc<dyn Adapter> {
        Arc::new(RedisAdapter::start(
            self.client.clone(),
            &self.prefix,
            &self.uid,
            namespace,
            local,
            recovery,
        ))
    }
}

fn open(client: &redis::Client) -> RedisResult<Connection> {
    let conn = client.get_connection_with_timeout(CONNECT_TIMEOUT)?;
    conn.set_read_timeout(Some(IO_TIMEOUT))?;
    conn.set_write_timeout(Some(IO_TIMEOUT))?;
    Ok(conn)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A connection opened on first use and again after an I/O error.
struct Conn {
    client: redis::Client,
    conn: Option<Connection>,
}

impl Conn {
    fn new(client: redis::Client) -> Self {
        Conn { client, conn: None }
    }

    /// Runs `f`, once more on a fresh connection if the connection had dropped; `None` (logged)
    /// on failure.
    fn run<T>(
        &mut self,
        what: &str,
        mut f: impl FnMut(&mut Connection) -> RedisResult<T>,
    ) -> Option<T> {
        for attempt in 0..2 {
            let conn = match &mut self.conn {
                Some(conn) => conn,
                slot => match open(&self.client) {
                    Ok(conn) => slot.insert(conn),
                    Err(error) => {
                        tracing::warn!(%error, what, "socket.io redis adapter: cannot connect");
                        return None;
                    }
                },
            };
            match f(conn) {
                Ok(value) => return Some(value),
                Err(error) => {
                    let broken =
                        error.is_io_error() || error.is_connection_dropped() || error.is_timeout();
                    if broken {
                        self.conn = None;
                    }
                    if attempt == 0 && error.is_connection_dropped() {
                        continue;
                    }
                    tracing::warn!(%error, what, "socket.io redis adapter: command failed");
                    return None;
                }
            }
        }
        None
    }
}

/// What the writer thread and the subscriber thread share with the adapter.
struct Shared {
    namespace: String,
    uid: String,
    keys: Keys,
    recovery: Option<RecoveryConfig>,
    /// This node's room membership (a local adapter without recovery).
    rooms: LocalAdapter,
    append: redis::Script,
    stop: AtomicBool,
}

impl Shared {
    /// Stores (and with `publish`, publishes) a broadcast; its offset.
    fn append(&self, conn: &mut Conn, message: &WireMessage, publish: bool) -> Option<u64> {
        let recovery = self.recovery.as_ref()?;
        let head = message.head();
        conn.run("append", |c| {
            self.append
                .key(&self.keys.counter)
                .key(&self.keys.history)
                .key(&self.keys.channel)
                .arg(&head)
                .arg(recovery.max_history)
                .arg(millis(recovery.max_disconnection_duration))
                .arg(if publish { "1" } else { "0" })
                .invoke(c)
        })
    }

    /// Writes a broadcast to this node's matching sockets.
    fn deliver(&self, message: &WireMessage) {
        self.rooms
            .deliver(&message.options(), message.offset.as_deref(), || {
                packet_messages(&event_packet(&self.namespace, message.client_data(), None))
            });
    }

    /// A message from the channel: delivered here unless this node sent it.
    fn receive(&self, payload: &str) {
        match WireMessage::parse(payload) {
            Some(message) if message.uid == self.uid || message.nsp != self.namespace => {}
            Some(message) => self.deliver(&message),
            None => tracing::warn!(
                namespace = %self.namespace,
                "socket.io redis adapter: unreadable message dropped"
            ),
        }
    }
}

enum Command {
    /// Store (recovery on), publish, then deliver locally.
    Broadcast(WireMessage),
    /// Only publish (recovery off: already delivered locally).
    Publish(String),
}

/// Rooms in process, broadcasts through Redis pub/sub, recovery history and sessions in Redis.
/// See the module documentation.
pub struct RedisAdapter {
    shared: Arc<Shared>,
    writer: mpsc::Sender<Command>,
    query: Mutex<Conn>,
}

impl RedisAdapter {
    /// Starts the writer and subscriber threads of a namespace; waits (a few seconds at most)
    /// until the subscription is in place, so that nothing published afterwards is missed.
    pub fn start(
        client: redis::Client,
        prefix: &str,
        uid: &str,
        namespace: &str,
        local: Weak<dyn LocalSockets>,
        recovery: Option<RecoveryConfig>,
    ) -> RedisAdapter {
        let shared = Arc::new(Shared {
            namespace: namespace.to_owned(),
            uid: uid.to_owned(),
            keys: Keys::new(prefix, namespace),
            recovery,
            rooms: LocalAdapter::new(namespace, local, None, Arc::new(SystemClock)),
            append: redis::Script::new(APPEND_SCRIPT),
            stop: AtomicBool::new(false),
        });
        let (writer, commands) = mpsc::channel();
        let (ready_tx, ready) = mpsc::channel();
        let spawned = {
            let shared = Arc::clone(&shared);
            let conn = Conn::new(client.clone());
            std::thread::Builder::new()
                .name("sio-redis-writer".into())
                .spawn(move || write_loop(&shared, conn, &commands))
        }
        .and_then(|_| {
            let shared = Arc::clone(&shared);
            let client = client.clone();
            std::thread::Builder::new()
                .name("sio-redis-subscriber".into())
                .spawn(move || subscribe_loop(&shared, &client, ready_tx))
        });
        match spawned {
            Ok(_) => {
                if ready.recv_timeout(SUBSCRIBE_WAIT).is_err() {
                    tracing::warn!(namespace, "socket.io redis adapter: not subscribed yet");
                }
            }
            Err(error) => {
                tracing::error!(%error, namespace, "socket.io redis adapter: cannot start threads");
            }
        }
        RedisAdapter {
            shared,
            writer,
            query: Mutex::new(Conn::new(client)),
        }
    }

    /// The node id in the messages this adapter publishes.
    pub fn uid(&self) -> &str {
        &self.shared.uid
    }

    pub fn keys(&self) -> &Keys {
        &self.shared.keys
    }

    fn query<T>(&self, what: &str, f: impl FnMut(&mut Connection) -> RedisResult<T>) -> Option<T> {
        self.query
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .run(what, f)
    }
}

impl Drop for RedisAdapter {
    fn drop(&mut self) {
        // The writer ends when its channel closes (after what is queued); the subscriber on
        // its next poll.
        self.shared.stop.store(true, Ordering::SeqCst);
    }
}

fn write_loop(shared: &Shared, mut conn: Conn, commands: &mpsc::Receiver<Command>) {
    while let Ok(command) = commands.recv() {
        match command {
            Command::Publish(json) => {
                conn.run("publish", |c| {
                    redis::cmd("PUBLISH")
                        .arg(&shared.keys.channel)
                        .arg(&json)
                        .query::<i64>(c)
                });
            }
            Command::Broadcast(mut message) => {
                message.offset = shared
                    .append(&mut conn, &message, true)
                    .map(|seq| seq.to_string());
                if message.offset.is_none() {
                    // Not stored: still reach the sockets we can, without an offset.
                    let json = message.to_json();
                    conn.run("publish", |c| {
                        redis::cmd("PUBLISH")
                            .arg(&shared.keys.channel)
                            .arg(&json)
                            .query::<i64>(c)
                    });
                }
                shared.deliver(&message);
            }
        }
    }
}

fn subscribe_loop(shared: &Shared, client: &redis::Client, ready: mpsc::Sender<()>) {
    let mut ready = Some(ready);
    let mut delay = Duration::from_millis(100);
    while !shared.stop.load(Ordering::SeqCst) {
        match listen(shared, client, &mut ready, &mut delay) {
            Ok(()) => return,
            Err(error) => tracing::warn!(
                %error,
                channel = %shared.keys.channel,
                "socket.io redis adapter: subscription lost; resubscribing"
            ),
        }
        let mut waited = Duration::ZERO;
        while waited < delay && !shared.stop.load(Ordering::SeqCst) {
            std::thread::sleep(POLL.min(delay));
            waited += POLL.min(delay);
        }
        delay = (delay * 2).min(Duration::from_secs(5));
    }
}

/// Subscribes and delivers until the adapter is gone (`Ok`) or the connection fails.
fn listen(
    shared: &Shared,
    client: &redis::Client,
    ready: &mut Option<mpsc::Sender<()>>,
    delay: &mut Duration,
) -> RedisResult<()> {
    let mut conn = client.get_connection_with_timeout(CONNECT_TIMEOUT)?;
    conn.set_read_timeout(Some(IO_TIMEOUT))?;
    let mut pubsub = conn.as_pubsub();
    pubsub.subscribe(&shared.keys.channel)?;
    pubsub.set_read_timeout(Some(POLL))?;
    *delay = Duration::from_millis(100);
    if let Some(ready) = ready.take() {
        let _ = ready.send(());
    }
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        match pubsub.get_message() {
            Ok(message) => match message.get_payload::<String>() {
                Ok(payload) => shared.receive(&payload),
                Err(error) => tracing::warn!(%error, "socket.io redis adapter: bad payload"),
            },
            Err(error) if error.is_timeout() => {}
            Err(error) => return Err(error),
        }
    }
}

fn field<'a>(fields: &'a [String], name: &str) -> Option<&'a str> {
    fields
        .chunks(2)
        .find(|pair| pair.first().is_some_and(|key| key == name))
        .and_then(|pair| pair.get(1))
        .map(String::as_str)
}

impl Adapter for RedisAdapter {
    fn add_all(&self, socket: &str, rooms: &[Room]) {
        self.shared.rooms.add_all(socket, rooms);
    }

    fn del(&self, socket: &str, room: &str) {
        self.shared.rooms.del(socket, room);
    }

    fn del_all(&self, socket: &str) {
        self.shared.rooms.del_all(socket);
    }

    fn socket_rooms(&self, socket: &str) -> Vec<Room> {
        self.shared.rooms.socket_rooms(socket)
    }

    fn room_count(&self) -> usize {
        self.shared.rooms.room_count()
    }

    fn sockets(&self, opts: &BroadcastOptions) -> Vec<String> {
        self.shared.rooms.sockets(opts)
    }

    fn broadcast(&self, data: Vec<Value>, opts: &BroadcastOptions) {
        let message = WireMessage::new(&self.shared.uid, &self.shared.namespace, data, opts);
        let command = if self.shared.recovery.is_some() {
            Command::Broadcast(message)
        } else {
            self.shared.deliver(&message);
            Command::Publish(message.to_json())
        };
        if let Err(mpsc::SendError(Command::Broadcast(message))) = self.writer.send(command) {
            // The writer thread is gone: this node's sockets at least.
            self.shared.deliver(&message);
        }
    }

    fn append(&self, data: Vec<Value>, opts: &BroadcastOptions) -> Option<HistoryPacket> {
        let mut message = WireMessage::new(&self.shared.uid, &self.shared.namespace, data, opts);
        let seq = {
            let mut conn = self.query.lock().unwrap_or_else(PoisonError::into_inner);
            self.shared.append(&mut conn, &message, false)?
        };
        message.offset = Some(seq.to_string());
        Some(HistoryPacket {
            offset: seq.to_string(),
            data: message.client_data(),
        })
    }

    fn current_offset(&self) -> Option<String> {
        self.shared.recovery.as_ref()?;
        let counter: Option<u64> = self.query("current offset", |c| {
            redis::cmd("GET").arg(&self.shared.keys.counter).query(c)
        })?;
        Some(counter.unwrap_or(0).to_string())
    }

    fn replay_since(
        &self,
        session: &PersistedSession,
        offset: Option<&str>,
    ) -> Option<Vec<HistoryPacket>> {
        let recovery = self.shared.recovery.as_ref()?;
        let position = offset.or(session.resume_from.as_deref())?;
        let seq = parse_offset(position)?;
        let start = format!("{}-0", seq.checked_add(1)?);
        type Reply = (Option<u64>, Vec<(String, Vec<String>)>, (u64, u64));
        let (counter, entries, (secs, micros)): Reply = self.query("replay", |c| {
            redis::pipe()
                .atomic()
                .cmd("GET")
                .arg(&self.shared.keys.counter)
                .cmd("XRANGE")
                .arg(&self.shared.keys.history)
                .arg(&start)
                .arg("+")
                .cmd("TIME")
                .query(c)
        })?;
        let counter = counter.unwrap_or(0);
        if seq > counter {
            return None;
        }
        let now = secs.saturating_mul(1000).saturating_add(micros / 1000);
        let cutoff = now.saturating_sub(millis(recovery.max_disconnection_duration));
        // Everything after `seq` must still be here, and within the window.
        let mut expected = seq + 1;
        let mut missed = Vec::new();
        for (id, fields) in entries {
            if entry_seq(&id) != Some(expected) {
                return None;
            }
            expected += 1;
            let at: u64 = field(&fields, "at")?.parse().ok()?;
            if at < cutoff {
                return None;
            }
            let message = WireMessage::parse(field(&fields, "m")?)?;
            if message.options().matches(&session.rooms) {
                missed.push(HistoryPacket {
                    offset: message.offset.clone()?,
                    data: message.client_data(),
                });
            }
        }
        (expected == counter + 1).then_some(missed)
    }

    fn persist_session(&self, session: PersistedSession) {
        let Some(recovery) = self.shared.recovery.as_ref() else {
            return;
        };
        let Some(key) = self.shared.keys.session(&session.pid) else {
            return;
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(millis)
            .unwrap_or_default();
        let json = StoredSession::from_session(&session, now).to_json();
        let window = millis(recovery.max_disconnection_duration).max(1);
        self.query("persist session", |c| {
            redis::cmd("SET")
                .arg(&key)
                .arg(&json)
                .arg("PX")
                .arg(window)
                .query::<()>(c)
        });
    }

    fn take_session(&self, pid: &str) -> Option<PersistedSession> {
        self.shared.recovery.as_ref()?;
        let key = self.shared.keys.session(pid)?;
        let json: Option<String> =
            self.query("take session", |c| redis::cmd("GETDEL").arg(&key).query(c))?;
        Some(StoredSession::parse(&json?)?.into_session(pid))
    }
}
