//! [`Socket`]: one client connected to one namespace. Its id is random (never the Engine.IO
//! session id, which is a credential of the transport); it has rooms, event handlers, acks
//! both ways, and disconnect handlers.

use super::ack::{AckError, AckTable};
use super::adapter::{
    event_packet, packet_messages, HistoryPacket, LocalSocket, LocalSocketRef, PersistedSession,
    Room,
};
use super::broadcast::BroadcastOperator;
use super::client::Client;
use super::handshake::Handshake;
use super::namespace::NamespaceInner;
use super::packet::{Packet, RESERVED_EVENTS};
use crate::realtime::engineio::handler::DirectWriter;
use crate::realtime::engineio::{self, EngineSocket, Message};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, RwLock, Weak};
use std::time::Duration;

/// Why a socket left its namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisconnectReason {
    /// The client sent DISCONNECT for the namespace (`socket.disconnect()` in the client).
    ClientNamespaceDisconnect,
    /// The server called [`Socket::disconnect`].
    ServerNamespaceDisconnect,
    /// The client sent a malformed packet, or one for a namespace it is not connected to: the
    /// connection was closed.
    ParseError,
    /// The Engine.IO session closed.
    Transport(engineio::DisconnectReason),
}

impl DisconnectReason {
    /// The reference server's name for the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            DisconnectReason::ClientNamespaceDisconnect => "client namespace disconnect",
            DisconnectReason::ServerNamespaceDisconnect => "server namespace disconnect",
            DisconnectReason::ParseError => "parse error",
            DisconnectReason::Transport(reason) => reason.as_str(),
        }
    }

    /// Whether the client may come back and recover (the connection was lost rather than the
    /// socket being left on purpose).
    pub fn is_recoverable(self) -> bool {
        match self {
            DisconnectReason::Transport(reason) => reason != engineio::DisconnectReason::ParseError,
            _ => false,
        }
    }
}

/// Why an emit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    #[error("\"{0}\" is a reserved event name")]
    ReservedEvent(String),
    #[error("the socket is disconnected")]
    Disconnected,
}

pub(crate) fn check_event(event: &str) -> Result<(), EmitError> {
    if RESERVED_EVENTS.contains(&event) {
        return Err(EmitError::ReservedEvent(event.to_owned()));
    }
    Ok(())
}

pub(crate) type EventHandler = Arc<dyn Fn(&Socket, Vec<Value>, Option<AckSender>) + Send + Sync>;
type DisconnectHandler = Box<dyn FnOnce(&Socket, DisconnectReason) + Send>;

/// Where writes go: held back until the CONNECT answer is out (and, on recovery, the missed
/// broadcasts), then straight to the engine.
enum Outbox {
    /// Writes made before the CONNECT answer, with the offset of broadcasts.
    Held(Vec<(Option<String>, Vec<Message>)>),
    /// Through the engine's session until it hands out its WebSocket connection (at once, or
    /// after an upgrade from polling), then straight to the connection.
    Open(Option<DirectWriter>),
    Closed,
}

/// One client in one namespace. Cheap to clone.
#[derive(Clone)]
pub struct Socket {
    inner: Arc<SocketInner>,
}

pub(crate) struct SocketInner {
    id: String,
    pid: Option<String>,
    recovered: bool,
    /// Where the client's history position stood at connection, for a later recovery.
    resume_from: Option<String>,
    ns: Arc<NamespaceInner>,
    client: Weak<Client>,
    engine: EngineSocket,
    handshake: Handshake,
    connected: AtomicBool,
    handlers: RwLock<HashMap<String, EventHandler>>,
    ending: Mutex<Ending>,
    acks: Mutex<AckTable>,
    outbox: Mutex<Outbox>,
    /// The offsets a recovery replayed. With Redis, another node's broadcast is in the history
    /// before its pub/sub copy reaches this node, so the live copy of a replayed broadcast can
    /// arrive after the CONNECT answer too, not only while the socket is held; it is dropped
    /// here. Set once; as large as one replay.
    replayed: OnceLock<HashSet<String>>,
}

/// What a socket is made from (by its namespace).
pub(crate) struct SocketParts {
    pub id: String,
    pub pid: Option<String>,
    pub recovered: bool,
    pub resume_from: Option<String>,
    pub ns: Arc<NamespaceInner>,
    pub client: Weak<Client>,
    pub engine: EngineSocket,
    pub handshake: Handshake,
}

/// The disconnect handlers, until the socket closes; then why it closed.
enum Ending {
    Waiting(Vec<DisconnectHandler>),
    Closed(DisconnectReason),
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LocalSocket for SocketInner {
    /// Held until the CONNECT answer is written (see [`Socket::finish_connect`]), dropped once
    /// the socket closed.
    fn deliver(&self, messages: &[Message], offset: Option<&str>) {
        let mut outbox = lock(&self.outbox);
        // Checked under the outbox's lock: `finish_connect` fills the set before it opens the
        // outbox, so whoever finds it open finds the set too.
        if let (Some(offset), Some(replayed)) = (offset, self.replayed.get()) {
            if replayed.contains(offset) {
                return;
            }
        }
        match &mut *outbox {
            Outbox::Open(Some(writer)) => writer.send_shared(messages),
            Outbox::Open(writer) => *writer = self.engine.send_shared_then_direct(messages),
            Outbox::Held(held) => held.push((offset.map(str::to_owned), messages.to_vec())),
            Outbox::Closed => {}
        }
    }
}

impl Socket {
    pub(crate) fn new(parts: SocketParts) -> Socket {
        Socket {
            inner: Arc::new(SocketInner {
                id: parts.id,
                pid: parts.pid,
                recovered: parts.recovered,
                resume_from: parts.resume_from,
                ns: parts.ns,
                client: parts.client,
                engine: parts.engine,
                handshake: parts.handshake,
                connected: AtomicBool::new(true),
                handlers: RwLock::new(HashMap::new()),
                ending: Mutex::new(Ending::Waiting(Vec::new())),
                acks: Mutex::new(AckTable::default()),
                outbox: Mutex::new(Outbox::Held(Vec::new())),
                replayed: OnceLock::new(),
            }),
        }
    }

    /// The socket id (random, the same after a recovery).
    pub fn id(&self) -> &str {
        &self.inner.id
    }

    /// The namespace name, e.g. `/` or `/store`.
    pub fn namespace(&self) -> &str {
        &self.inner.ns.name
    }

    pub fn handshake(&self) -> &Handshake {
        &self.inner.handshake
    }

    /// Whether this socket took over a previous one after a lost connection (same id, same
    /// rooms, missed broadcasts replayed). False for a fresh socket: the application should
    /// send it a fresh snapshot.
    pub fn recovered(&self) -> bool {
        self.inner.recovered
    }

    pub fn connected(&self) -> bool {
        self.inner.connected.load(Ordering::SeqCst)
    }

    /// The transport the connection uses now.
    pub fn transport(&self) -> engineio::TransportKind {
        self.inner.engine.transport()
    }

    /// Joins a room (no-op once disconnected).
    pub fn join(&self, room: impl Into<Room>) {
        if self.connected() {
            self.inner
                .ns
                .adapter
                .add_all(&self.inner.id, &[room.into()]);
        }
    }

    /// Leaves a room.
    pub fn leave(&self, room: &str) {
        self.inner.ns.adapter.del(&self.inner.id, room);
    }

    /// The rooms the socket is in, sorted (its own id included).
    pub fn rooms(&self) -> Vec<Room> {
        self.inner.ns.adapter.socket_rooms(&self.inner.id)
    }

    /// Sends an event to this client. Not kept for recovery: what must survive a lost
    /// connection is broadcast to a room (see [`Socket::to`]), which also tells the client its
    /// offset.
    pub fn emit(&self, event: &str, args: Vec<Value>) -> Result<(), EmitError> {
        check_event(event)?;
        if !self.connected() {
            return Err(EmitError::Disconnected);
        }
        self.send_packet(&Packet::event(self.namespace(), event, args, None));
        Ok(())
    }

    /// Sends an event the client must acknowledge; the future answers the client's ack
    /// arguments, or fails after `timeout` (the configured ack timeout when `None`) or when the
    /// socket disconnects first. The event is sent at once, whether or not the future is polled.
    pub fn emit_with_ack(
        &self,
        event: &str,
        args: Vec<Value>,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<Vec<Value>, AckError>> + Send + 'static {
        let timeout = timeout.unwrap_or(self.inner.ns.config.ack_timeout);
        let registered = self.send_with_ack(event, args);
        async move {
            let (guard, rx) = registered?;
            let answer = match tokio::time::timeout(timeout, rx).await {
                Ok(Ok(args)) => Ok(args),
                Ok(Err(_)) => Err(AckError::Disconnected),
                Err(_) => Err(AckError::Timeout),
            };
            drop(guard);
            answer
        }
    }

    fn send_with_ack(
        &self,
        event: &str,
        args: Vec<Value>,
    ) -> Result<(AckGuard, tokio::sync::oneshot::Receiver<Vec<Value>>), AckError> {
        if RESERVED_EVENTS.contains(&event) {
            return Err(AckError::ReservedEvent(event.to_owned()));
        }
        let (id, rx) = lock(&self.inner.acks)
            .register()
            .ok_or(AckError::Disconnected)?;
        let guard = AckGuard {
            socket: Arc::downgrade(&self.inner),
            id,
        };
        self.send_packet(&Packet::event(self.namespace(), event, args, Some(id)));
        Ok((guard, rx))
    }

    /// Sets the handler of an event (replacing any previous one). It gets the arguments (binary
    /// ones as [`super::binary::binary_value`] markers) and, when the client asked for an ack,
    /// an [`AckSender`]. It runs on a server worker thread: keep it short.
    pub fn on<F>(&self, event: &str, handler: F)
    where
        F: Fn(&Socket, Vec<Value>, Option<AckSender>) + Send + Sync + 'static,
    {
        if let Ok(mut handlers) = self.inner.handlers.write() {
            handlers.insert(event.to_owned(), Arc::new(handler));
        }
    }

    /// Adds a handler run once when the socket disconnects (at once if it already has).
    pub fn on_disconnect<F>(&self, handler: F)
    where
        F: FnOnce(&Socket, DisconnectReason) + Send + 'static,
    {
        let reason = match &mut *lock(&self.inner.ending) {
            Ending::Waiting(handlers) => {
                handlers.push(Box::new(handler));
                return;
            }
            Ending::Closed(reason) => *reason,
        };
        handler(self, reason);
    }

    /// Disconnects the socket from its namespace (the client gets DISCONNECT; the connection
    /// and its other namespaces stay).
    pub fn disconnect(&self) {
        if !self.connected() {
            return;
        }
        self.send_packet(&Packet::disconnect(self.namespace()));
        self.close(DisconnectReason::ServerNamespaceDisconnect);
    }

    /// A broadcast to a room of this namespace, leaving this socket out.
    pub fn to(&self, room: impl Into<Room>) -> BroadcastOperator {
        self.broadcast().to(room)
    }

    /// A broadcast to every socket of this namespace but this one.
    pub fn broadcast(&self) -> BroadcastOperator {
        BroadcastOperator::new(Arc::clone(&self.inner.ns)).except(self.inner.id.clone())
    }

    // ----- crate side -----

    pub(crate) fn same_as(&self, other: &Socket) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Writes a packet (held until the CONNECT answer is out).
    pub(crate) fn send_packet(&self, packet: &Packet) {
        self.deliver(&packet_messages(packet), None);
    }

    /// Writes encoded messages, in order with every other write of this socket.
    pub(crate) fn deliver(&self, messages: &[Message], offset: Option<&str>) {
        self.inner.deliver(messages, offset);
    }

    /// This socket as its adapter's room sets hold it.
    pub(crate) fn local_ref(&self) -> LocalSocketRef {
        Arc::clone(&self.inner) as LocalSocketRef
    }

    /// Sends the missed broadcasts (recovery), then the CONNECT answer, then what was written
    /// meanwhile (less the broadcasts already replayed), and opens the outbox. Missed events
    /// come first as from the reference server: the official client holds events that arrive
    /// before CONNECT and emits them before its `connect` event, so the application sees them
    /// before it decides, on `connect`, whether it recovered.
    pub(crate) fn finish_connect(&self, missed: Vec<HistoryPacket>) {
        let mut data = json!({ "sid": self.inner.id });
        if let Some(pid) = &self.inner.pid {
            data["pid"] = Value::String(pid.clone());
        }
        let connect = Packet::connect(self.namespace(), Some(data));
        let mut outbox = lock(&self.inner.outbox);
        let Outbox::Held(held) = std::mem::replace(&mut *outbox, Outbox::Open(None)) else {
            *outbox = Outbox::Closed;
            return;
        };
        if !missed.is_empty() {
            let offsets = missed.iter().map(|p| p.offset.clone()).collect();
            let _ = self.inner.replayed.set(offsets);
        }
        self.inner
            .engine
            .send_batch(first_writes(self.namespace(), &connect, missed, held));
    }

    /// Drops a socket that never got its CONNECT answer (a recovery that fell through).
    pub(crate) fn discard(&self) {
        self.inner.connected.store(false, Ordering::SeqCst);
        *lock(&self.inner.outbox) = Outbox::Closed;
        lock(&self.inner.acks).close();
    }

    /// An EVENT from the client.
    pub(crate) fn handle_event(&self, event: &str, args: Vec<Value>, ack_id: Option<u64>) {
        if !self.connected() {
            return;
        }
        // The socket's own handlers first; most sockets have none (the namespace's serve them),
        // and then only this lock, next to `connected`, is read.
        let own = self.inner.handlers.read().ok().and_then(|handlers| {
            if handlers.is_empty() {
                None
            } else {
                handlers.get(event).cloned()
            }
        });
        let handler = own.or_else(|| self.inner.ns.event_handler(event));
        let ack = ack_id.map(|id| AckSender {
            socket: self.clone(),
            id,
        });
        match handler {
            Some(handler) => handler(self, args, ack),
            None => tracing::trace!(socket = %self.inner.id, event, "no handler"),
        }
    }

    /// An ACK from the client.
    pub(crate) fn handle_ack(&self, id: u64, args: Vec<Value>) {
        if !lock(&self.inner.acks).resolve(id, args) {
            tracing::debug!(socket = %self.inner.id, id, "ack for no waiting emit");
        }
    }

    /// Leaves the namespace: rooms, the client's table, pending acks; keeps the session for
    /// recovery when the connection was lost; runs the disconnect handlers.
    pub(crate) fn close(&self, reason: DisconnectReason) {
        if !self.inner.connected.swap(false, Ordering::SeqCst) {
            return;
        }
        let ns = &self.inner.ns;
        let id = &self.inner.id;
        let rooms = ns.adapter.socket_rooms(id);
        ns.adapter.del_all(id);
        ns.unregister(self);
        // Persisted only once the socket is gone, so a quick reconnect cannot race it.
        if reason.is_recoverable() && ns.config.recovery.is_some() {
            if let Some(pid) = &self.inner.pid {
                ns.adapter.persist_session(PersistedSession {
                    pid: pid.clone(),
                    sid: id.clone(),
                    rooms,
                    resume_from: self.inner.resume_from.clone(),
                });
            }
        }
        *lock(&self.inner.outbox) = Outbox::Closed;
        lock(&self.inner.acks).close();
        if let Some(client) = self.inner.client.upgrade() {
            client.detach(&ns.name, self);
        }
        let handlers =
            match std::mem::replace(&mut *lock(&self.inner.ending), Ending::Closed(reason)) {
                Ending::Waiting(handlers) => handlers,
                Ending::Closed(_) => Vec::new(),
            };
        if let Ok(mut events) = self.inner.handlers.write() {
            // Handlers may hold clones of this socket: drop them to break the cycle.
            events.clear();
        }
        tracing::debug!(socket = %id, namespace = %ns.name, reason = reason.as_str(), "socket.io socket disconnected");
        for handler in handlers {
            handler(self, reason);
        }
    }

    /// How many emits of this socket wait for an ack.
    pub fn pending_acks(&self) -> usize {
        lock(&self.inner.acks).pending()
    }
}

impl fmt::Debug for Socket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Socket")
            .field("id", &self.inner.id)
            .field("namespace", &self.inner.ns.name)
            .field("connected", &self.connected())
            .field("recovered", &self.inner.recovered)
            .finish()
    }
}

/// The first writes of a socket: the missed broadcasts, the CONNECT answer, then what was held
/// meanwhile, less the broadcasts already replayed.
fn first_writes(
    namespace: &str,
    connect: &Packet,
    missed: Vec<HistoryPacket>,
    held: Vec<(Option<String>, Vec<Message>)>,
) -> Vec<Message> {
    let replayed: HashSet<String> = missed.iter().map(|p| p.offset.clone()).collect();
    let mut batch = Vec::new();
    for packet in missed {
        batch.extend(packet_messages(&event_packet(namespace, packet.data, None)));
    }
    batch.extend(packet_messages(connect));
    for (offset, messages) in held {
        if offset.is_some_and(|offset| replayed.contains(&offset)) {
            continue;
        }
        batch.extend(messages);
    }
    batch
}

/// Removes a pending ack when its waiter is dropped (timed out, or never polled).
struct AckGuard {
    socket: Weak<SocketInner>,
    id: u64,
}

impl Drop for AckGuard {
    fn drop(&mut self) {
        if let Some(socket) = self.socket.upgrade() {
            lock(&socket.acks).cancel(self.id);
        }
    }
}

/// Answers an event the client emitted with an ack callback. Sending consumes it (one answer
/// per event); dropping it sends nothing.
pub struct AckSender {
    socket: Socket,
    id: u64,
}

impl AckSender {
    /// Sends the ACK (a BINARY_ACK when `args` hold binary markers).
    pub fn send(self, args: Vec<Value>) {
        if self.socket.connected() {
            self.socket
                .send_packet(&Packet::ack(self.socket.namespace(), self.id, args));
        }
    }

    /// Sends the ACK with one argument serialised straight from `value`, for answers of a known
    /// shape: no [`Value`] is built, nor a [`Packet`]. `value` must hold no binary.
    pub fn send_one<T: serde::Serialize>(self, value: &T) {
        if !self.socket.connected() {
            return;
        }
        // `3[<ns>,]<id>[<value>]`, the value serialised in place: one buffer, no formatting
        // machinery (every client's `time:sync` is answered here).
        let namespace = self.socket.namespace();
        let mut text = Vec::with_capacity(namespace.len() + 64);
        text.push(b'3');
        if namespace != "/" {
            text.extend_from_slice(namespace.as_bytes());
            text.push(b',');
        }
        text.extend_from_slice(itoa::Buffer::new().format(self.id).as_bytes());
        text.push(b'[');
        if serde_json::to_writer(&mut text, value).is_err() {
            return;
        }
        text.push(b']');
        // serde_json writes UTF-8, the rest is ASCII and the namespace a `str`.
        let Ok(text) = String::from_utf8(text) else {
            return;
        };
        self.socket.deliver(&[Message::Text(text)], None);
    }

    pub fn id(&self) -> u64 {
        self.id
    }
}

impl fmt::Debug for AckSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AckSender")
            .field("socket", &self.socket.inner.id)
            .field("id", &self.id)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons() {
        use engineio::DisconnectReason as E;
        let cases = [
            (
                DisconnectReason::ClientNamespaceDisconnect,
                "client namespace disconnect",
                false,
            ),
            (
                DisconnectReason::ServerNamespaceDisconnect,
                "server namespace disconnect",
                false,
            ),
            (DisconnectReason::ParseError, "parse error", false),
            (
                DisconnectReason::Transport(E::TransportClose),
                "transport close",
                true,
            ),
            (
                DisconnectReason::Transport(E::TransportError),
                "transport error",
                true,
            ),
            (
                DisconnectReason::Transport(E::PingTimeout),
                "ping timeout",
                true,
            ),
            (
                DisconnectReason::Transport(E::ClientClose),
                "client close",
                true,
            ),
            (
                DisconnectReason::Transport(E::ServerClose),
                "server close",
                true,
            ),
            (
                DisconnectReason::Transport(E::ParseError),
                "parse error",
                false,
            ),
        ];
        for (reason, name, recoverable) in cases {
            assert_eq!(
                (reason.as_str(), reason.is_recoverable()),
                (name, recoverable)
            );
        }
    }

    #[test]
    fn first_writes_replay_then_connect_then_what_was_held() {
        let text = |s: &str| Message::Text(s.to_owned());
        let missed = vec![
            HistoryPacket {
                offset: "t.1".into(),
                data: vec![json!("e"), json!(1), json!("t.1")],
            },
            HistoryPacket {
                offset: "t.2".into(),
                data: vec![json!("e"), json!({"$binary": "AQ=="}), json!("t.2")],
            },
        ];
        let held = vec![
            // Broadcast while the socket joined: replayed already, dropped here.
            (Some("t.2".to_owned()), vec![text(r#"2["e",2,"t.2"]"#)]),
            (Some("t.3".to_owned()), vec![text(r#"2["e",3,"t.3"]"#)]),
            (None, vec![text(r#"2["direct"]"#)]),
        ];
        let connect = Packet::connect("/", Some(json!({"sid": "s", "pid": "p"})));
        assert_eq!(
            first_writes("/", &connect, missed, held),
            vec![
                text(r#"2["e",1,"t.1"]"#),
                text(r#"51-["e",{"_placeholder":true,"num":0},"t.2"]"#),
                Message::Binary(vec![1]),
                text(r#"0{"pid":"p","sid":"s"}"#),
                text(r#"2["e",3,"t.3"]"#),
                text(r#"2["direct"]"#),
            ]
        );
        let connect = Packet::connect("/store", Some(json!({"sid": "s"})));
        assert_eq!(
            first_writes("/store", &connect, vec![], vec![]),
            vec![text(r#"0/store,{"sid":"s"}"#)]
        );
    }

    #[test]
    fn reserved_events_cannot_be_emitted() {
        for event in [
            "connect",
            "connect_error",
            "disconnect",
            "disconnecting",
            "newListener",
            "removeListener",
        ] {
            assert_eq!(
                check_event(event),
                Err(EmitError::ReservedEvent(event.into()))
            );
        }
        assert_eq!(check_event("order:progress"), Ok(()));
    }
}
