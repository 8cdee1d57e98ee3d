//! Sessions: the session table, and one session's outgoing buffer, transport and close; beside
//! them its heartbeat (`heartbeat`), its polling side (`poll`) and a WebSocket taking it over
//! (`upgrade`). Transport-specific I/O lives in `polling` and `websocket`.

mod heartbeat;
pub(super) mod poll;
mod upgrade;

use self::heartbeat::heartbeat;
use super::config::EngineConfig;
use super::handler::{
    Attached, DisconnectReason, EngineHandler, EngineSocket, Message, RequestInfo, Sid,
    TransportKind,
};
use super::packet::{OpenPayload, Packet};
use super::websocket::link::WsLink;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use tokio::sync::Notify;
use tokio::time::Instant;

/// The engine's shared state: settings, handler and the session table.
pub(crate) struct Shared {
    pub(crate) config: EngineConfig,
    pub(crate) handler: Arc<dyn EngineHandler>,
    sessions: Mutex<HashMap<Sid, Arc<Session>>>,
}

impl Shared {
    pub(crate) fn new(config: EngineConfig, handler: Arc<dyn EngineHandler>) -> Arc<Shared> {
        Arc::new(Shared {
            config,
            handler,
            sessions: Mutex::new(HashMap::new()),
        })
    }

    fn table(&self) -> MutexGuard<'_, HashMap<Sid, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn get(&self, sid: &str) -> Option<Arc<Session>> {
        self.table().get(sid).cloned()
    }

    pub(crate) fn len(&self) -> usize {
        self.table().len()
    }

    pub(crate) fn all(&self) -> Vec<Arc<Session>> {
        self.table().values().cloned().collect()
    }

    fn remove(&self, sid: &Sid) {
        self.table().remove(sid);
    }

    /// Registers a new open session and starts its heartbeat. The caller sends the `open`
    /// packet ([`Session::open_packet`]) first, then calls the handler's `on_connect`.
    pub(crate) fn create(
        self: &Arc<Self>,
        transport: SessionTransport,
        request: RequestInfo,
    ) -> Arc<Session> {
        let upgrades = match transport {
            SessionTransport::Polling if self.config.allow_upgrades => {
                vec![TransportKind::WebSocket.as_str().to_owned()]
            }
            _ => Vec::new(),
        };
        let mut table = self.table();
        let mut sid = Sid::random();
        while table.contains_key(&sid) {
            sid = Sid::random();
        }
        let session = Arc::new(Session {
            sid: sid.clone(),
            upgrades,
            request,
            engine: Arc::downgrade(self),
            handler: Arc::clone(&self.handler),
            config: self.config.clone(),
            state: Mutex::new(State {
                phase: Phase::Open,
                transport,
                queue: VecDeque::new(),
                polling: false,
                posting: false,
                poll_reply: None,
                upgrade: Upgrade::None,
                ping_deadline: None,
                last_pong: None,
                last_packet: Instant::now(),
            }),
            wake: Notify::new(),
            pong: Notify::new(),
            closed: Notify::new(),
            attached: OnceLock::new(),
        });
        table.insert(sid, Arc::clone(&session));
        drop(table);
        actix_web::rt::spawn(heartbeat(Arc::clone(&session)));
        session
    }
}

/// The transport a session writes to.
pub(crate) enum SessionTransport {
    /// Packets wait in the session's queue for the next GET.
    Polling,
    /// Packets are written to the WebSocket connection at once.
    WebSocket(WsLink),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Open,
    /// The server asked to close: the queue is delivered, then the session closes.
    Closing(DisconnectReason),
    Closed,
}

/// A WebSocket trying to take over a polling session.
enum Upgrade {
    None,
    /// Connected with the session's sid; no probe yet.
    Attached(WsLink),
    /// Probe answered: polls are answered with `noop` at once so the client can pause polling.
    Probed(WsLink),
}

struct State {
    phase: Phase,
    transport: SessionTransport,
    /// Packets waiting for a poll (polling transport only).
    queue: VecDeque<Packet>,
    /// A GET is waiting for packets.
    polling: bool,
    /// A POST is being read.
    posting: bool,
    /// The answer for the waiting GET when the session closed under it.
    poll_reply: Option<Packet>,
    upgrade: Upgrade,
    /// When the ping in flight must be answered by (None: no ping in flight).
    ping_deadline: Option<Instant>,
    last_pong: Option<Instant>,
    /// Any packet from the client counts as a sign of life for the ping timeout.
    last_packet: Instant,
}

/// One Engine.IO session.
pub(crate) struct Session {
    sid: Sid,
    upgrades: Vec<String>,
    request: RequestInfo,
    engine: Weak<Shared>,
    handler: Arc<dyn EngineHandler>,
    config: EngineConfig,
    state: Mutex<State>,
    /// Wakes the waiting GET.
    wake: Notify,
    /// Wakes the heartbeat when the pong arrives.
    pong: Notify,
    /// Wakes the heartbeat when the session closes.
    closed: Notify,
    /// The handler's own state for this session ([`EngineSocket::attach`]).
    attached: OnceLock<Attached>,
}

impl Session {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn sid(&self) -> &Sid {
        &self.sid
    }

    pub(crate) fn request(&self) -> &RequestInfo {
        &self.request
    }

    pub(crate) fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub(crate) fn attach(&self, data: Attached) {
        let _ = self.attached.set(data);
    }

    /// The handshake packet for this session.
    pub(crate) fn open_packet(&self) -> Packet {
        let millis = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Packet::Open(OpenPayload {
            sid: self.sid.to_string(),
            upgrades: self.upgrades.clone(),
            ping_interval: millis(self.config.ping_interval),
            ping_timeout: millis(self.config.ping_timeout),
            max_payload: u64::try_from(self.config.max_payload).unwrap_or(u64::MAX),
        })
    }

    /// Calls the handler's `on_connect` with a socket for this session.
    pub(crate) fn announce(self: &Arc<Self>) {
        self.handler.on_connect(EngineSocket::new(Arc::clone(self)));
    }

    pub(crate) fn transport(&self) -> TransportKind {
        match self.lock().transport {
            SessionTransport::Polling => TransportKind::Polling,
            SessionTransport::WebSocket(_) => TransportKind::WebSocket,
        }
    }

    pub(crate) fn is_open(&self) -> bool {
        self.lock().phase == Phase::Open
    }

    /// Queues or writes packets, in order; dropped unless the session is open.
    pub(crate) fn send(&self, packets: Vec<Packet>) {
        if packets.is_empty() {
            return;
        }
        let mut state = self.lock();
        if state.phase != Phase::Open {
            return;
        }
        match &state.transport {
            // The lock is held while handing over, so concurrent writers keep one order.
            SessionTransport::WebSocket(ws) => ws.send(&packets),
            SessionTransport::Polling => {
                state.queue.extend(packets);
                drop(state);
                self.wake.notify_one();
            }
        }
    }

    /// Writes messages shared with other sessions (a broadcast): over WebSocket they are
    /// encoded from the borrowed messages; only polling copies them into its queue.
    ///
    /// Returns the connection when the transport is WebSocket, for the caller to write to
    /// directly from then on (see [`super::handler::DirectWriter`]).
    pub(crate) fn send_messages(&self, messages: &[Message]) -> Option<WsLink> {
        let mut state = self.lock();
        if state.phase != Phase::Open {
            return None;
        }
        match &state.transport {
            SessionTransport::WebSocket(ws) => {
                ws.send_messages(messages);
                Some(ws.clone())
            }
            SessionTransport::Polling => {
                if !messages.is_empty() {
                    state
                        .queue
                        .extend(messages.iter().cloned().map(Packet::from));
                    drop(state);
                    self.wake.notify_one();
                }
                None
            }
        }
    }

    /// Handles a packet from the client.
    pub(crate) fn receive(&self, packet: Packet) {
        {
            let mut state = self.lock();
            if state.phase != Phase::Open {
                return;
            }
            state.last_packet = Instant::now();
            if let Packet::Pong(_) = packet {
                if state.ping_deadline.take().is_some() {
                    state.last_pong = Some(Instant::now());
                    drop(state);
                    self.pong.notify_one();
                }
                return;
            }
        }
        match packet {
            Packet::Message(text) => {
                self.handler
                    .on_message_attached(self.attached.get(), &self.sid, text)
            }
            Packet::Binary(data) => {
                self.handler
                    .on_binary_attached(self.attached.get(), &self.sid, data)
            }
            Packet::Close => self.close(DisconnectReason::ClientClose),
            // In v4 the server pings and the client answers, never the other way round.
            Packet::Ping(_) => self.close(DisconnectReason::TransportError),
            Packet::Open(_) | Packet::Pong(_) | Packet::Upgrade | Packet::Noop => {}
        }
    }

    /// Closes the session now: the waiting GET gets `close` (or `noop` when the client asked),
    /// the WebSocket closes, the session leaves the table and the handler hears of it.
    pub(crate) fn close(&self, reason: DisconnectReason) {
        let reason = {
            let mut state = self.lock();
            let reason = match state.phase {
                Phase::Closed => return,
                Phase::Closing(requested) => requested,
                Phase::Open => reason,
            };
            state.phase = Phase::Closed;
            state.queue.clear();
            if state.polling {
                state.poll_reply = Some(match reason {
                    DisconnectReason::ClientClose => Packet::Noop,
                    _ => Packet::Close,
                });
            }
            if let SessionTransport::WebSocket(ws) = &state.transport {
                ws.close();
            }
            match std::mem::replace(&mut state.upgrade, Upgrade::None) {
                Upgrade::Attached(ws) | Upgrade::Probed(ws) => ws.close(),
                Upgrade::None => {}
            }
            reason
        };
        self.wake.notify_one();
        // One waiter (the heartbeat): a permit is kept if it is not waiting right now.
        self.closed.notify_one();
        if let Some(engine) = self.engine.upgrade() {
            engine.remove(&self.sid);
        }
        tracing::debug!(sid = %self.sid, reason = reason.as_str(), "engine.io session closed");
        self.handler.on_disconnect(&self.sid, reason);
    }

    /// A close asked by the server: queued packets are delivered first.
    pub(crate) fn server_close(&self) {
        let close_now = {
            let mut state = self.lock();
            if state.phase != Phase::Open {
                return;
            }
            match state.transport {
                // Everything written is already on the connection, before the close.
                SessionTransport::WebSocket(_) => true,
                SessionTransport::Polling if state.queue.is_empty() && state.polling => true,
                SessionTransport::Polling => {
                    state.phase = Phase::Closing(DisconnectReason::ServerClose);
                    state.queue.push_back(Packet::Close);
                    false
                }
            }
        };
        if close_now {
            self.close(DisconnectReason::ServerClose);
        } else {
            self.wake.notify_one();
        }
    }
}
