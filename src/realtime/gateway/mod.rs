//! The product's use of the Socket.IO server: the customer namespace's handlers, and the pump
//! that turns bus events into room emits on this node.
//!
//! Customers connect to `/` (visitors too). Client events:
//! - `time:sync` (ack): `{clientTime}` → `{clientTime, serverTime}` for the app's clock.
//! - `store:watch` (ack) `{storeCode}`: follow one store's `store:update` (menu, sold out);
//!   watching another store leaves the previous one. `store:unwatch` leaves it.
//!
//! The handshake `auth` may carry `token` (a logged-in user: joins `user:{id}` for payment
//! results and cart changes; a token whose session ended is refused with CONNECT_ERROR "Not
//! authorized") and `cartToken` (a visitor's cart). `order:watch` (ack)
//! `{orderNo, viewToken?}` follows one order (see `on_order_watch`).
//!
//! Tablets connect to `/store` with `auth: {token}`, a staff token: it is checked before the
//! CONNECT is answered (CONNECT_ERROR "Not authorized" otherwise), and the socket joins its
//! store's room, where the store's order and status events arrive. Each tablet that comes or
//! goes is counted (`PresenceFeed`), and the store's tablets hear `store:presence`.
//!
//! A socket with a token lives as long as its session: see [`sessions`].

pub mod routing;
pub mod sessions;

use super::socketio::{Handshake, Namespace, Socket, SocketIo};
use actors::bus::Bus;
use actors::clock::Clock;
use actors::domain::lang::Lang;
use routing::{cart_room, deliveries, order_room, store_room, user_room, CUSTOMERS, TABLETS};
use serde_json::{json, Value};
use sessions::{recheck_joined, with_live_session, SessionCheck};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::OnceLock;
use tokio::sync::broadcast::error::RecvError;

/// What `order:watch` needs from the app, set once the app's state exists.
pub trait OrderWatch: Send + Sync {
    /// Whether the holder of `user_token` (a session) or `view_token` may follow the order.
    fn allowed(
        &self,
        order_no: String,
        user_token: Option<String>,
        view_token: Option<String>,
    ) -> Pin<Box<dyn Future<Output = bool> + Send>>;
    /// The order's detail, as GET /orders/{orderNo} answers it.
    fn snapshot(
        &self,
        order_no: String,
        lang: Lang,
    ) -> Pin<Box<dyn Future<Output = Option<Value>> + Send>>;
}

pub type OrderWatchSlot = Arc<OnceLock<Arc<dyn OrderWatch>>>;

/// Registers the customer and tablet namespaces' handlers on `io`.
pub fn install(
    io: &SocketIo,
    clock: Clock,
    check: Arc<dyn SessionCheck>,
    watch: OrderWatchSlot,
    presence: PresenceFeed,
) {
    // The events are the namespace's, one handler for all its sockets; what is the socket's
    // own (its rooms, its presence) is set up when it connects.
    let customers = io.of(CUSTOMERS);
    on_time_sync(&customers, clock.clone());
    on_store_watch(&customers, check.clone());
    on_order_watch(&customers, watch, check.clone());
    let (hook, joined) = (check.clone(), check.clone());
    customers
        .auth_async(move |handshake| {
            let token = token_of(&handshake);
            let check = hook.clone();
            async move {
                // Visitors connect without a token.
                let Some(token) = token else {
                    return Ok(Value::Null);
                };
                authorized(check.customer(token, false).await).map(sessions::customer_claims)
            }
        })
        .on_connection(move |socket| on_customer(&socket, &joined));
    let tablets = io.of(TABLETS);
    on_time_sync(&tablets, clock.clone());
    let hook = check.clone();
    tablets
        .auth_async(move |handshake| {
            let token = token_of(&handshake);
            let check = hook.clone();
            async move {
                let Some(token) = token else {
                    return Err("Not authorized".to_string());
                };
                authorized(check.staff(token).await).map(|s| sessions::staff_claims(&s))
            }
        })
        .on_connection(move |socket| {
            on_tablet(&socket, clock.clone(), presence.clone());
            recheck_joined(&socket, &check);
        });
}

fn token_of(handshake: &Handshake) -> Option<String> {
    handshake
        .auth_str("token")
        .filter(|t| !t.is_empty())
        .map(String::from)
}

/// A CONNECT's answer from its token's lookup.
fn authorized<T>(found: Result<Option<T>, String>) -> Result<T, String> {
    match found {
        Ok(Some(session)) => Ok(session),
        Ok(None) => Err("Not authorized".to_string()),
        Err(e) => {
            tracing::warn!(error = %e, "socket token lookup failed");
            Err("Server error".to_string())
        }
    }
}

/// The answer to `time:sync`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TimeSync<'a> {
    /// As the client sent it (null when it sent none).
    client_time: &'a Value,
    server_time: i64,
}

/// `time:sync` (ack): `{clientTime}` → `{clientTime, serverTime}`, on both namespaces. Every
/// client asks it now and then, so its answer is written straight from a struct.
fn on_time_sync(namespace: &Namespace, clock: Clock) {
    namespace.on("time:sync", move |_, args, ack| {
        if let Some(ack) = ack {
            let client_time = args.first().and_then(|a| a.get("clientTime"));
            ack.send_one(&TimeSync {
                client_time: client_time.unwrap_or(&Value::Null),
                server_time: clock.now_ms(),
            });
        }
    });
}

/// A tablet came or went. They are applied one at a time, in the order they happened, so a
/// quick connect and disconnect can never leave a ghost tablet behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresenceChange {
    pub store_code: String,
    pub tablet: String,
    pub connected: bool,
    pub at: i64,
}

pub type PresenceFeed = tokio::sync::mpsc::UnboundedSender<PresenceChange>;

fn on_tablet(socket: &Socket, clock: Clock, presence: PresenceFeed) {
    if let Some(store_code) = socket
        .handshake()
        .claims
        .get("storeCode")
        .and_then(Value::as_str)
    {
        socket.join(store_room(store_code));
        // The store counts its tablets from the moment one connects until it leaves.
        let change = |connected, at| PresenceChange {
            store_code: store_code.to_string(),
            tablet: socket.id().to_string(),
            connected,
            at,
        };
        let _ = presence.send(change(true, clock.now_ms()));
        let left = change(false, 0);
        let c = clock.clone();
        socket.on_disconnect(move |_, _| {
            let _ = presence.send(PresenceChange {
                at: c.now_ms(),
                ..left
            });
        });
    }
}

/// `store:watch` (ack) `{storeCode}` and `store:unwatch`.
fn on_store_watch(customers: &Namespace, check: Arc<dyn SessionCheck>) {
    customers.on("store:watch", move |socket, args, ack| {
        let arg = args.first().cloned().unwrap_or(Value::Null);
        let code = arg
            .get("storeCode")
            .and_then(Value::as_str)
            .filter(|c| is_code(c))
            .map(String::from);
        let Some(code) = code else {
            if let Some(ack) = ack {
                ack.send(vec![
                    json!({"errCode": "400", "errMsg": "storeCode is not valid"}),
                ]);
            }
            return;
        };
        let lang = request_lang(socket, &arg);
        with_live_session(socket, &check, ack, lang, move |socket, ack| {
            leave_store_rooms(socket);
            socket.join(store_room(&code));
            if let Some(ack) = ack {
                ack.send(vec![json!({"errCode": "00"})]);
            }
        });
    });
    customers.on("store:unwatch", |socket, _, ack| {
        leave_store_rooms(socket);
        if let Some(ack) = ack {
            ack.send(vec![json!({"errCode": "00"})]);
        }
    });
}

/// A customer's socket joins its cart's room and, when its token resolved at CONNECT, its
/// user's room; then its session is checked once more.
fn on_customer(socket: &Socket, check: &Arc<dyn SessionCheck>) {
    if let Some(cart_token) = socket
        .handshake()
        .auth_str("cartToken")
        .filter(|t| is_code(t))
    {
        socket.join(cart_room(cart_token));
    }
    if let Some(user_id) = socket
        .handshake()
        .claims
        .get("userId")
        .and_then(Value::as_i64)
    {
        socket.join(user_room(user_id));
        recheck_joined(socket, check);
    }
}

/// The language of a request a socket makes: its own `lang`, else the handshake's (`auth.lang`,
/// then the Accept-Language of the upgrade). A client may switch languages after connecting.
fn request_lang(socket: &Socket, arg: &Value) -> Lang {
    Lang::from_accept_language(arg.get("lang").and_then(Value::as_str).or_else(|| {
        socket.handshake().auth_str("lang").or_else(|| {
            socket
                .handshake()
                .headers
                .get("accept-language")
                .and_then(|v| v.to_str().ok())
        })
    }))
}

/// `order:watch` (ack) `{orderNo, viewToken?}`: allowed for the owner (the handshake's token)
/// or a view token holder. The socket joins the order's room before the snapshot is taken, so
/// no event falls between them: the client applies events with a seq above the snapshot's.
/// `order:unwatch` `{orderNo}` leaves it.
fn on_order_watch(customers: &Namespace, watch: OrderWatchSlot, check: Arc<dyn SessionCheck>) {
    customers.on("order:watch", move |socket, args, ack| {
        let arg = args.first().cloned().unwrap_or(Value::Null);
        let order_no = arg
            .get("orderNo")
            .and_then(Value::as_str)
            .filter(|c| is_code(c))
            .map(String::from);
        let view_token = arg
            .get("viewToken")
            .and_then(Value::as_str)
            .map(String::from);
        let user_token = socket.handshake().auth_str("token").map(String::from);
        let lang = request_lang(socket, &arg);
        let (Some(order_no), Some(watch)) = (order_no, watch.get().cloned()) else {
            if let Some(ack) = ack {
                ack.send(vec![
                    json!({"errCode": "400", "errMsg": "orderNo is not valid"}),
                ]);
            }
            return;
        };
        with_live_session(socket, &check, ack, lang, move |socket, ack| {
            watch_order(socket, ack, watch, order_no, user_token, view_token, lang);
        });
    });
    customers.on("order:unwatch", |socket, args, ack| {
        if let Some(order_no) = args
            .first()
            .and_then(|a| a.get("orderNo"))
            .and_then(Value::as_str)
        {
            socket.leave(&order_room(order_no));
        }
        if let Some(ack) = ack {
            ack.send(vec![json!({"errCode": "00"})]);
        }
    });
}

/// `order:watch` for a socket whose session (if any) is alive.
fn watch_order(
    socket: &Socket,
    ack: Option<super::socketio::AckSender>,
    watch: Arc<dyn OrderWatch>,
    order_no: String,
    user_token: Option<String>,
    view_token: Option<String>,
    lang: Lang,
) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let socket = socket.clone();
    runtime.spawn(async move {
        let answer = if watch
            .allowed(order_no.clone(), user_token, view_token)
            .await
        {
            socket.join(order_room(&order_no));
            match watch.snapshot(order_no.clone(), lang).await {
                Some(order) => json!({"errCode": "00", "order": order}),
                None => json!({"errCode": "500", "errMsg": "the order could not be read"}),
            }
        } else {
            let msg = if lang == Lang::Zh {
                "订单不存在"
            } else {
                "No such order"
            };
            json!({"errCode": "404", "errMsg": msg})
        };
        if let Some(ack) = ack {
            ack.send(vec![answer]);
        }
    });
}

fn leave_store_rooms(socket: &Socket) {
    for room in socket.rooms() {
        if room.starts_with("store:") {
            socket.leave(&room);
        }
    }
}

/// Store codes and cart tokens: short ASCII words, so room names stay tidy.
fn is_code(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Emits every bus event to its rooms on this node, until the bus closes. A pump that fell
/// behind skips what it lost: clients see the `seq` gap and take a snapshot.
pub async fn pump(io: SocketIo, bus: Arc<dyn Bus>) {
    let mut events = bus.subscribe();
    loop {
        match events.recv().await {
            Ok(event) => {
                for d in deliveries(&event) {
                    // A namespace nobody registered (the tablets', for now) has no listeners.
                    let Some(namespace) = io.namespace(d.namespace) else {
                        continue;
                    };
                    match namespace.to(d.room).emit(d.event, vec![d.payload]) {
                        Ok(()) => {
                            metrics::counter!("socketio_events_emitted_total", "event" => d.event)
                                .increment(1)
                        }
                        Err(err) => {
                            tracing::warn!(error = ?err, event = d.event, "gateway emit failed")
                        }
                    }
                }
            }
            Err(RecvError::Lagged(missed)) => {
                metrics::counter!("socketio_events_dropped_total", "reason" => "bus_lag")
                    .increment(missed);
                tracing::warn!(missed, "gateway fell behind the bus; clients will resync");
            }
            Err(RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_code;

    #[test]
    fn codes_that_may_name_a_room() {
        let cases = [
            ("SH001", true),
            ("a-b_c", true),
            ("", false),
            ("store:SH001", false),
            ("SH 001", false),
            ("门店", false),
        ];
        for (text, ok) in cases {
            assert_eq!(is_code(text), ok, "{text:?}");
        }
        assert!(!is_code(&"x".repeat(65)));
    }
}
