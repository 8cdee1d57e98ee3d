//! The seam between Engine.IO and the layer above it (Socket.IO): a handler trait the engine
//! calls, and a socket handle the layer above uses to write back.

use super::base64;
use super::packet::Packet;
pub use super::request::RequestInfo;
use super::session::Session;
use super::websocket::link::WsLink;
use std::any::Any;
use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

/// What the layer above keeps with a session ([`EngineSocket::attach`]) and gets back with each
/// of its messages, so that it need not look the session up in a table of its own: with
/// thousands of sessions that lookup is a cold hash table and key, every message.
pub type Attached = Arc<dyn Any + Send + Sync>;

/// What the engine tells the layer above. Called from the server's worker threads: keep each
/// call short (hand long work to a task or an actor). Calls for one session are not
/// concurrent with each other except `on_disconnect`, which may race a message being handled.
pub trait EngineHandler: Send + Sync + 'static {
    /// A session is open: its `open` packet is on its way to the client.
    fn on_connect(&self, socket: EngineSocket);
    /// A text message (packet type `4`) arrived.
    fn on_message(&self, sid: &Sid, text: String);
    /// A binary message arrived (a binary WebSocket frame, or `b<base64>` in a polling payload).
    fn on_binary(&self, sid: &Sid, data: Vec<u8>);
    /// [`on_message`](Self::on_message) with what the handler attached to the session, if it
    /// did. By default the attachment is ignored.
    fn on_message_attached(&self, attached: Option<&Attached>, sid: &Sid, text: String) {
        let _ = attached;
        self.on_message(sid, text);
    }
    /// [`on_binary`](Self::on_binary) with what the handler attached to the session.
    fn on_binary_attached(&self, attached: Option<&Attached>, sid: &Sid, data: Vec<u8>) {
        let _ = attached;
        self.on_binary(sid, data);
    }
    /// The session is closed; called once, after it left the session table.
    fn on_disconnect(&self, sid: &Sid, reason: DisconnectReason);
}

/// A session id: 20 characters of base64url, from 15 random bytes.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sid(Arc<str>);

impl Sid {
    /// A fresh random id.
    pub(crate) fn random() -> Sid {
        let bytes = uuid::Uuid::new_v4().into_bytes();
        let id: String = base64::encode(&bytes[..15])
            .chars()
            .map(|c| match c {
                '+' => '-',
                '/' => '_',
                other => other,
            })
            .collect();
        Sid(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Sid {
    fn from(value: &str) -> Self {
        Sid(value.into())
    }
}

impl Borrow<str> for Sid {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sid({})", self.0)
    }
}

/// Why a session closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisconnectReason {
    /// The connection went away: the WebSocket closed, or a pending poll was dropped.
    TransportClose,
    /// The client broke the transport's rules: overlapping polls or posts, a binary polling
    /// body, a ping from the client, a WebSocket protocol error or an oversized message.
    TransportError,
    /// A packet or payload from the client could not be decoded.
    ParseError,
    /// No pong arrived within `ping_timeout` of a ping.
    PingTimeout,
    /// The client sent a `close` packet.
    ClientClose,
    /// The server closed the session ([`EngineSocket::close`] or [`super::EngineIo::close_all`]).
    ServerClose,
}

impl DisconnectReason {
    /// The reference server's name for the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            DisconnectReason::TransportClose => "transport close",
            DisconnectReason::TransportError => "transport error",
            DisconnectReason::ParseError => "parse error",
            DisconnectReason::PingTimeout => "ping timeout",
            DisconnectReason::ClientClose => "client close",
            DisconnectReason::ServerClose => "server close",
        }
    }
}

/// The transport a session currently uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    Polling,
    WebSocket,
}

impl TransportKind {
    /// The name used in the `transport` query parameter.
    pub fn as_str(self) -> &'static str {
        match self {
            TransportKind::Polling => "polling",
            TransportKind::WebSocket => "websocket",
        }
    }
}

/// One outgoing message, for [`EngineSocket::send_batch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Text(String),
    Binary(Vec<u8>),
}

impl From<Message> for Packet {
    fn from(message: Message) -> Packet {
        match message {
            Message::Text(text) => Packet::Message(text),
            Message::Binary(data) => Packet::Binary(data),
        }
    }
}

/// A handle on one session, cheap to clone. Writes keep their order; writes to a closed
/// session are dropped silently.
#[derive(Clone)]
pub struct EngineSocket {
    session: Arc<Session>,
}

impl EngineSocket {
    pub(crate) fn new(session: Arc<Session>) -> Self {
        EngineSocket { session }
    }

    pub fn sid(&self) -> &Sid {
        self.session.sid()
    }

    /// Keeps `data` with the session, for the handler's `on_*_attached` (the first call wins).
    /// Hold the session's handle weakly in it, or the session and its data keep each other.
    pub fn attach(&self, data: Attached) {
        self.session.attach(data);
    }

    /// Sends a text message (packet `4`). Over polling, the text must not contain `\x1e`.
    pub fn send_text(&self, text: String) {
        self.session.send(vec![Packet::Message(text)]);
    }

    /// Sends a binary message (a binary frame, or `b<base64>` over polling).
    pub fn send_binary(&self, data: Vec<u8>) {
        self.session.send(vec![Packet::Binary(data)]);
    }

    /// Sends several messages with nothing from another writer in between (e.g. a Socket.IO
    /// packet and its binary attachments).
    pub fn send_batch(&self, messages: Vec<Message>) {
        self.session
            .send(messages.into_iter().map(Packet::from).collect());
    }

    /// Like [`send_batch`](Self::send_batch), for messages shared with other sockets (a
    /// broadcast): nothing is copied for a WebSocket.
    pub fn send_shared(&self, messages: &[Message]) {
        self.session.send_messages(messages);
    }

    /// Like [`send_shared`](Self::send_shared), and once the session's transport is
    /// WebSocket, a writer straight to its connection for the next writes.
    pub(crate) fn send_shared_then_direct(&self, messages: &[Message]) -> Option<DirectWriter> {
        self.session.send_messages(messages).map(DirectWriter)
    }

    /// Closes the session: what is already queued is still delivered, then the transport
    /// closes and the handler's `on_disconnect` runs with [`DisconnectReason::ServerClose`].
    /// `on_disconnect` may run before `close` returns, on this thread: do not hold a lock
    /// that `on_disconnect` takes while calling it.
    pub fn close(&self) {
        self.session.server_close();
    }

    /// The transport in use now (it changes from polling to WebSocket on upgrade).
    pub fn transport(&self) -> TransportKind {
        self.session.transport()
    }

    /// Whether the session is still open (not closing or closed).
    pub fn is_connected(&self) -> bool {
        self.session.is_open()
    }

    /// The request that opened the session.
    pub fn request(&self) -> &RequestInfo {
        self.session.request()
    }
}

/// A session's WebSocket connection, written to without taking the session's lock. A broadcast
/// to thousands of idle sockets pays a cache miss for every lock it takes per socket, and
/// those misses are most of what it costs above the kernel's send: this is one lock fewer.
///
/// It writes what [`EngineSocket::send_shared`] would. It is only handed out once the
/// transport is WebSocket, which is final (there is no downgrade), and every way a WebSocket
/// session ends closes its connection at once (no Closing phase as with polling), after which
/// the connection drops writes. A writer that keeps its own writes in one order (under its
/// lock) keeps them in order with what it wrote through the session before.
pub(crate) struct DirectWriter(WsLink);

impl DirectWriter {
    pub(crate) fn send_shared(&self, messages: &[Message]) {
        self.0.send_messages(messages);
    }
}

impl fmt::Debug for EngineSocket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineSocket")
            .field("sid", self.sid())
            .field("transport", &self.transport())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sids_are_20_base64url_characters_and_differ() {
        let a = Sid::random();
        let b = Sid::random();
        assert_ne!(a, b);
        for sid in [a, b] {
            assert_eq!(sid.as_str().len(), 20, "{sid}");
            assert!(sid
                .as_str()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        }
    }

    #[test]
    fn messages_become_data_packets() {
        assert_eq!(
            Packet::from(Message::Text("hi".into())),
            Packet::Message("hi".into())
        );
        assert_eq!(
            Packet::from(Message::Binary(vec![1])),
            Packet::Binary(vec![1])
        );
    }
}
