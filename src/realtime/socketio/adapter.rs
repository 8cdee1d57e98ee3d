//! Rooms, broadcasts and the history behind connection state recovery, behind one trait per
//! namespace ([`Adapter`]), with the in-process implementation ([`LocalAdapter`], the embedded
//! default).
//!
//! Every socket is in the room named by its own id, so `to(socket_id)` reaches one socket and
//! `except(socket_id)` leaves one out. A broadcast goes to the sockets in any of its rooms (all
//! sockets when it names none), minus those in any of its `except` rooms.
//!
//! With recovery on, a broadcast EVENT gets an offset: it is appended to the history, and the
//! offset is added as the last argument on the wire (as the reference server does), so that the
//! client can send it back when it reconnects. A socket that closes for a recoverable reason is
//! persisted as a [`PersistedSession`]; [`Adapter::replay_since`] answers the broadcasts it
//! missed, or `None` when that is no longer known (the client is then told it did not recover).
//!
//! # The Redis adapter
//!
//! [`super::redis_adapter`] implements this trait for several nodes (used when `REDIS_URL` is
//! set): rooms stay in process, broadcasts go through Redis pub/sub, and the history and the
//! sessions live in Redis; its module documentation lists the keys, the channels, the ordering
//! guarantees and what the load balancer must do. The trait stayed synchronous: the Redis
//! adapter queues broadcasts to a writer thread and blocks for one round trip only in
//! `current_offset`, `replay_since`, `persist_session` and `take_session`.

use super::config::RecoveryConfig;
use super::packet::{Packet, PacketKind};
use crate::realtime::engineio::{Message, Sid};
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Instant;

/// A room name.
pub type Room = String;

/// Whom a broadcast goes to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BroadcastOptions {
    /// The sockets in any of these rooms; every socket of the namespace when empty.
    pub rooms: HashSet<Room>,
    /// Minus the sockets in any of these rooms.
    pub except: HashSet<Room>,
}

impl BroadcastOptions {
    /// Whether a socket in `socket_rooms` is a target.
    pub fn matches<'a, I>(&self, socket_rooms: I) -> bool
    where
        I: IntoIterator<Item = &'a Room> + Clone,
    {
        let included = self.rooms.is_empty()
            || socket_rooms
                .clone()
                .into_iter()
                .any(|r| self.rooms.contains(r));
        included && !socket_rooms.into_iter().any(|r| self.except.contains(r))
    }
}

/// A socket of the namespace connected to this process, as an adapter writes to it.
pub trait LocalSocket: Send + Sync {
    /// Writes an encoded broadcast (a packet and its attachments). `offset` is the broadcast's
    /// offset when recovery is on.
    fn deliver(&self, messages: &[Message], offset: Option<&str>);
}

/// A handle on a [`LocalSocket`]. Room sets hold these rather than ids, so that a broadcast
/// writes to each target without hashing its id and looking it up in the namespace's table
/// (with the id lookup, a sixth of the server's user-space CPU in the benchmark).
pub type LocalSocketRef = Arc<dyn LocalSocket>;

/// How an adapter finds the sockets of its namespace connected to this process.
pub trait LocalSockets: Send + Sync {
    /// The socket with this id, if it is connected here.
    fn get(&self, socket: &str) -> Option<LocalSocketRef>;
}

/// A socket that closed and may come back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersistedSession {
    /// The private session id the client sends back (never shown to other clients).
    pub pid: String,
    /// The socket id, restored on recovery.
    pub sid: String,
    /// Its rooms when it closed (its own id room included).
    pub rooms: Vec<Room>,
    /// Where the history stood when the socket connected: replayed from when the client comes
    /// back without an offset (it had received no broadcast).
    pub resume_from: Option<String>,
}

/// One broadcast kept in the history: its offset, and its data `[event, ...args, offset]`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPacket {
    pub offset: String,
    pub data: Vec<Value>,
}

/// Rooms, broadcasts and the recovery history of one namespace.
///
/// Calls come from the server's worker threads and must not block for long. `broadcast`
/// writes to the [`LocalSocket`]s of its targets and must keep one order per namespace: a
/// socket sees broadcasts in the order of their offsets.
pub trait Adapter: Send + Sync {
    /// Adds a socket to rooms; nothing when it is not connected here (it already left).
    fn add_all(&self, socket: &str, rooms: &[Room]);
    /// Removes a socket from a room.
    fn del(&self, socket: &str, room: &str);
    /// Removes a socket from all its rooms (it disconnected).
    fn del_all(&self, socket: &str);
    /// The rooms of a socket, sorted.
    fn socket_rooms(&self, socket: &str) -> Vec<Room>;
    /// The sockets a broadcast with these options would reach, sorted.
    fn sockets(&self, opts: &BroadcastOptions) -> Vec<String>;
    /// Sends an EVENT with `data` (`[event, ...args]`) to the matching sockets; with recovery
    /// on, appends it to the history first and adds its offset as the last argument.
    fn broadcast(&self, data: Vec<Value>, opts: &BroadcastOptions);
    /// Appends a broadcast to the history; `None` when recovery is off.
    fn append(&self, data: Vec<Value>, opts: &BroadcastOptions) -> Option<HistoryPacket>;
    /// The offset of the last broadcast in the history (a position even when it is empty);
    /// `None` when recovery is off.
    fn current_offset(&self) -> Option<String>;
    /// The broadcasts after `offset` (or after the session's `resume_from` when the client sent
    /// none) that the session's rooms would have received, in order; `None` when recovery is
    /// off, the offset is not one of ours, or part of what followed it is no longer kept.
    fn replay_since(
        &self,
        session: &PersistedSession,
        offset: Option<&str>,
    ) -> Option<Vec<HistoryPacket>>;
    /// Keeps a closed socket's session for the recovery window.
    fn persist_session(&self, session: PersistedSession);
    /// Takes a session back if it is still within the window (once: a second take finds none).
    fn take_session(&self, pid: &str) -> Option<PersistedSession>;
    /// How many rooms have a member on this node, each socket's own-id room not counted.
    fn room_count(&self) -> usize;
}

/// Makes the adapter of each namespace.
pub trait AdapterFactory: Send + Sync {
    fn create(
        &self,
        namespace: &str,
        local: Weak<dyn LocalSockets>,
        recovery: Option<RecoveryConfig>,
    ) -> Arc<dyn Adapter>;
}

/// Where time comes from (injectable so that the window logic is tested without waiting).
pub trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

/// The real clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// Makes [`LocalAdapter`]s.
#[derive(Clone)]
pub struct LocalAdapterFactory {
    clock: Arc<dyn Clock>,
}

impl Default for LocalAdapterFactory {
    fn default() -> Self {
        LocalAdapterFactory {
            clock: Arc::new(SystemClock),
        }
    }
}

impl LocalAdapterFactory {
    pub fn with_clock(clock: Arc<dyn Clock>) -> Self {
        LocalAdapterFactory { clock }
    }
}

impl AdapterFactory for LocalAdapterFactory {
    fn create(
        &self,
        namespace: &str,
        local: Weak<dyn LocalSockets>,
        recovery: Option<RecoveryConfig>,
    ) -> Arc<dyn Adapter> {
        Arc::new(LocalAdapter::new(
            namespace,
            local,
            recovery,
            Arc::clone(&self.clock),
        ))
    }
}

/// The in-process adapter: rooms in maps, the history as a ring bounded by
/// [`RecoveryConfig::max_history`] and pruned past the window, sessions in a map.
pub struct LocalAdapter {
    namespace: String,
    local: Weak<dyn LocalSockets>,
    recovery: Option<RecoveryConfig>,
    clock: Arc<dyn Clock>,
    /// Random per adapter: an offset from another process (or an earlier run) is not ours.
    tag: String,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The members of each room, by socket id.
    rooms: HashMap<Room, HashMap<String, LocalSocketRef>>,
    /// Each socket here and its rooms. Removing it (`del_all`, when it disconnects) drops the
    /// adapter's last handles on it.
    sids: HashMap<String, Member>,
    history: VecDeque<Stored>,
    /// Sequence number of the last appended broadcast (0: none yet).
    last_seq: u64,
    sessions: HashMap<String, (PersistedSession, Instant)>,
    /// Sessions in the order they were persisted, for pruning.
    session_order: VecDeque<(Instant, String)>,
}

struct Member {
    socket: LocalSocketRef,
    rooms: HashSet<Room>,
}

struct Stored {
    seq: u64,
    packet: HistoryPacket,
    opts: BroadcastOptions,
    at: Instant,
}

impl LocalAdapter {
    pub fn new(
        namespace: &str,
        local: Weak<dyn LocalSockets>,
        recovery: Option<RecoveryConfig>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let tag: String = Sid::random().as_str().chars().take(8).collect();
        LocalAdapter {
            namespace: namespace.to_owned(),
            local,
            recovery,
            clock,
            tag,
            state: Mutex::new(State::default()),
        }
    }

    /// Writes a broadcast to the sockets here that match: the Redis adapter's delivery of what
    /// a node published, which every node gets.
    pub(crate) fn deliver(
        &self,
        opts: &BroadcastOptions,
        offset: Option<&str>,
        encode: impl FnOnce() -> Vec<Message>,
    ) {
        deliver_locked(&self.lock(), opts, offset, encode);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn offset(&self, seq: u64) -> String {
        format!("{}.{seq}", self.tag)
    }

    fn parse_offset(&self, offset: &str) -> Option<u64> {
        let (tag, seq) = offset.rsplit_once('.')?;
        if tag != self.tag || seq.is_empty() || !seq.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        seq.parse().ok()
    }

    fn append_locked(
        &self,
        state: &mut State,
        mut data: Vec<Value>,
        opts: &BroadcastOptions,
    ) -> Option<HistoryPacket> {
        let recovery = self.recovery.as_ref()?;
        let now = self.clock.now();
        prune_history(state, now, recovery);
        state.last_seq += 1;
        let offset = self.offset(state.last_seq);
        data.push(Value::String(offset.clone()));
        let packet = HistoryPacket { offset, data };
        state.history.push_back(Stored {
            seq: state.last_seq,
            packet: packet.clone(),
            opts: opts.clone(),
            at: now,
        });
        while state.history.len() > recovery.max_history {
            state.history.pop_front();
        }
        Some(packet)
    }
}

fn prune_history(state: &mut State, now: Instant, recovery: &RecoveryConfig) {
    while let Some(front) = state.history.front() {
        if now.saturating_duration_since(front.at) > recovery.max_disconnection_duration {
            state.history.pop_front();
        } else {
            break;
        }
    }
}

fn prune_sessions(state: &mut State, now: Instant, recovery: &RecoveryConfig) {
    while let Some((at, _)) = state.session_order.front() {
        if now.saturating_duration_since(*at) <= recovery.max_disconnection_duration {
            break;
        }
        if let Some((at, pid)) = state.session_order.pop_front() {
            // The pid may have been taken, or persisted again later; remove only this one.
            if state.sessions.get(&pid).is_some_and(|(_, t)| *t == at) {
                state.sessions.remove(&pid);
            }
        }
    }
}

/// The ids of the targets of a broadcast, sorted.
fn targets(state: &State, opts: &BroadcastOptions) -> Vec<String> {
    let mut found: Vec<String> = target_iter(state, opts)
        .map(|(id, _)| id.to_owned())
        .collect();
    found.sort_unstable();
    found
}

/// The targets of a broadcast (id and handle), each once, in no particular order: the hot path
/// of every emit, so the common case (one room, nobody excepted) walks the room's set as it is.
fn target_iter<'a>(
    state: &'a State,
    opts: &'a BroadcastOptions,
) -> Box<dyn Iterator<Item = (&'a str, &'a LocalSocketRef)> + 'a> {
    if opts.except.is_empty() && opts.rooms.len() == 1 {
        let members = opts
            .rooms
            .iter()
            .next()
            .and_then(|room| state.rooms.get(room));
        return Box::new(
            members
                .into_iter()
                .flatten()
                .map(|(id, s)| (id.as_str(), s)),
        );
    }
    if opts.rooms.is_empty() && opts.except.is_empty() {
        return Box::new(state.sids.iter().map(|(id, m)| (id.as_str(), &m.socket)));
    }
    let excluded: HashSet<&str> = opts
        .except
        .iter()
        .filter_map(|room| state.rooms.get(room))
        .flat_map(HashMap::keys)
        .map(String::as_str)
        .collect();
    let found: HashMap<&str, &LocalSocketRef> = if opts.rooms.is_empty() {
        state
            .sids
            .iter()
            .map(|(id, m)| (id.as_str(), &m.socket))
            .collect()
    } else {
        opts.rooms
            .iter()
            .filter_map(|room| state.rooms.get(room))
            .flatten()
            .map(|(id, s)| (id.as_str(), s))
            .collect()
    };
    Box::new(
        found
            .into_iter()
            .filter(move |(id, _)| !excluded.contains(id)),
    )
}

/// Writes a broadcast to its targets here, encoding it (`encode`) only if there is one.
fn deliver_locked(
    state: &State,
    opts: &BroadcastOptions,
    offset: Option<&str>,
    encode: impl FnOnce() -> Vec<Message>,
) {
    let mut targets = target_iter(state, opts).peekable();
    if targets.peek().is_none() {
        return;
    }
    let messages = encode();
    for (_, socket) in targets {
        socket.deliver(&messages, offset);
    }
}

/// The Engine.IO messages of a packet: its text form, then its binary attachments.
pub(crate) fn packet_messages(packet: &Packet) -> Vec<Message> {
    let (header, buffers) = packet.encode_with_binary();
    std::iter::once(Message::Text(header))
        .chain(buffers.into_iter().map(Message::Binary))
        .collect()
}

/// An EVENT packet with data `[event, ...args]`.
pub(crate) fn event_packet(namespace: &str, data: Vec<Value>, ack_id: Option<u64>) -> Packet {
    Packet {
        kind: PacketKind::Event,
        namespace: namespace.to_owned(),
        ack_id,
        data: Some(Value::Array(data)),
        attachments: 0,
    }
}

impl Adapter for LocalAdapter {
    fn add_all(&self, socket: &str, rooms: &[Room]) {
        // Looked up before locking: a broadcast holds this lock while it writes to sockets.
        let Some(handle) = self.local.upgrade().and_then(|local| local.get(socket)) else {
            return;
        };
        let mut state = self.lock();
        let state = &mut *state;
        let member = state
            .sids
            .entry(socket.to_owned())
            .or_insert_with(|| Member {
                socket: Arc::clone(&handle),
                rooms: HashSet::new(),
            });
        // A recovered socket takes over the id of one that is gone: its handle replaces that one.
        if !Arc::ptr_eq(&member.socket, &handle) {
            member.socket = Arc::clone(&handle);
            for room in &member.rooms {
                if let Some(members) = state.rooms.get_mut(room) {
                    members.insert(socket.to_owned(), Arc::clone(&handle));
                }
            }
        }
        for room in rooms {
            member.rooms.insert(room.clone());
            state
                .rooms
                .entry(room.clone())
                .or_default()
                .insert(socket.to_owned(), Arc::clone(&handle));
        }
    }

    fn del(&self, socket: &str, room: &str) {
        let mut state = self.lock();
        if let Some(members) = state.rooms.get_mut(room) {
            members.remove(socket);
            if members.is_empty() {
                state.rooms.remove(room);
            }
        }
        if let Some(member) = state.sids.get_mut(socket) {
            member.rooms.remove(room);
        }
    }

    fn del_all(&self, socket: &str) {
        let mut state = self.lock();
        let Some(member) = state.sids.remove(socket) else {
            return;
        };
        for room in member.rooms {
            if let Some(members) = state.rooms.get_mut(&room) {
                members.remove(socket);
                if members.is_empty() {
                    state.rooms.remove(&room);
                }
            }
        }
    }

    fn socket_rooms(&self, socket: &str) -> Vec<Room> {
        let state = self.lock();
        let mut rooms: Vec<Room> = state
            .sids
            .get(socket)
            .map(|member| member.rooms.iter().cloned().collect())
            .unwrap_or_default();
        rooms.sort();
        rooms
    }

    fn sockets(&self, opts: &BroadcastOptions) -> Vec<String> {
        targets(&self.lock(), opts)
    }

    fn broadcast(&self, data: Vec<Value>, opts: &BroadcastOptions) {
        // Appending and delivering under one lock keeps every socket's order that of the offsets.
        let mut state = self.lock();
        let (data, offset) = if self.recovery.is_some() {
            match self.append_locked(&mut state, data, opts) {
                Some(packet) => (packet.data, Some(packet.offset)),
                None => return,
            }
        } else {
            (data, None)
        };
        deliver_locked(&state, opts, offset.as_deref(), || {
            packet_messages(&event_packet(&self.namespace, data, None))
        });
    }

    fn append(&self, data: Vec<Value>, opts: &BroadcastOptions) -> Option<HistoryPacket> {
        let mut state = self.lock();
        self.append_locked(&mut state, data, opts)
    }

    fn current_offset(&self) -> Option<String> {
        self.recovery.as_ref()?;
        Some(self.offset(self.lock().last_seq))
    }

    fn replay_since(
        &self,
        session: &PersistedSession,
        offset: Option<&str>,
    ) -> Option<Vec<HistoryPacket>> {
        let recovery = self.recovery.as_ref()?;
        let position = offset.or(session.resume_from.as_deref())?;
        let seq = self.parse_offset(position)?;
        let mut state = self.lock();
        prune_history(&mut state, self.clock.now(), recovery);
        if seq > state.last_seq {
            return None;
        }
        // Everything after `seq` must still be here.
        let first_kept = state.history.front().map_or(state.last_seq + 1, |s| s.seq);
        if seq + 1 < first_kept {
            return None;
        }
        Some(
            state
                .history
                .iter()
                .filter(|stored| stored.seq > seq && stored.opts.matches(&session.rooms))
                .map(|stored| stored.packet.clone())
                .collect(),
        )
    }

    fn persist_session(&self, session: PersistedSession) {
        let Some(recovery) = self.recovery.as_ref() else {
            return;
        };
        let now = self.clock.now();
        let mut state = self.lock();
        prune_sessions(&mut state, now, recovery);
        state.session_order.push_back((now, session.pid.clone()));
        state.sessions.insert(session.pid.clone(), (session, now));
    }

    fn take_session(&self, pid: &str) -> Option<PersistedSession> {
        let recovery = self.recovery.as_ref()?;
        let now = self.clock.now();
        let mut state = self.lock();
        prune_sessions(&mut state, now, recovery);
        let (session, at) = state.sessions.remove(pid)?;
        (now.saturating_duration_since(at) <= recovery.max_disconnection_duration)
            .then_some(session)
    }

    fn room_count(&self) -> usize {
        let state = self.lock();
        state
            .rooms
            .keys()
            .filter(|room| !state.sids.contains_key(room.as_str()))
            .count()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    /// A clock moved by hand.
    struct ManualClock {
        start: Instant,
        elapsed: Mutex<Duration>,
    }

    impl ManualClock {
        fn new() -> Arc<Self> {
            Arc::new(ManualClock {
                start: Instant::now(),
                elapsed: Mutex::new(Duration::ZERO),
            })
        }

        fn advance(&self, by: Duration) {
            *self.elapsed.lock().unwrap() += by;
        }
    }

    impl Clock for ManualClock {
        fn now(&self) -> Instant {
            self.start + *self.elapsed.lock().unwrap()
        }
    }

    type Delivery = (String, String, Option<String>);

    /// Plays the namespace: every id is a connected socket (but those marked gone), whose
    /// deliveries it records as (socket name, text of the packet, offset). A socket's name is
    /// its id unless renamed, so that a test tells a handle from a later one with the same id.
    #[derive(Default)]
    struct Recorder {
        delivered: Arc<Mutex<Vec<Delivery>>>,
        gone: Mutex<HashSet<String>>,
        names: Mutex<HashMap<String, String>>,
    }

    impl Recorder {
        fn take(&self) -> Vec<Delivery> {
            std::mem::take(&mut *self.delivered.lock().unwrap())
        }
    }

    struct RecordedSocket {
        name: String,
        delivered: Arc<Mutex<Vec<Delivery>>>,
    }

    impl LocalSocket for RecordedSocket {
        fn deliver(&self, messages: &[Message], offset: Option<&str>) {
            let text = match &messages[0] {
                Message::Text(text) => text.clone(),
                Message::Binary(_) => panic!("a packet starts with text"),
            };
            self.delivered.lock().unwrap().push((
                self.name.clone(),
                text,
                offset.map(str::to_owned),
            ));
        }
    }

    impl LocalSockets for Recorder {
        fn get(&self, socket: &str) -> Option<LocalSocketRef> {
            if self.gone.lock().unwrap().contains(socket) {
                return None;
            }
            let name = self.names.lock().unwrap().get(socket).cloned();
            Some(Arc::new(RecordedSocket {
                name: name.unwrap_or_else(|| socket.to_owned()),
                delivered: Arc::clone(&self.delivered),
            }))
        }
    }

    fn window() -> RecoveryConfig {
        RecoveryConfig {
            max_disconnection_duration: Duration::from_secs(120),
            max_history: 5,
        }
    }

    fn adapter(
        recovery: Option<RecoveryConfig>,
    ) -> (LocalAdapter, Arc<Recorder>, Arc<ManualClock>) {
        let recorder = Arc::new(Recorder::default());
        let clock = ManualClock::new();
        let local: Weak<dyn LocalSockets> = Arc::downgrade(&recorder) as Weak<dyn LocalSockets>;
        let adapter = LocalAdapter::new("/", local, recovery, clock.clone());
        (adapter, recorder, clock)
    }

    fn rooms(names: &[&str]) -> Vec<Room> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn opts(to: &[&str], except: &[&str]) -> BroadcastOptions {
        BroadcastOptions {
            rooms: to.iter().map(|s| s.to_string()).collect(),
            except: except.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn room_membership() {
        let (adapter, _recorder, _) = adapter(None);
        adapter.add_all("a", &rooms(&["a", "news", "sport"]));
        adapter.add_all("b", &rooms(&["b", "news"]));
        adapter.add_all("c", &rooms(&["c"]));
        assert_eq!(adapter.socket_rooms("a"), rooms(&["a", "news", "sport"]));
        assert_eq!(adapter.sockets(&opts(&["news"], &[])), rooms(&["a", "b"]));
        assert_eq!(adapter.sockets(&opts(&[], &[])), rooms(&["a", "b", "c"]));
        assert_eq!(adapter.sockets(&opts(&["nobody"], &[])), rooms(&[]));

        adapter.del("a", "news");
        assert_eq!(adapter.socket_rooms("a"), rooms(&["a", "sport"]));
        assert_eq!(adapter.sockets(&opts(&["news"], &[])), rooms(&["b"]));
        adapter.del("a", "not-joined");
        adapter.del("ghost", "news");

        adapter.del_all("b");
        assert_eq!(adapter.socket_rooms("b"), rooms(&[]));
        assert_eq!(adapter.sockets(&opts(&["news"], &[])), rooms(&[]));
        assert!(!adapter.lock().rooms.contains_key("news"), "empty rooms go");
        assert_eq!(adapter.sockets(&opts(&[], &[])), rooms(&["a", "c"]));
    }

    #[test]
    fn broadcast_targets_rooms_minus_except() {
        let (adapter, recorder, _) = adapter(None);
        adapter.add_all("a", &rooms(&["a", "news", "vip"]));
        adapter.add_all("b", &rooms(&["b", "news"]));
        adapter.add_all("c", &rooms(&["c", "sport"]));
        #[rustfmt::skip]
        let cases: Vec<(BroadcastOptions, Vec<&str>)> = vec![
            (opts(&[], &[]), vec!["a", "b", "c"]),
            (opts(&["news"], &[]), vec!["a", "b"]),
            (opts(&["news", "sport"], &[]), vec!["a", "b", "c"]),
            (opts(&["news"], &["vip"]), vec!["b"]),
            (opts(&[], &["news"]), vec!["c"]),
            (opts(&[], &["a"]), vec!["b", "c"]),
            (opts(&["news", "vip"], &["b"]), vec!["a"]),
            (opts(&["c"], &[]), vec!["c"]),
            (opts(&["news"], &["news"]), vec![]),
        ];
        for (options, expected) in cases {
            adapter.broadcast(vec![json!("hi"), json!(1)], &options);
            let delivered = recorder.take();
            // Each target once; the order among sockets is not part of the contract.
            let mut sockets: Vec<&str> = delivered.iter().map(|(s, _, _)| s.as_str()).collect();
            sockets.sort_unstable();
            assert_eq!(sockets, expected, "options {options:?}");
            for (_, text, offset) in &delivered {
                assert_eq!(text, r#"2["hi",1]"#);
                assert_eq!(offset, &None, "no offset without recovery");
            }
        }
        assert_eq!(adapter.current_offset(), None);
        assert_eq!(adapter.append(vec![json!("x")], &opts(&[], &[])), None);
    }

    #[test]
    fn a_socket_no_longer_here_joins_nothing() {
        // A join that races the socket's disconnect must not leave a handle behind.
        let (adapter, recorder, _) = adapter(None);
        recorder.gone.lock().unwrap().insert("a".into());
        adapter.add_all("a", &rooms(&["a", "news"]));
        assert_eq!(adapter.socket_rooms("a"), rooms(&[]));
        assert_eq!(adapter.sockets(&opts(&["news"], &[])), rooms(&[]));
        adapter.broadcast(vec![json!("hi")], &opts(&[], &[]));
        assert_eq!(recorder.take(), vec![]);
    }

    #[test]
    fn a_socket_that_takes_over_an_id_gets_every_room_broadcast_of_it() {
        let (adapter, recorder, _) = adapter(None);
        adapter.add_all("a", &rooms(&["a", "news"]));
        // A new socket with the same id (a recovery) joins before the old one was removed.
        recorder
            .names
            .lock()
            .unwrap()
            .insert("a".into(), "a-recovered".into());
        adapter.add_all("a", &rooms(&["sport"]));
        for room in ["a", "news", "sport"] {
            adapter.broadcast(vec![json!("hi")], &opts(&[room], &[]));
            let names: Vec<String> = recorder.take().into_iter().map(|(s, _, _)| s).collect();
            assert_eq!(names, vec!["a-recovered".to_owned()], "room {room}");
        }
        assert_eq!(adapter.socket_rooms("a"), rooms(&["a", "news", "sport"]));
    }

    #[test]
    fn broadcasts_with_recovery_carry_their_offset() {
        let (adapter, recorder, _) = adapter(Some(window()));
        adapter.add_all("a", &rooms(&["a", "news"]));
        let start = adapter.current_offset().unwrap();
        adapter.broadcast(vec![json!("e"), json!({"n": 1})], &opts(&["news"], &[]));
        adapter.broadcast(vec![json!("e"), json!({"n": 2})], &opts(&["news"], &[]));
        let delivered = recorder.take();
        assert_eq!(delivered.len(), 2);
        let first = delivered[0].2.clone().unwrap();
        let second = delivered[1].2.clone().unwrap();
        assert_ne!(first, start);
        assert_ne!(first, second);
        assert_eq!(delivered[0].1, format!(r#"2["e",{{"n":1}},"{first}"]"#));
        assert_eq!(adapter.current_offset(), Some(second));
    }

    fn session(rooms_: &[&str], resume_from: Option<String>) -> PersistedSession {
        PersistedSession {
            pid: "pid-1".into(),
            sid: "a".into(),
            rooms: rooms(rooms_),
            resume_from,
        }
    }

    fn replayed_numbers(packets: &[HistoryPacket]) -> Vec<i64> {
        packets
            .iter()
            .map(|p| {
                assert_eq!(p.data.last(), Some(&json!(p.offset)), "offset last");
                p.data[1].as_i64().unwrap()
            })
            .collect()
    }

    #[test]
    fn replays_what_the_session_missed_in_order() {
        let (adapter, _recorder, _) = adapter(Some(RecoveryConfig {
            max_history: 100,
            ..window()
        }));
        let start = adapter.current_offset();
        let seen = adapter
            .append(vec![json!("e"), json!(0)], &opts(&["news"], &[]))
            .unwrap();
        for (n, to, except) in [
            (1, vec!["news"], vec![]),
            (2, vec!["sport"], vec![]),
            (3, vec![], vec![]),
            (4, vec!["news"], vec!["vip"]),
            (5, vec!["a"], vec![]),
            (6, vec![], vec!["a"]),
            (7, vec!["news"], vec![]),
        ] {
            adapter.append(vec![json!("e"), json!(n)], &opts(&to, &except));
        }
        let s = session(&["a", "news"], start);
        let missed = adapter.replay_since(&s, Some(&seen.offset)).unwrap();
        assert_eq!(replayed_numbers(&missed), vec![1, 3, 4, 5, 7]);
        // In a vip room too: 4 was not for it.
        let vip = session(&["a", "news", "vip"], None);
        let missed = adapter.replay_since(&vip, Some(&seen.offset)).unwrap();
        assert_eq!(replayed_numbers(&missed), vec![1, 3, 5, 7]);
        // No offset from the client: from where the history stood when the socket connected.
        let missed = adapter.replay_since(&s, None).unwrap();
        assert_eq!(replayed_numbers(&missed), vec![0, 1, 3, 4, 5, 7]);
        // Up to date: nothing missed, but recovered.
        let last = adapter.current_offset().unwrap();
        assert_eq!(adapter.replay_since(&s, Some(&last)), Some(vec![]));
        // Offsets that are not ours, or not yet given.
        let future = format!("{}.999", adapter.tag);
        for bad in ["", "x", "1", "abc.1", "nope", future.as_str()] {
            assert_eq!(adapter.replay_since(&s, Some(bad)), None, "offset {bad:?}");
        }
        assert_eq!(adapter.replay_since(&session(&["a"], None), None), None);
    }

    #[test]
    fn history_gone_means_no_recovery() {
        // The ring keeps 5 broadcasts.
        let (adapter, _, clock) = adapter(Some(window()));
        let s = session(&["a"], None);
        let offsets: Vec<String> = (0..8)
            .map(|n| {
                adapter
                    .append(vec![json!("e"), json!(n)], &opts(&[], &[]))
                    .unwrap()
                    .offset
            })
            .collect();
        // 0..=2 were dropped: after 0 or 1, something is missing; after 2, nothing is.
        assert_eq!(adapter.replay_since(&s, Some(&offsets[0])), None);
        assert_eq!(adapter.replay_since(&s, Some(&offsets[1])), None);
        let missed = adapter.replay_since(&s, Some(&offsets[2])).unwrap();
        assert_eq!(replayed_numbers(&missed), vec![3, 4, 5, 6, 7]);

        // Past the window, the history is pruned.
        clock.advance(Duration::from_secs(100));
        adapter.append(vec![json!("e"), json!(8)], &opts(&[], &[]));
        clock.advance(Duration::from_secs(21));
        let missed = adapter.replay_since(&s, Some(&offsets[7])).unwrap();
        assert_eq!(replayed_numbers(&missed), vec![8]);
        assert_eq!(adapter.replay_since(&s, Some(&offsets[6])), None);
        clock.advance(Duration::from_secs(100));
        // Everything expired: still recoverable from the last offset (nothing was missed).
        let last = adapter.current_offset().unwrap();
        assert_eq!(adapter.replay_since(&s, Some(&last)), Some(vec![]));
        assert_eq!(adapter.replay_since(&s, Some(&offsets[7])), None);
    }

    #[test]
    fn sessions_last_for_the_window_and_are_taken_once() {
        let (adapter, _, clock) = adapter(Some(window()));
        let s = session(&["a", "news"], adapter.current_offset());
        adapter.persist_session(s.clone());
        clock.advance(Duration::from_secs(120));
        assert_eq!(adapter.take_session("pid-1"), Some(s.clone()));
        assert_eq!(adapter.take_session("pid-1"), None, "taken once");
        assert_eq!(adapter.take_session("other"), None);

        adapter.persist_session(s.clone());
        clock.advance(Duration::from_millis(120_001));
        assert_eq!(adapter.take_session("pid-1"), None, "past the window");

        // Persisting again restarts the window; pruning an old entry keeps the new one.
        adapter.persist_session(s.clone());
        clock.advance(Duration::from_secs(100));
        adapter.persist_session(s.clone());
        clock.advance(Duration::from_secs(100));
        adapter.persist_session(PersistedSession {
            pid: "pid-2".into(),
            ..s.clone()
        });
        assert_eq!(adapter.take_session("pid-1"), Some(s.clone()));
        assert_eq!(adapter.lock().sessions.len(), 1);
    }

    #[test]
    fn sessions_are_not_kept_without_recovery() {
        let (adapter, _recorder, _) = adapter(None);
        adapter.persist_session(session(&["a"], None));
        assert_eq!(adapter.take_session("pid-1"), None);
        assert_eq!(
            adapter.replay_since(&session(&["a"], None), Some("x.1")),
            None
        );
    }

    #[test]
    fn options_match_rooms() {
        let r = rooms(&["a", "news"]);
        assert!(opts(&[], &[]).matches(&r));
        assert!(opts(&["news"], &[]).matches(&r));
        assert!(!opts(&["sport"], &[]).matches(&r));
        assert!(!opts(&["news"], &["a"]).matches(&r));
        assert!(!opts(&[], &["news"]).matches(&r));
        assert!(opts(&[], &["sport"]).matches(&r));
    }
}
