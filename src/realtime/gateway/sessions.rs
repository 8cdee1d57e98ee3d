//! A socket does not outlive its session (issue 34). A socket that connects with a token (a
//! customer's on `/`, a staff member's on `/store`) belongs to that session:
//!
//! - **CONNECT** (a recovery too): the token must resolve, else CONNECT_ERROR "Not
//!   authorized", so a dead session's rooms and missed events never come back.
//! - **Its rooms joined**, the session is asked of the store once more (not of this node's
//!   memory of it). A session that ends while the socket connects is caught either here or by
//!   the sweep below, whichever runs second: the sweep sees the socket in its rooms, or this
//!   check reads the store after the session was deleted from it.
//! - **Each room it asks for later** (`store:watch`, `order:watch`) checks the session first
//!   (this node's memory: 5 s behind at most, as for HTTP): ended, the join is refused with
//!   407 and the socket disconnected.
//! - **When sessions end**, every node hears it on the sessions channel
//!   (`Event::SessionsEnded`, `Event::StaffSessionsEnded`: Redis between nodes, in process on
//!   one) and asks the store about each of its sockets of that user or staff member; those
//!   whose session is gone are disconnected (the client gets DISCONNECT, `io server
//!   disconnect`, and does not reconnect by itself). Asking the store, rather than matching
//!   the event, keeps a session that began since (a login after a password reset) connected.

use super::routing::{store_room, user_room, CUSTOMERS, TABLETS};
use crate::realtime::socketio::{AckSender, Namespace, Socket, SocketIo};
use actors::bus::{Bus, Event};
use actors::domain::lang::Lang;
use serde_json::{json, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

pub type Lookup<T> = Pin<Box<dyn Future<Output = Result<Option<T>, String>> + Send>>;

/// What a staff token resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffClaims {
    pub staff_id: i64,
    pub store_code: String,
}

/// How the gateway learns whether a socket's session is alive. Ok(None): ended, unknown or
/// expired; Err: the lookup failed (the socket is given the benefit of the doubt).
pub trait SessionCheck: Send + Sync {
    /// The user of a customer token; `fresh`: from the store, not this node's memory.
    fn customer(&self, token: String, fresh: bool) -> Lookup<i64>;
    /// The user of a customer token if this node's memory holds a fresh answer, at once.
    fn customer_held(&self, token: &str) -> Option<i64>;
    /// The staff session of a staff token (always from the database).
    fn staff(&self, token: String) -> Lookup<StaffClaims>;
}

/// The handshake claims of a socket that connected with a token.
pub fn customer_claims(user_id: i64) -> Value {
    json!({ "userId": user_id })
}

pub fn staff_claims(staff: &StaffClaims) -> Value {
    json!({ "storeCode": staff.store_code, "staffId": staff.staff_id })
}

/// The token of a socket that connected with one (None: a visitor).
pub fn session_token(socket: &Socket) -> Option<String> {
    let claims = &socket.handshake().claims;
    if claims.get("userId").is_some() || claims.get("staffId").is_some() {
        socket.handshake().auth_str("token").map(String::from)
    } else {
        None
    }
}

/// Asks the store whether the socket's session is still alive; disconnects it if not.
async fn recheck(socket: Socket, check: Arc<dyn SessionCheck>) {
    let Some(token) = session_token(&socket) else {
        return;
    };
    let alive = if socket.namespace() == TABLETS {
        check.staff(token).await.map(|s| s.is_some())
    } else {
        check.customer(token, true).await.map(|s| s.is_some())
    };
    match alive {
        Ok(true) => {}
        Ok(false) => {
            tracing::debug!(socket = %socket.id(), namespace = socket.namespace(), "session ended: socket disconnected");
            socket.disconnect();
        }
        Err(error) => {
            tracing::warn!(%error, "a socket's session could not be checked; it stays");
        }
    }
}

/// After a socket joined its rooms: the session once more, from the store (see the module
/// documentation).
pub fn recheck_joined(socket: &Socket, check: &Arc<dyn SessionCheck>) {
    if session_token(socket).is_none() {
        return;
    }
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => {
            runtime.spawn(recheck(socket.clone(), check.clone()));
        }
        Err(_) => tracing::warn!("no runtime to check a socket's session on"),
    }
}

/// Before a join a socket asked for: `join` runs when its session is alive (or it has none);
/// otherwise the ack says 407 and the socket is disconnected.
pub fn with_live_session(
    socket: &Socket,
    check: &Arc<dyn SessionCheck>,
    ack: Option<AckSender>,
    lang: Lang,
    join: impl FnOnce(&Socket, Option<AckSender>) + Send + 'static,
) {
    let Some(token) = session_token(socket) else {
        return join(socket, ack);
    };
    // Nearly always in memory (the app used the token a moment ago): joined in order, at once.
    if check.customer_held(&token).is_some() {
        return join(socket, ack);
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let (socket, check) = (socket.clone(), check.clone());
    runtime.spawn(async move {
        match check.customer(token, false).await {
            Ok(Some(_)) => join(&socket, ack),
            Ok(None) => refuse(&socket, ack, lang),
            Err(error) => {
                tracing::warn!(%error, "a socket's session could not be checked");
                if let Some(ack) = ack {
                    ack.send(vec![
                        json!({"errCode": "500", "errMsg": server_error(lang)}),
                    ]);
                }
            }
        }
    });
}

fn refuse(socket: &Socket, ack: Option<AckSender>, lang: Lang) {
    use crate::http::edge::error::ApiError;
    if let Some(ack) = ack {
        let msg = ApiError::SessionExpired.message();
        ack.send(vec![json!({"errCode": "407", "errMsg": msg.pick(lang)})]);
    }
    socket.disconnect();
}

fn server_error(lang: Lang) -> String {
    use crate::http::edge::error::ApiError;
    ApiError::internal(anyhow::anyhow!("session lookup"))
        .message()
        .pick(lang)
        .to_string()
}

/// Until the channel closes: the sockets of ended sessions are disconnected on this node.
pub async fn sweep(io: SocketIo, ends: Arc<dyn Bus>, check: Arc<dyn SessionCheck>) {
    let mut events = ends.subscribe();
    loop {
        let sockets = match events.recv().await {
            Ok(Event::SessionsEnded { user_id }) => in_room(&io, CUSTOMERS, &user_room(user_id)),
            Ok(Event::StaffSessionsEnded {
                staff_id,
                store_code,
            }) => in_room(&io, TABLETS, &store_room(&store_code))
                .into_iter()
                .filter(|s| s.handshake().claims.get("staffId") == Some(&json!(staff_id)))
                .collect(),
            Ok(_) => continue,
            // Which sessions ended is lost with the messages: ask about every socket.
            Err(RecvError::Lagged(_)) => io
                .namespaces()
                .iter()
                .flat_map(Namespace::sockets)
                .collect(),
            Err(RecvError::Closed) => return,
        };
        let check = check.clone();
        tokio::spawn(async move {
            for socket in sockets {
                recheck(socket, check.clone()).await;
            }
        });
    }
}

fn in_room(io: &SocketIo, namespace: &str, room: &str) -> Vec<Socket> {
    io.namespace(namespace)
        .map(|ns| ns.to(room.to_string()).sockets())
        .unwrap_or_default()
}
