//! [`SocketIo`]: the Socket.IO v5 server, an [`EngineHandler`] over Engine.IO v4. It decodes
//! packets per session, connects sockets to namespaces (CONNECT, with the namespace's auth hook
//! and recovery), routes EVENT/ACK/DISCONNECT to them, and closes a session that breaks the
//! protocol or connects nowhere within the connect timeout.

use super::adapter::{AdapterFactory, LocalAdapterFactory, Room};
use super::assembler::AssembledPacket;
use super::broadcast::BroadcastOperator;
use super::client::{Client, Decoded};
use super::config::SocketIoConfig;
use super::handshake::Handshake;
use super::namespace::Namespace;
use super::packet::{Packet, PacketKind, ParseError};
use super::socket::{DisconnectReason, EmitError, Socket};
use crate::realtime::engineio::{
    self, Attached, EngineConfig, EngineHandler, EngineIo, EngineSocket, Sid,
};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, Weak};

/// A Socket.IO server. Cheap to clone; mount it with [`SocketIo::engine`] and
/// [`engineio::configure`] (usually at `/socket.io/`).
#[derive(Clone)]
pub struct SocketIo {
    inner: Arc<ServerInner>,
}

struct ServerInner {
    config: Arc<SocketIoConfig>,
    adapters: Arc<dyn AdapterFactory>,
    namespaces: RwLock<HashMap<String, Namespace>>,
    clients: Mutex<HashMap<Sid, Arc<Client>>>,
}

impl SocketIo {
    /// A server with the in-process adapter and the main namespace `/`.
    pub fn new(config: SocketIoConfig) -> SocketIo {
        SocketIo::with_adapter(config, Arc::new(LocalAdapterFactory::default()))
    }

    /// A server whose namespaces get their adapter from `adapters`.
    pub fn with_adapter(config: SocketIoConfig, adapters: Arc<dyn AdapterFactory>) -> SocketIo {
        let io = SocketIo {
            inner: Arc::new(ServerInner {
                config: Arc::new(config),
                adapters,
                namespaces: RwLock::new(HashMap::new()),
                clients: Mutex::new(HashMap::new()),
            }),
        };
        io.of("/");
        io
    }

    /// An Engine.IO server carrying this one, for [`engineio::configure`].
    pub fn engine(&self, config: EngineConfig) -> Arc<EngineIo<SocketIo>> {
        Arc::new(EngineIo::new(self.clone(), config))
    }

    pub fn config(&self) -> &SocketIoConfig {
        &self.inner.config
    }

    /// The namespace with this name, created if needed (`"store"` is `/store`).
    pub fn of(&self, name: &str) -> Namespace {
        let name = if name.starts_with('/') {
            name.to_owned()
        } else {
            format!("/{name}")
        };
        if let Some(ns) = self.namespace(&name) {
            return ns;
        }
        let mut namespaces = self
            .inner
            .namespaces
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        namespaces
            .entry(name.clone())
            .or_insert_with(|| {
                Namespace::new(
                    &name,
                    Arc::clone(&self.inner.config),
                    self.inner.adapters.as_ref(),
                )
            })
            .clone()
    }

    /// Every namespace created so far.
    pub fn namespaces(&self) -> Vec<Namespace> {
        self.inner
            .namespaces
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }

    /// The namespace with this name, if it was created.
    pub fn namespace(&self, name: &str) -> Option<Namespace> {
        self.inner
            .namespaces
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// A broadcast to a room of the main namespace.
    pub fn to(&self, room: impl Into<Room>) -> BroadcastOperator {
        self.of("/").to(room)
    }

    /// A broadcast to the main namespace, leaving out a room.
    pub fn except(&self, room: impl Into<Room>) -> BroadcastOperator {
        self.of("/").except(room)
    }

    /// Emits to every socket of the main namespace.
    pub fn emit(&self, event: &str, args: Vec<Value>) -> Result<(), EmitError> {
        self.of("/").emit(event, args)
    }

    /// How many Engine.IO sessions this server sees.
    pub fn client_count(&self) -> usize {
        self.clients().len()
    }

    fn clients(&self) -> MutexGuard<'_, HashMap<Sid, Arc<Client>>> {
        self.inner
            .clients
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The session's client: from what `on_connect` attached to it, else from the table. Once
    /// the session is gone from the table its client is dropped, and the weak handle fails.
    fn attached_client(&self, attached: Option<&Attached>, sid: &Sid) -> Option<Arc<Client>> {
        match attached.and_then(|a| a.downcast_ref::<Weak<Client>>()) {
            Some(client) => client.upgrade(),
            None => self.clients().get(sid).cloned(),
        }
    }

    /// Closes a session after a protocol error: its sockets first (not recoverable), then
    /// the transport.
    fn reject(&self, client: &Client, error: ParseError) {
        tracing::debug!(sid = %client.engine().sid(), %error, "socket.io protocol error, closing");
        for socket in client.take_all() {
            socket.close(DisconnectReason::ParseError);
        }
        client.engine().close();
    }

    fn handle(&self, client: &Arc<Client>, decoded: Decoded) {
        match decoded {
            Ok(Some((assembled, socket))) => self.dispatch(client, assembled, socket),
            Ok(None) => {}
            Err(error) => self.reject(client, error),
        }
    }

    /// `socket`: the client's socket in the packet's namespace, if connected there.
    fn dispatch(&self, client: &Arc<Client>, assembled: AssembledPacket, socket: Option<Socket>) {
        let packet = &assembled.packet;
        if packet.kind == PacketKind::Connect {
            if socket.is_some() {
                tracing::debug!(sid = %client.engine().sid(), namespace = %packet.namespace, "already connected");
                return;
            }
            return self.connect(client, &packet.namespace, packet.data.clone());
        }
        let Some(socket) = socket else {
            // As the reference server: a packet for a namespace the client is not in.
            return self.reject(client, ParseError::InvalidPayload);
        };
        let (kind, ack_id) = (packet.kind, packet.ack_id);
        match kind {
            PacketKind::Disconnect => socket.close(DisconnectReason::ClientNamespaceDisconnect),
            PacketKind::Event | PacketKind::BinaryEvent => match assembled.into_data() {
                Ok(Some(Value::Array(mut args))) if !args.is_empty() => {
                    // The name as a JavaScript emitter keys it (a number in decimal).
                    let event = match args.remove(0) {
                        Value::String(name) => name,
                        Value::Number(n) => n.to_string(),
                        _ => return self.reject(client, ParseError::InvalidPayload),
                    };
                    socket.handle_event(&event, args, ack_id);
                }
                Ok(_) => self.reject(client, ParseError::InvalidPayload),
                Err(error) => self.reject(client, error),
            },
            PacketKind::Ack | PacketKind::BinaryAck => {
                let Some(id) = ack_id else {
                    return self.reject(client, ParseError::MissingAckId);
                };
                match assembled.into_data() {
                    Ok(Some(Value::Array(args))) => socket.handle_ack(id, args),
                    Ok(_) => self.reject(client, ParseError::InvalidPayload),
                    Err(error) => self.reject(client, error),
                }
            }
            // Only a server sends CONNECT_ERROR; the reference server ignores one from a client.
            PacketKind::ConnectError | PacketKind::Connect => {}
        }
    }

    fn connect(&self, client: &Arc<Client>, name: &str, auth: Option<Value>) {
        let Some(ns) = self.namespace(name) else {
            client.send(&Packet::connect_error(name, "Invalid namespace"));
            return;
        };
        let mut handshake = Handshake::new(auth, client.engine().request());
        if let Err(reason) = ns.authorize(&handshake) {
            client.send(&Packet::connect_error(name, &reason));
            return;
        }
        let Some(hook) = ns.async_auth() else {
            return self.attach(client, &ns, handshake);
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            client.send(&Packet::connect_error(name, "Server error"));
            return;
        };
        let (io, client, name) = (self.clone(), Arc::clone(client), name.to_owned());
        runtime.spawn(async move {
            match hook(handshake.clone()).await {
                Ok(claims) => {
                    handshake.claims = claims;
                    // Asked twice while the first was being checked: the first wins.
                    if client.socket(&name).is_none() {
                        io.attach(&client, &ns, handshake);
                    }
                }
                Err(reason) => client.send(&Packet::connect_error(&name, &reason)),
            }
        });
    }

    fn attach(&self, client: &Arc<Client>, ns: &Namespace, handshake: Handshake) {
        let name = ns.name().to_owned();
        let name = name.as_str();
        let socket = ns.connect(client, handshake);
        if !client.attach(name, socket.clone()) {
            socket.close(DisconnectReason::Transport(
                engineio::DisconnectReason::TransportClose,
            ));
            return;
        }
        ns.fire_connection(socket);
    }

    fn arm_connect_timeout(&self, client: &Arc<Client>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let weak = Arc::downgrade(client);
        let timeout = self.inner.config.connect_timeout;
        let timer = runtime.spawn(async move {
            tokio::time::sleep(timeout).await;
            if let Some(client) = weak.upgrade() {
                if !client.connected_once() {
                    tracing::debug!(sid = %client.engine().sid(), "no namespace connection within the connect timeout");
                    client.engine().close();
                }
            }
        });
        client.set_connect_timer(timer.abort_handle());
    }
}

impl EngineHandler for SocketIo {
    fn on_connect(&self, socket: EngineSocket) {
        let client = Client::new(socket, self.inner.config.max_attachments);
        // Weakly: the client holds the session's handle.
        let attached: Attached = Arc::new(Arc::downgrade(&client));
        client.engine().attach(attached);
        self.clients()
            .insert(client.engine().sid().clone(), Arc::clone(&client));
        self.arm_connect_timeout(&client);
    }

    fn on_message(&self, sid: &Sid, text: String) {
        self.on_message_attached(None, sid, text);
    }

    fn on_binary(&self, sid: &Sid, data: Vec<u8>) {
        self.on_binary_attached(None, sid, data);
    }

    fn on_message_attached(&self, attached: Option<&Attached>, sid: &Sid, text: String) {
        if let Some(client) = self.attached_client(attached, sid) {
            let decoded = client.push_text(&text);
            self.handle(&client, decoded);
        }
    }

    fn on_binary_attached(&self, attached: Option<&Attached>, sid: &Sid, data: Vec<u8>) {
        if let Some(client) = self.attached_client(attached, sid) {
            let decoded = client.push_binary(data);
            self.handle(&client, decoded);
        }
    }

    fn on_disconnect(&self, sid: &Sid, reason: engineio::DisconnectReason) {
        let client = self.clients().remove(sid);
        if let Some(client) = client {
            for socket in client.take_all() {
                socket.close(DisconnectReason::Transport(reason));
            }
        }
    }
}

impl fmt::Debug for SocketIo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocketIo")
            .field("config", &self.inner.config)
            .field("clients", &self.client_count())
            .finish()
    }
}
