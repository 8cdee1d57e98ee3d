//! Sessions: the session table, and one session's outgoing buffer, transport, upgrade state,
//! heartbeat and close. Transport-specific I/O lives in `polling` and `websocket`.

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
use tokio::time::{sleep_until, Instant};

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

/// What a GET gets.
pub(crate) enum PollOutcome {
    /// The payload to answer with.
    Payload(Vec<Packet>),
    /// Another GET was already waiting: the session is now closed.
    Overlap,
    /// The session closed before this GET.
    Closed,
    /// The session has moved to WebSocket.
    NotPolling,
}

/// How a ping in flight stands when its deadline passes.
enum PongStatus {
    Answered(Instant),
    Waiting(Instant),
    Expired,
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

    /// Closes the session if its ping went unanswered past the deadline (a request may arrive
    /// a moment before the heartbeat task notices). Returns whether the session is still open.
    pub(crate) fn check_alive(&self) -> bool {
        let expired = {
            let state = self.lock();
            match state.phase {
                Phase::Closed => return false,
                Phase::Open | Phase::Closing(_) => {
                    matches!(Self::pong_status(&state, &self.config), PongStatus::Expired)
                }
            }
        };
        if expired {
            self.close(DisconnectReason::PingTimeout);
        }
        !expired
    }

    fn pong_status(state: &State, config: &EngineConfig) -> PongStatus {
        let now = Instant::now();
        match state.ping_deadline {
            None => PongStatus::Answered(state.last_pong.unwrap_or(now)),
            Some(deadline) => {
                let deadline = deadline.max(state.last_packet + config.ping_timeout);
                if now < deadline {
                    PongStatus::Waiting(deadline)
                } else {
                    PongStatus::Expired
                }
            }
        }
    }

    /// Sends a ping due to be answered by `deadline`. False once the session is closed.
    fn ping(&self, deadline: Instant) -> bool {
        {
            let mut state = self.lock();
            match state.phase {
                Phase::Closed => return false,
                // No ping while closing, but the deadline still ends a session nobody polls.
                Phase::Closing(_) => {
                    state.ping_deadline = Some(deadline);
                    return true;
                }
                Phase::Open => state.ping_deadline = Some(deadline),
            }
        }
        self.send(vec![Packet::Ping(None)]);
        true
    }

    // ----- polling -----

    /// Waits for packets for a GET.
    pub(crate) async fn poll(self: &Arc<Self>) -> PollOutcome {
        {
            let mut state = self.lock();
            if state.phase == Phase::Closed {
                return PollOutcome::Closed;
            }
            if !matches!(state.transport, SessionTransport::Polling) {
                return PollOutcome::NotPolling;
            }
            if state.polling {
                drop(state);
                self.close(DisconnectReason::TransportError);
                return PollOutcome::Overlap;
            }
            state.polling = true;
        }
        let mut guard = PollGuard {
            session: Arc::clone(self),
            armed: true,
        };
        loop {
            let woken = self.wake.notified();
            let (batch, closing) = {
                let mut state = self.lock();
                if let Some(reply) = state.poll_reply.take() {
                    state.polling = false;
                    (Some(vec![reply]), false)
                } else if state.phase == Phase::Closed {
                    state.polling = false;
                    (Some(vec![Packet::Close]), false)
                } else if !state.queue.is_empty() {
                    state.polling = false;
                    let batch: Vec<Packet> = state.queue.drain(..).collect();
                    (Some(batch), matches!(state.phase, Phase::Closing(_)))
                } else if matches!(state.upgrade, Upgrade::Probed(_))
                    || matches!(state.transport, SessionTransport::WebSocket(_))
                {
                    // Upgrading or upgraded: end this poll so the client can move on.
                    state.polling = false;
                    (Some(vec![Packet::Noop]), false)
                } else {
                    (None, false)
                }
            };
            if let Some(batch) = batch {
                guard.armed = false;
                if closing {
                    self.close(DisconnectReason::ServerClose);
                }
                return PollOutcome::Payload(batch);
            }
            woken.await;
        }
    }

    /// Marks a POST as being read; false (and the session closed) if one already is.
    pub(crate) fn begin_post(&self) -> bool {
        let overlap = {
            let mut state = self.lock();
            let overlap = state.posting;
            state.posting = true;
            overlap
        };
        if overlap {
            self.close(DisconnectReason::TransportError);
        }
        !overlap
    }

    pub(crate) fn end_post(&self) {
        self.lock().posting = false;
    }

    // ----- upgrade -----

    /// A WebSocket with this session's sid connected. False if the session cannot be upgraded
    /// (closed, not polling, or another upgrade under way).
    pub(crate) fn attach_upgrade(&self, ws: WsLink) -> bool {
        let mut state = self.lock();
        if state.phase != Phase::Open
            || !matches!(state.transport, SessionTransport::Polling)
            || !matches!(state.upgrade, Upgrade::None)
        {
            return false;
        }
        state.upgrade = Upgrade::Attached(ws);
        true
    }

    /// The upgrading WebSocket answered the probe.
    pub(crate) fn probed(&self) {
        {
            let mut state = self.lock();
            if let Upgrade::Attached(ws) = std::mem::replace(&mut state.upgrade, Upgrade::None) {
                state.upgrade = Upgrade::Probed(ws);
            } else {
                return;
            }
        }
        self.wake.notify_one();
    }

    /// The client sent `upgrade`: the WebSocket becomes the transport, and what was queued for
    /// polling is written to it first (under the lock, so nothing newer overtakes it). False
    /// if the upgrade is off.
    pub(crate) fn complete_upgrade(&self) -> bool {
        {
            let mut state = self.lock();
            if state.phase != Phase::Open {
                return false;
            }
            let ws = match std::mem::replace(&mut state.upgrade, Upgrade::None) {
                Upgrade::Attached(ws) | Upgrade::Probed(ws) => ws,
                Upgrade::None => return false,
            };
            let queued: Vec<Packet> = state.queue.drain(..).collect();
            ws.send(&queued);
            state.transport = SessionTransport::WebSocket(ws);
        }
        self.wake.notify_one();
        true
    }

    /// The upgrading WebSocket gave up (closed, timed out, or sent something unexpected).
    pub(crate) fn abort_upgrade(&self) {
        self.lock().upgrade = Upgrade::None;
    }
}

/// Clears the polling flag if a GET's future is dropped before it answered (the client went
/// away): like the reference server, the session then closes.
struct PollGuard {
    session: Arc<Session>,
    armed: bool,
}

impl Drop for PollGuard {
    fn drop(&mut self) {
        if self.armed {
            self.session.lock().polling = false;
            self.session.close(DisconnectReason::TransportClose);
        }
    }
}

/// Pings every `ping_interval` (counted from the last pong) and closes the session when a
/// ping stays unanswered for `ping_timeout`.
async fn heartbeat(session: Arc<Session>) {
    let interval = session.config.ping_interval;
    let mut next_ping = Instant::now() + interval;
    loop {
        if !sleep_unless_closed(next_ping, &session.closed).await {
            return;
        }
        let mut deadline = next_ping + session.config.ping_timeout;
        if !session.ping(deadline) {
            return;
        }
        loop {
            tokio::select! {
                _ = sleep_until(deadline) => {}
                _ = session.pong.notified() => {}
                _ = session.closed.notified() => return,
            }
            let status = {
                let state = session.lock();
                if state.phase == Phase::Closed {
                    return;
                }
                Session::pong_status(&state, &session.config)
            };
            match status {
                PongStatus::Answered(at) => {
                    next_ping = at + interval;
                    break;
                }
                PongStatus::Waiting(later) => deadline = later,
                PongStatus::Expired => {
                    session.close(DisconnectReason::PingTimeout);
                    return;
                }
            }
        }
    }
}

/// Sleeps until `at`; false if the session closed first.
async fn sleep_unless_closed(at: Instant, closed: &Notify) -> bool {
    tokio::select! {
        _ = sleep_until(at) => true,
        _ = closed.notified() => false,
    }
}
