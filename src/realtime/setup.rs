//! The product's real-time stack as `serve` runs it: the Socket.IO server (Redis adapter when
//! Redis is configured, so rooms span nodes and recovery works on any node), the gateway's
//! handlers, the pump from this node's event bus, and the sweep that disconnects the sockets
//! of ended sessions (from the sessions channel, which spans the nodes through Redis).
//!
//! The bus the gateway reads is in-process on purpose. An event is published on the node whose
//! actor made the change; that node's pump emits it through the adapter, and the Redis adapter
//! carries it to every node's sockets. Feeding every node's pump from a Redis bus instead would
//! deliver each event once per node.

use super::engineio::{EngineConfig, EngineIo};
use super::gateway::routing::{store_room, TABLETS};
use super::gateway::sessions::{Lookup, SessionCheck, StaffClaims};
use super::gateway::{self};
use super::socketio::{RedisAdapterFactory, SocketIo, SocketIoConfig};
use actors::accounts::secrets::Token;
use actors::accounts::sessions::{SessionError, SessionStore};
use actors::bus::{Bus, LocalBus};
use actors::clock::Clock;
use actors::db::staff::StaffRepo;
use actors::db::Db;
use actors::stores::presence::{LocalPresence, RedisPresence, TabletPresence, HEARTBEAT_MS};
use actors::stores::StoreBoards;
use anyhow::Context;
use std::sync::Arc;

/// Where the app mounts Socket.IO (API.md).
pub const PATH: &str = "/socket.io/";

pub struct Realtime {
    pub io: SocketIo,
    pub engine: Arc<EngineIo<SocketIo>>,
    pub bus: Arc<dyn Bus>,
    /// Filled by the app once its state exists: what `order:watch` reads.
    pub order_watch: gateway::OrderWatchSlot,
    /// Where tablets' presence is recorded (this node's memory, or Redis across nodes); the
    /// store actors write it, in order, from `presence_changes` (see [`serve_presence`]).
    pub presence: Arc<dyn TabletPresence>,
    /// The gateway's reports of tablet sockets coming and going.
    pub presence_changes: tokio::sync::mpsc::UnboundedReceiver<gateway::PresenceChange>,
}

/// Where the gateway learns about sessions.
pub struct Sessions {
    /// The app's sessions, resolved from this node's memory for a few seconds.
    pub cached: Arc<dyn SessionStore>,
    /// The store underneath (database or Redis), for the answers that must be fresh.
    pub stored: Arc<dyn SessionStore>,
    /// The channel every node hears ended sessions on (customers' and staff's).
    pub ends: Arc<dyn Bus>,
}

/// `redis`: the url and key prefix when Redis is configured. Must run inside the runtime: it
/// starts the pump, the sweep and the presence heartbeat.
pub async fn start(
    redis: Option<(&str, &str)>,
    clock: Clock,
    sessions: Sessions,
    db: Db,
) -> anyhow::Result<Realtime> {
    let config = SocketIoConfig::default();
    let io = match redis {
        Some((url, prefix)) => {
            let adapters = RedisAdapterFactory::connect(url, prefix.trim_end_matches(':'))
                .with_context(|| {
                    format!(
                        "connecting the Socket.IO adapter to {}",
                        actors::db::redact(url)
                    )
                })?;
            SocketIo::with_adapter(config, Arc::new(adapters))
        }
        None => SocketIo::new(config),
    };
    let presence: Arc<dyn TabletPresence> = match redis {
        Some((url, prefix)) => Arc::new(
            RedisPresence::connect(url, prefix, clock.now_ms())
                .await
                .context("connecting tablet presence to Redis")?,
        ),
        None => Arc::new(LocalPresence::new(clock.now_ms())),
    };
    tokio::spawn(heartbeat(presence.clone(), clock.clone()));
    let (feed, presence_changes) = tokio::sync::mpsc::unbounded_channel();
    let order_watch = gateway::OrderWatchSlot::default();
    let check: Arc<dyn SessionCheck> = Arc::new(Checks {
        cached: sessions.cached,
        stored: sessions.stored,
        staff: StaffRepo::new(db),
        clock: clock.clone(),
    });
    gateway::install(&io, clock.clone(), check.clone(), order_watch.clone(), feed);
    tokio::spawn(gateway::sessions::sweep(io.clone(), sessions.ends, check));
    let bus: Arc<dyn Bus> = Arc::new(crate::metrics::CountingBus::new(LocalBus::new()));
    tokio::spawn(gateway::pump(io.clone(), bus.clone()));
    let engine = io.engine(EngineConfig::default());
    Ok(Realtime {
        io,
        engine,
        bus,
        order_watch,
        presence,
        presence_changes,
    })
}

/// Started once the store actors exist: hands each tablet's coming or going to its store's
/// actor, in the order the gateway saw them, then tells the store's tablets (on every node) how
/// many of them are online: `store:presence {storeCode, tabletsOnline, noTabletSince}`.
pub fn serve_presence(
    changes: tokio::sync::mpsc::UnboundedReceiver<gateway::PresenceChange>,
    stores: Arc<StoreBoards>,
    io: SocketIo,
) {
    tokio::spawn(apply_presence(changes, stores, io));
}

async fn apply_presence(
    mut changes: tokio::sync::mpsc::UnboundedReceiver<gateway::PresenceChange>,
    stores: Arc<StoreBoards>,
    io: SocketIo,
) {
    while let Some(c) = changes.recv().await {
        let now = if c.connected {
            stores.tablet_joined(&c.store_code, &c.tablet, c.at).await
        } else {
            stores.tablet_left(&c.store_code, &c.tablet, c.at).await
        };
        let payload = serde_json::json!({
            "storeCode": c.store_code,
            "tabletsOnline": now.online,
            "noTabletSince": now.none_since,
        });
        if let Some(tablets) = io.namespace(TABLETS) {
            let room = store_room(&c.store_code);
            if let Err(e) = tablets.to(room).emit("store:presence", vec![payload]) {
                tracing::warn!(error = ?e, "store:presence not emitted");
            }
        }
    }
}

/// Vouches for this node's tablets now and then, so other nodes keep counting them.
async fn heartbeat(presence: Arc<dyn TabletPresence>, clock: Clock) {
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(HEARTBEAT_MS as u64));
    loop {
        tick.tick().await;
        presence.heartbeat(clock.now_ms()).await;
    }
}

/// The gateway's session lookups over the app's stores.
struct Checks {
    cached: Arc<dyn SessionStore>,
    stored: Arc<dyn SessionStore>,
    staff: StaffRepo,
    clock: Clock,
}

impl SessionCheck for Checks {
    fn customer(&self, token: String, fresh: bool) -> Lookup<i64> {
        let store = if fresh { &self.stored } else { &self.cached }.clone();
        let now = self.clock.now_ms();
        Box::pin(async move {
            match store.resolve(&Token::from_client(&token), now).await {
                Ok(session) => Ok(Some(session.user_id)),
                Err(SessionError::Expired) => Ok(None),
                Err(SessionError::Store(e)) => Err(e.to_string()),
            }
        })
    }

    fn customer_held(&self, token: &str) -> Option<i64> {
        self.cached
            .held(token, self.clock.now_ms())
            .map(|s| s.user_id)
    }

    fn staff(&self, token: String) -> Lookup<StaffClaims> {
        let (staff, now) = (self.staff.clone(), self.clock.now_ms());
        Box::pin(async move {
            let found = staff.resolve(&Token::from_client(&token).hash(), now).await;
            found
                .map(|s| {
                    s.map(|s| StaffClaims {
                        staff_id: s.staff_id,
                        store_code: s.store_code,
                    })
                })
                .map_err(|e| e.to_string())
        })
    }
}
