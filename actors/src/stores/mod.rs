//! The store board as virtual actors: one [`StoreActor`] per store, started by the first read
//! or change of the store on this node and stopped after a quiet spell. It holds what the
//! store's staff set live (open, busy or closed with a notice, the sold-out products) and
//! lends it to readers as an `Arc` they take without a turn in its mailbox; the menu, the
//! store card, store lists, order ETAs, cart pricing and submit all read it from memory.
//!
//! A change goes through the store's actor: it is stored first (one statement for the change,
//! plus the board's version bumped in the same transaction, so concurrent tablets on any node
//! lose nothing), then read back and installed, then published as `store:update` carrying the
//! new version, on the node's bus (for its sockets) and on the bus between nodes (`peers`: a
//! Redis channel of its own when Redis is configured, since the app's bus is in-process by
//! design). Every node's [`StoreBoards`] listens to `peers` and has its actor for that store
//! reload when it holds an older version.
//!
//! What a reader on another node sees, and when:
//! - **Cart pricing and submit** (the money path) read the board's version from the database
//!   (one indexed read) and reload when it moved: a product sold out on node B is refused by
//!   the very next cart or submit on node A, whether or not the bus has delivered yet.
//! - **Menu, store card, store lists, order ETAs** read memory: they see B's change as soon as
//!   the bus delivers its invalidation (milliseconds with Redis), and in any case once the
//!   board is older than [`MAX_AGE_MS`] (a lost invalidation, or nodes without a shared bus),
//!   when the next read checks the version before answering.
//!
//! The actor also holds the store's live queue, the orders its tablets list: loaded by the
//! first tablet read, kept current by this node's order transitions (the bus's tablet events),
//! and checked on every tablet read against the database's versions of the store's active
//! orders, so an order paid or moved on another node is listed by the next read anywhere
//! (`queue.rs`).
//!
//! And it holds the store's tablets' presence: the gateway reports each tablet socket's arrival
//! and departure to the store's actor ([`StoreBoards::tablet_joined`]), which keeps the actor
//! alive while one is connected and records it, in order, where every node reads it
//! (`presence.rs`: this node's memory, or Redis across nodes).

mod actor;
pub mod cell;
pub mod presence;
pub mod queue;
#[cfg(test)]
mod queue_tests;
#[cfg(test)]
mod tests;

pub use actor::{
    Invalidate, OrderMoved, Queue, Refresh, SetSoldOut, SetStatus, StoreActor, TabletJoined,
    TabletLeft,
};
pub use cell::MAX_AGE_MS;

use crate::bus::{Bus, Event};
use crate::catalogue::CatalogueService;
use crate::clock::Clock;
use crate::db::orders::OrderRepo;
use crate::db::store_boards::StoreBoardRepo;
use crate::db::{Db, DbError};
use crate::domain::catalogue::{Store, StoreStatus};
use crate::domain::stores::store_board::{effective_store, Board, SoldOutItem, StoreLive};
use actix::{Actor, Addr, ArbiterHandle};
use cell::BoardCell;
use presence::{PresenceStatus, TabletPresence};
use queue::QueueEntry;
// foldhash: randomly seeded like std's SipHash, and several times faster on these per-request
// lookups (docs/benchmarks.md).
use foldhash::{HashMap, HashMapExt};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard, Weak};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::{error::RecvError, Receiver};

/// A store nobody read or changed on this node for this long stops its actor.
pub const IDLE: Duration = Duration::from_secs(300);

#[derive(Debug, thiserror::Error)]
pub enum BoardFailure {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("store actor unavailable")]
    Unavailable,
}

#[derive(Clone)]
struct Handle {
    addr: Addr<StoreActor>,
    cell: Arc<BoardCell>,
    queue: Arc<Mutex<queue::LiveQueue>>,
}

pub struct StoreBoards {
    repo: StoreBoardRepo,
    orders: OrderRepo,
    bus: Arc<dyn Bus>,
    peers: Option<Arc<dyn Bus>>,
    presence: Arc<dyn TabletPresence>,
    clock: Clock,
    arbiter: ArbiterHandle,
    idle: Duration,
    epoch: Instant,
    actors: RwLock<HashMap<String, Handle>>,
}

impl StoreBoards {
    /// The registry, listening to `peers` (the bus between nodes; None: one node, its own
    /// bus) for other nodes' changes. `presence`: where tablets' presence is recorded for
    /// every node to read. `arbiter`: where the actors run (see `actor_thread`).
    pub fn start(
        db: Db,
        (bus, peers): (Arc<dyn Bus>, Option<Arc<dyn Bus>>),
        presence: Arc<dyn TabletPresence>,
        clock: Clock,
        arbiter: ArbiterHandle,
        idle: Duration,
    ) -> Arc<StoreBoards> {
        let events = peers.as_ref().unwrap_or(&bus).subscribe();
        // Order transitions are published on this node's bus only: with peers, listen to both.
        let local = peers.as_ref().map(|_| bus.subscribe());
        let boards = Arc::new(StoreBoards {
            repo: StoreBoardRepo::new(db.clone()),
            orders: OrderRepo::new(db),
            bus,
            peers,
            presence,
            clock,
            arbiter: arbiter.clone(),
            idle,
            epoch: Instant::now(),
            actors: RwLock::new(HashMap::new()),
        });
        arbiter.spawn(listen(Arc::downgrade(&boards), events, true));
        if let Some(local) = local {
            arbiter.spawn(listen(Arc::downgrade(&boards), local, false));
        }
        boards
    }

    /// The store's live queue for its tablets, priority orders then oldest first, exact as of
    /// this call (see `queue.rs`); the first call on this node loads it.
    pub async fn queue(&self, store_code: &str) -> Result<Vec<QueueEntry>, BoardFailure> {
        for _ in 0..2 {
            match self.handle(store_code).addr.send(Queue).await {
                Ok(entries) => return Ok(entries?),
                Err(_) => self.forget(store_code),
            }
        }
        Err(BoardFailure::Unavailable)
    }

    /// The store's board, from memory (see the module doc for how fresh): for readers that
    /// keep what they built from it (its identity changes with every reload).
    pub async fn board_of(&self, store_code: &str) -> Result<Arc<Board>, BoardFailure> {
        self.board(store_code, MAX_AGE_MS).await
    }

    /// The store's live state, from memory (see the module doc for how fresh).
    pub async fn live(&self, store_code: &str) -> Result<StoreLive, BoardFailure> {
        Ok(self.board(store_code, MAX_AGE_MS).await?.live.clone())
    }

    /// The store as customers meet it now, and its live state (the sold-out list); from
    /// memory, for what customers browse.
    pub async fn effective(&self, store: &Store) -> Result<(Store, StoreLive), BoardFailure> {
        let board = self.board(&store.store_code, MAX_AGE_MS).await?;
        Ok((effective_store(store, &board.live), board.live.clone()))
    }

    /// [`effective`](Self::effective) checked against the database's version first: for cart
    /// pricing and submit, which must not take an order for what another node just sold out.
    pub async fn effective_checked(
        &self,
        store: &Store,
    ) -> Result<(Store, StoreLive), BoardFailure> {
        let board = self.checked(&store.store_code).await?;
        Ok((effective_store(store, &board.live), board.live.clone()))
    }

    /// Every store as customers meet it now (for store lists): the stores not active on this
    /// node are activated together, from three reads for the whole chain.
    pub async fn effective_all(&self, stores: &[Store]) -> Result<Vec<Store>, BoardFailure> {
        let inactive = {
            let actors = self.read_actors();
            stores.iter().any(|s| {
                !actors
                    .get(&s.store_code)
                    .is_some_and(|h| h.addr.connected())
            })
        };
        if inactive {
            let mut boards = self.repo.load_all().await?;
            let now = self.clock.now_ms();
            let mut actors = self.write_actors();
            for store in stores {
                let code = &store.store_code;
                if actors.get(code).is_some_and(|h| h.addr.connected()) {
                    continue;
                }
                let handle = self.spawn(code);
                handle
                    .cell
                    .install(boards.remove(code).unwrap_or_default(), now);
                actors.insert(code.clone(), handle);
            }
        }
        let boards = futures_util::future::try_join_all(
            stores.iter().map(|s| self.board(&s.store_code, MAX_AGE_MS)),
        )
        .await?;
        Ok(stores
            .iter()
            .zip(boards)
            .map(|(s, b)| effective_store(s, &b.live))
            .collect())
    }

    /// The staff set the store open, busy or closed, with a notice (none: the default words).
    pub async fn set_status(
        &self,
        store: &Store,
        status: StoreStatus,
        notice: Option<&str>,
        by: &str,
    ) -> Result<(Store, StoreLive), BoardFailure> {
        let msg = || SetStatus {
            store: store.clone(),
            status,
            notice: notice.map(String::from),
            by: by.to_string(),
        };
        for _ in 0..2 {
            match self.handle(&store.store_code).addr.send(msg()).await {
                Ok(board) => {
                    let board: Arc<Board> = board?;
                    return Ok(shown(store, &board));
                }
                // The actor stopped (idle) between lookup and send: start a new one.
                Err(_) => self.forget(&store.store_code),
            }
        }
        Err(BoardFailure::Unavailable)
    }

    /// The staff mark a product sold out ("86") or back on sale; a repeat changes nothing.
    pub async fn set_sold_out(
        &self,
        store: &Store,
        product_code: &str,
        sold_out: bool,
    ) -> Result<(Store, StoreLive), BoardFailure> {
        self.set_item_sold_out(
            store,
            SoldOutItem::Product(product_code.to_string()),
            sold_out,
        )
        .await
    }

    /// The staff mark a product, an ingredient or a flavour sold out or back on sale.
    pub async fn set_item_sold_out(
        &self,
        store: &Store,
        item: SoldOutItem,
        sold_out: bool,
    ) -> Result<(Store, StoreLive), BoardFailure> {
        let msg = || SetSoldOut {
            store: store.clone(),
            item: item.clone(),
            sold_out,
        };
        for _ in 0..2 {
            match self.handle(&store.store_code).addr.send(msg()).await {
                Ok(board) => {
                    let board: Arc<Board> = board?;
                    return Ok(shown(store, &board));
                }
                Err(_) => self.forget(&store.store_code),
            }
        }
        Err(BoardFailure::Unavailable)
    }

    /// A tablet of the store connected to this node: its actor holds it (and stays while it
    /// does) and records it for every node. Answers the store's presence after the change.
    pub async fn tablet_joined(&self, store_code: &str, tablet: &str, at: i64) -> PresenceStatus {
        let msg = || TabletJoined {
            tablet: tablet.to_string(),
            at,
        };
        for _ in 0..2 {
            match self.handle(store_code).addr.send(msg()).await {
                Ok(status) => return status,
                Err(_) => self.forget(store_code),
            }
        }
        // No actor would take it (the actor thread is gone): record it anyway.
        self.presence.connected(store_code, tablet, at).await;
        self.presence.status(store_code, at).await
    }

    /// A tablet of the store left this node.
    pub async fn tablet_left(&self, store_code: &str, tablet: &str, at: i64) -> PresenceStatus {
        let msg = || TabletLeft {
            tablet: tablet.to_string(),
            at,
        };
        for _ in 0..2 {
            match self.handle(store_code).addr.send(msg()).await {
                Ok(status) => return status,
                Err(_) => self.forget(store_code),
            }
        }
        self.presence.disconnected(store_code, tablet, at).await;
        self.presence.status(store_code, at).await
    }

    /// How many tablets of the store are online on any node, or since when none is. A read of
    /// the shared record: it needs no actor, so asking about a quiet store starts none.
    pub async fn presence(&self, store_code: &str, now: i64) -> PresenceStatus {
        self.presence.status(store_code, now).await
    }

    /// This node's tablets, vouched for again so other nodes keep counting them.
    pub async fn presence_heartbeat(&self, now: i64) {
        self.presence.heartbeat(now).await
    }

    /// StoreActors alive on this node (for tests and metrics).
    pub fn live_actors(&self) -> usize {
        self.read_actors()
            .values()
            .filter(|h| h.addr.connected())
            .count()
    }

    /// The queue the store's actor holds now, unchecked: (order number, version) in order;
    /// None when no actor runs or no tablet read it yet. For tests.
    pub fn held_queue(&self, store_code: &str) -> Option<Vec<(String, i64)>> {
        let handle = self.read_actors().get(store_code)?.clone();
        let queue = handle.queue.lock().unwrap_or_else(|p| p.into_inner());
        queue.loaded.then(|| {
            queue
                .entries()
                .iter()
                .map(|e| (e.order_no.clone(), e.version))
                .collect()
        })
    }

    /// The board, from memory when it was checked less than `max_age_ms` ago; else after the
    /// actor checked the database's version (activation included).
    async fn board(&self, store_code: &str, max_age_ms: i64) -> Result<Arc<Board>, BoardFailure> {
        // Nearly every read: a running actor's fresh board, taken under the table's read lock
        // without cloning the handle (an actix address clone allocates).
        if let Some(board) = self.read_actors().get(store_code).and_then(|handle| {
            (handle.addr.connected() && handle.cell.is_fresh(self.clock.now_ms(), max_age_ms))
                .then(|| handle.cell.get())
        }) {
            return Ok(board);
        }
        for _ in 0..2 {
            let handle = self.handle(store_code);
            if handle.cell.is_fresh(self.clock.now_ms(), max_age_ms) {
                return Ok(handle.cell.get());
            }
            match handle.addr.send(Refresh { max_age_ms }).await {
                Ok(board) => {
                    handle.cell.get();
                    return Ok(board?);
                }
                Err(_) => self.forget(store_code),
            }
        }
        Err(BoardFailure::Unavailable)
    }

    /// The board, confirmed against the database's version now. The version is read here,
    /// not in the actor, so a busy store's carts do not queue behind one another; only a
    /// version that moved goes to the actor for a reload.
    async fn checked(&self, store_code: &str) -> Result<Arc<Board>, BoardFailure> {
        let handle = self.handle(store_code);
        if handle.cell.is_loaded() {
            let now = self.clock.now_ms();
            let version = self.repo.version(store_code).await?;
            if version == handle.cell.version() && handle.addr.connected() {
                handle.cell.confirmed(now);
                return Ok(handle.cell.get());
            }
        }
        self.board(store_code, 0).await
    }

    fn invalidate(&self, store_code: &str, version: i64) {
        if let Some(handle) = self.read_actors().get(store_code) {
            handle.addr.do_send(Invalidate { version });
        }
    }

    /// An order of the store moved on this node: its actor, if one runs here, updates its queue.
    fn order_moved(&self, store_code: &str, order_no: String) {
        if let Some(handle) = self.read_actors().get(store_code) {
            handle.addr.do_send(OrderMoved { order_no });
        }
    }

    fn invalidate_all(&self) {
        for handle in self.read_actors().values() {
            handle.addr.do_send(Invalidate { version: i64::MAX });
        }
    }

    fn handle(&self, store_code: &str) -> Handle {
        if let Some(handle) = self
            .read_actors()
            .get(store_code)
            .filter(|h| h.addr.connected())
        {
            return handle.clone();
        }
        let mut actors = self.write_actors();
        if let Some(handle) = actors.get(store_code).filter(|h| h.addr.connected()) {
            return handle.clone();
        }
        // Actors stop themselves when idle; drop their entries as new ones start.
        actors.retain(|_, h| h.addr.connected());
        let handle = self.spawn(store_code);
        actors.insert(store_code.to_string(), handle.clone());
        handle
    }

    fn spawn(&self, store_code: &str) -> Handle {
        let cell = Arc::new(BoardCell::new(self.epoch));
        let queue = Arc::default();
        let actor = StoreActor::new(
            store_code.to_string(),
            (self.repo.clone(), self.orders.clone()),
            (self.bus.clone(), self.peers.clone()),
            self.clock.clone(),
            (cell.clone(), Arc::clone(&queue)),
            self.presence.clone(),
            self.idle,
        );
        let addr = StoreActor::start_in_arbiter(&self.arbiter, |_| actor);
        Handle { addr, cell, queue }
    }

    fn forget(&self, store_code: &str) {
        let mut actors = self.write_actors();
        if actors.get(store_code).is_some_and(|h| !h.addr.connected()) {
            actors.remove(store_code);
        }
    }

    fn read_actors(&self) -> RwLockReadGuard<'_, HashMap<String, Handle>> {
        self.actors.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write_actors(&self) -> RwLockWriteGuard<'_, HashMap<String, Handle>> {
        self.actors.write().unwrap_or_else(|p| p.into_inner())
    }
}

/// Feeds bus events to the registry until it is dropped: `boards_too` for the stream that carries
/// board changes (peers, or the one bus), the others carry only this node's order moves.
async fn listen(weak: Weak<StoreBoards>, mut events: Receiver<Event>, boards_too: bool) {
    loop {
        let event = events.recv().await;
        let Some(boards) = weak.upgrade() else { break };
        match event {
            Ok(Event::StoreUpdate {
                store_code,
                version,
                ..
            }) if boards_too => boards.invalidate(&store_code, version),
            Ok(Event::TabletOrder {
                store_code, order, ..
            }) => {
                if let Some(order_no) = order.get("orderNo").and_then(|n| n.as_str()) {
                    boards.order_moved(&store_code, order_no.to_string());
                }
            }
            Ok(_) => {}
            Err(RecvError::Lagged(lost)) if boards_too => {
                // Which stores changed is lost with the events: check them all.
                tracing::warn!(lost, "store boards missed bus events; reloading");
                boards.invalidate_all();
            }
            // Queues are checked against the database at every tablet read anyway.
            Err(RecvError::Lagged(lost)) => {
                tracing::warn!(
                    lost,
                    "store queues missed order moves; the next reads catch up"
                )
            }
            Err(RecvError::Closed) => break,
        }
    }
}

fn shown(store: &Store, board: &Board) -> (Store, StoreLive) {
    (effective_store(store, &board.live), board.live.clone())
}

/// One store as customers meet it now, by code: the catalogue's, under what its staff set.
/// What order promises and ETAs are computed from, so busy lengthens them.
#[derive(Clone)]
pub struct LiveStores {
    catalogue: Arc<CatalogueService>,
    boards: Arc<StoreBoards>,
}

impl LiveStores {
    pub fn new(catalogue: Arc<CatalogueService>, boards: Arc<StoreBoards>) -> LiveStores {
        LiveStores { catalogue, boards }
    }

    /// None for a store the catalogue does not know; the catalogue's store when the board
    /// cannot be read (a promise a little short beats none).
    pub async fn store(&self, code: &str) -> Option<Store> {
        let snapshot = self.catalogue.get().await;
        let listed = snapshot.store(code)?;
        match self.boards.effective(listed).await {
            Ok((shown, _)) => Some(shown),
            Err(e) => {
                tracing::warn!(error = %e, store = code, "store board not read; the catalogue's times");
                Some(listed.clone())
            }
        }
    }
}
