//! The Socket.IO state of one Engine.IO session: its packet decoder (with the binary
//! attachments being collected) and the sockets of the namespaces it is connected to.

use super::assembler::{AssembledPacket, BinaryPacketAssembler};
use super::packet::{Packet, ParseError};
use super::socket::Socket;
use crate::realtime::engineio::EngineSocket;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

pub(crate) struct Client {
    engine: EngineSocket,
    state: Mutex<ClientState>,
}

struct ClientState {
    decoder: BinaryPacketAssembler,
    /// Connected sockets by namespace name.
    sockets: HashMap<String, Socket>,
    /// The main namespace's, also in `sockets`: most packets are for it, and this spares each
    /// of them a hash and a look at a key elsewhere in memory.
    main: Option<Socket>,
    /// A namespace connection succeeded once (the connect timeout is over).
    connected_once: bool,
    /// The connect timeout's timer, stopped at the first connection so that it holds no
    /// memory for the rest of the session.
    connect_timer: Option<tokio::task::AbortHandle>,
    /// The session closed: no socket may be added.
    closed: bool,
}

/// A decoded packet (if complete) and the client's socket in its namespace (if connected).
pub(crate) type Decoded = Result<Option<(AssembledPacket, Option<Socket>)>, ParseError>;

impl ClientState {
    fn get(&self, namespace: &str) -> Option<&Socket> {
        if namespace == "/" {
            self.main.as_ref()
        } else {
            self.sockets.get(namespace)
        }
    }

    fn with_socket(&self, decoded: Result<Option<AssembledPacket>, ParseError>) -> Decoded {
        Ok(decoded?.map(|assembled| {
            let socket = self.get(&assembled.packet.namespace).cloned();
            (assembled, socket)
        }))
    }
}

impl Client {
    pub(crate) fn new(engine: EngineSocket, max_attachments: usize) -> Arc<Client> {
        Arc::new(Client {
            engine,
            state: Mutex::new(ClientState {
                decoder: BinaryPacketAssembler::new(max_attachments),
                sockets: HashMap::new(),
                main: None,
                connected_once: false,
                connect_timer: None,
                closed: false,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, ClientState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn engine(&self) -> &EngineSocket {
        &self.engine
    }

    /// Decodes a text message; a complete packet comes with the socket of its namespace, found
    /// under the same lock (a CONNECT's too: the server checks that it is not connected yet).
    pub(crate) fn push_text(&self, text: &str) -> Decoded {
        let mut state = self.lock();
        let decoded = state.decoder.push_text(text);
        state.with_socket(decoded)
    }

    pub(crate) fn push_binary(&self, data: Vec<u8>) -> Decoded {
        let mut state = self.lock();
        let decoded = state.decoder.push_binary(data);
        state.with_socket(decoded)
    }

    /// Sends a packet outside any socket (CONNECT_ERROR).
    pub(crate) fn send(&self, packet: &Packet) {
        self.engine
            .send_batch(super::adapter::packet_messages(packet));
    }

    pub(crate) fn socket(&self, namespace: &str) -> Option<Socket> {
        self.lock().get(namespace).cloned()
    }

    /// Adds a connected socket; false when the session closed meanwhile.
    pub(crate) fn attach(&self, namespace: &str, socket: Socket) -> bool {
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        state.connected_once = true;
        if let Some(timer) = state.connect_timer.take() {
            timer.abort();
        }
        if namespace == "/" {
            state.main = Some(socket.clone());
        }
        state.sockets.insert(namespace.to_owned(), socket);
        true
    }

    /// Keeps the connect timeout's timer, to stop it on the first connection.
    pub(crate) fn set_connect_timer(&self, timer: tokio::task::AbortHandle) {
        let mut state = self.lock();
        if state.connected_once {
            timer.abort();
        } else {
            state.connect_timer = Some(timer);
        }
    }

    /// Removes a socket that left its namespace.
    pub(crate) fn detach(&self, namespace: &str, socket: &Socket) {
        let mut state = self.lock();
        if state
            .sockets
            .get(namespace)
            .is_some_and(|s| s.same_as(socket))
        {
            state.sockets.remove(namespace);
            if namespace == "/" {
                state.main = None;
            }
        }
    }

    /// Marks the client closed and hands over its sockets (to be closed by the caller).
    pub(crate) fn take_all(&self) -> Vec<Socket> {
        let mut state = self.lock();
        state.closed = true;
        state.decoder.reset();
        state.main = None;
        state.sockets.drain().map(|(_, socket)| socket).collect()
    }

    pub(crate) fn connected_once(&self) -> bool {
        self.lock().connected_once
    }
}
