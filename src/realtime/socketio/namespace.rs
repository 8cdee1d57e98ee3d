//! [`Namespace`]: a named channel of the server (`/`, `/store` …) with its auth hook, its
//! connection callback, its connected sockets and its adapter (rooms, broadcasts, recovery).

use super::adapter::{Adapter, AdapterFactory, LocalSocketRef, LocalSockets, Room};
use super::broadcast::BroadcastOperator;
use super::client::Client;
use super::config::SocketIoConfig;
use super::handshake::Handshake;
use super::socket::{AckSender, EmitError, EventHandler, Socket, SocketParts};
use crate::realtime::engineio::Sid;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard, Weak};

type AuthFn = Arc<dyn Fn(&Handshake) -> Result<(), String> + Send + Sync>;
/// An auth hook that needs I/O (a token lookup): answers claims for the handshake, or the
/// reason it refuses.
pub type AsyncAuthFn = Arc<
    dyn Fn(Handshake) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send>> + Send + Sync,
>;
type ConnectionFn = Arc<dyn Fn(Socket) + Send + Sync>;

/// A namespace of the server. Cheap to clone.
#[derive(Clone)]
pub struct Namespace {
    pub(crate) inner: Arc<NamespaceInner>,
}

pub(crate) struct NamespaceInner {
    pub(crate) name: String,
    pub(crate) config: Arc<SocketIoConfig>,
    pub(crate) adapter: Arc<dyn Adapter>,
    sockets: RwLock<HashMap<String, Socket>>,
    auth: RwLock<Option<AuthFn>>,
    auth_async: RwLock<Option<AsyncAuthFn>>,
    on_connection: RwLock<Option<ConnectionFn>>,
    /// The handlers every socket of the namespace answers with ([`Namespace::on`]): one table
    /// for all of them, so that it stays in the cache where ten thousand per-socket copies
    /// would each be a miss (and a few hundred bytes) per socket.
    events: RwLock<HashMap<String, EventHandler>>,
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

impl LocalSockets for NamespaceInner {
    fn get(&self, socket: &str) -> Option<LocalSocketRef> {
        read(&self.sockets).get(socket).map(Socket::local_ref)
    }
}

impl NamespaceInner {
    pub(crate) fn event_handler(&self, event: &str) -> Option<EventHandler> {
        read(&self.events).get(event).cloned()
    }

    /// Forgets a socket (only this one: a recovered socket may already use the same id).
    pub(crate) fn unregister(&self, socket: &Socket) {
        let mut sockets = write(&self.sockets);
        if sockets.get(socket.id()).is_some_and(|s| s.same_as(socket)) {
            sockets.remove(socket.id());
        }
    }
}

impl Namespace {
    pub(crate) fn new(
        name: &str,
        config: Arc<SocketIoConfig>,
        adapters: &dyn AdapterFactory,
    ) -> Self {
        let inner = Arc::new_cyclic(|weak: &Weak<NamespaceInner>| {
            let local: Weak<dyn LocalSockets> = weak.clone();
            NamespaceInner {
                name: name.to_owned(),
                adapter: adapters.create(name, local, config.recovery.clone()),
                config,
                sockets: RwLock::new(HashMap::new()),
                auth: RwLock::new(None),
                auth_async: RwLock::new(None),
                on_connection: RwLock::new(None),
                events: RwLock::new(HashMap::new()),
            }
        });
        Namespace { inner }
    }

    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// Sets the auth hook: it sees each CONNECT's handshake (auth payload, headers …) and
    /// refuses with a reason, sent to the client as CONNECT_ERROR `{"message": reason}`.
    /// It also runs when a client recovers its session.
    pub fn auth<F>(&self, hook: F) -> &Self
    where
        F: Fn(&Handshake) -> Result<(), String> + Send + Sync + 'static,
    {
        *write(&self.inner.auth) = Some(Arc::new(hook));
        self
    }

    /// Sets an asynchronous auth hook, run after the synchronous one: the CONNECT is answered
    /// when it completes, with CONNECT_ERROR `{"message": reason}` when it refuses; what it
    /// answers is kept as the handshake's `claims`.
    pub fn auth_async<F, Fut>(&self, hook: F) -> &Self
    where
        F: Fn(Handshake) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, String>> + Send + 'static,
    {
        *write(&self.inner.auth_async) = Some(Arc::new(move |h| Box::pin(hook(h))));
        self
    }

    /// Sets the handler of an event for every socket of the namespace (replacing any previous
    /// one), as [`Socket::on`] does for one socket; a socket's own handler of the same event
    /// comes first. For the handlers that need nothing of the socket but what they are given.
    pub fn on<F>(&self, event: &str, handler: F) -> &Self
    where
        F: Fn(&Socket, Vec<Value>, Option<AckSender>) + Send + Sync + 'static,
    {
        write(&self.inner.events).insert(event.to_owned(), Arc::new(handler));
        self
    }

    /// Sets the callback run for each socket that connected (after the CONNECT answer and,
    /// on recovery, the missed broadcasts were written). It runs on a server worker thread:
    /// register the socket's handlers there and keep it short.
    pub fn on_connection<F>(&self, callback: F) -> &Self
    where
        F: Fn(Socket) + Send + Sync + 'static,
    {
        *write(&self.inner.on_connection) = Some(Arc::new(callback));
        self
    }

    /// A broadcast to a room of this namespace.
    pub fn to(&self, room: impl Into<Room>) -> BroadcastOperator {
        BroadcastOperator::new(Arc::clone(&self.inner)).to(room)
    }

    /// A broadcast to every socket of this namespace but those in a room.
    pub fn except(&self, room: impl Into<Room>) -> BroadcastOperator {
        BroadcastOperator::new(Arc::clone(&self.inner)).except(room)
    }

    /// Emits to every socket of this namespace.
    pub fn emit(&self, event: &str, args: Vec<Value>) -> Result<(), EmitError> {
        BroadcastOperator::new(Arc::clone(&self.inner)).emit(event, args)
    }

    /// The sockets connected to this namespace on this server.
    /// How many sockets are connected to this namespace on this node.
    pub fn socket_count(&self) -> usize {
        read(&self.inner.sockets).len()
    }

    pub fn sockets(&self) -> Vec<Socket> {
        read(&self.inner.sockets).values().cloned().collect()
    }

    pub fn socket(&self, id: &str) -> Option<Socket> {
        read(&self.inner.sockets).get(id).cloned()
    }

    pub fn adapter(&self) -> &Arc<dyn Adapter> {
        &self.inner.adapter
    }

    // ----- crate side -----

    pub(crate) fn authorize(&self, handshake: &Handshake) -> Result<(), String> {
        let hook = read(&self.inner.auth).clone();
        match hook {
            Some(hook) => hook(handshake),
            None => Ok(()),
        }
    }

    pub(crate) fn async_auth(&self) -> Option<AsyncAuthFn> {
        read(&self.inner.auth_async).clone()
    }

    pub(crate) fn fire_connection(&self, socket: Socket) {
        let callback = read(&self.inner.on_connection).clone();
        if let Some(callback) = callback {
            callback(socket);
        }
    }

    fn register(&self, socket: &Socket) {
        write(&self.inner.sockets).insert(socket.id().to_owned(), socket.clone());
    }

    fn parts(&self, client: &Arc<Client>, id: String, handshake: Handshake) -> SocketParts {
        SocketParts {
            id,
            pid: None,
            recovered: false,
            resume_from: None,
            ns: Arc::clone(&self.inner),
            client: Arc::downgrade(client),
            engine: client.engine().clone(),
            handshake,
        }
    }

    /// Connects a client that passed the auth hook: recovers its previous socket when it asks
    /// to and can, else makes a fresh one. The CONNECT answer is written before this returns.
    pub(crate) fn connect(&self, client: &Arc<Client>, handshake: Handshake) -> Socket {
        if let Some(socket) = self.recover(client, &handshake) {
            return socket;
        }
        let adapter = &self.inner.adapter;
        let recovery = self.inner.config.recovery.is_some();
        let socket = Socket::new(SocketParts {
            pid: recovery.then(|| Sid::random().to_string()),
            // Read before joining: a broadcast in between may be replayed, never lost.
            resume_from: adapter.current_offset(),
            ..self.parts(client, Sid::random().to_string(), handshake)
        });
        self.register(&socket);
        adapter.add_all(socket.id(), &[socket.id().to_owned()]);
        socket.finish_connect(Vec::new());
        socket
    }

    /// Takes over the persisted session named by the auth payload's `pid`, replaying what was
    /// missed after its `offset`; `None` when there is nothing to recover.
    fn recover(&self, client: &Arc<Client>, handshake: &Handshake) -> Option<Socket> {
        self.inner.config.recovery.as_ref()?;
        let pid = handshake.auth_str("pid")?;
        let offset = handshake.auth_str("offset").map(str::to_owned);
        let adapter = &self.inner.adapter;
        let session = adapter.take_session(pid)?;
        if self.socket(&session.sid).is_some() {
            return None;
        }
        let socket = Socket::new(SocketParts {
            pid: Some(session.pid.clone()),
            recovered: true,
            resume_from: offset.clone().or_else(|| session.resume_from.clone()),
            ..self.parts(client, session.sid.clone(), handshake.clone())
        });
        // Join first, then read the history: a broadcast in between is both replayed and held
        // by the socket, and the held copy is dropped.
        self.register(&socket);
        adapter.add_all(&session.sid, &session.rooms);
        let replayed = adapter.replay_since(&session, offset.as_deref());
        let outcome = if replayed.is_some() {
            "recovered"
        } else {
            "missed"
        };
        metrics::counter!("socketio_recoveries_total", "namespace" => self.inner.name.clone(), "outcome" => outcome)
            .increment(1);
        match replayed {
            Some(missed) => {
                tracing::debug!(socket = %session.sid, missed = missed.len(), "socket.io session recovered");
                socket.finish_connect(missed);
                Some(socket)
            }
            None => {
                adapter.del_all(&session.sid);
                self.inner.unregister(&socket);
                socket.discard();
                None
            }
        }
    }
}

impl fmt::Debug for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Namespace")
            .field("name", &self.inner.name)
            .finish()
    }
}
