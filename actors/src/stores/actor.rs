//! One store's actor: the only writer of its board on this node. It runs one message at a
//! time (an atomic response holds the mailbox until the message's writes are done), so the
//! board it lends out moves forward one whole change at a time, and it stops when nobody has
//! read or changed the store for a while. It also holds the store's live queue, the orders
//! its tablets list (see `queue.rs` for why a read of it is exact on every node), and its
//! tablets' presence: which of this node's tablets are connected. It does not stop while one
//! is, and it applies their comings and goings one at a time, so the record other nodes read
//! (`presence.rs`) never has a store's last departure overtake a later arrival.

use super::cell::{stale, BoardCell};
use super::presence::{PresenceStatus, TabletPresence};
use super::queue::{is_active, merge, to_read, LiveQueue, QueueEntry, ACTIVE};
use crate::bus::{Bus, Event};
use crate::clock::Clock;
use crate::db::orders::OrderRepo;
use crate::db::store_boards::StoreBoardRepo;
use crate::db::DbError;
use crate::domain::catalogue::{Store, StoreStatus};
use crate::domain::stores::store_board::{effective_store, status_name, Board, SoldOutItem};
use actix::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub struct StoreActor {
    store_code: String,
    repo: StoreBoardRepo,
    orders: OrderRepo,
    bus: Arc<dyn Bus>,
    peers: Option<Arc<dyn Bus>>,
    clock: Clock,
    cell: Arc<BoardCell>,
    /// Written only by this actor's messages, one at a time; the lock is never held across
    /// an await (it is there so a message's future can own a handle to it).
    queue: Arc<Mutex<LiveQueue>>,
    presence: Arc<dyn TabletPresence>,
    /// This node's tablets of the store (socket ids) connected now.
    tablets: HashSet<String>,
    idle: Duration,
    last_used: Instant,
}

impl StoreActor {
    pub fn new(
        store_code: String,
        (repo, orders): (StoreBoardRepo, OrderRepo),
        (bus, peers): (Arc<dyn Bus>, Option<Arc<dyn Bus>>),
        clock: Clock,
        (cell, queue): (Arc<BoardCell>, Arc<Mutex<LiveQueue>>),
        presence: Arc<dyn TabletPresence>,
        idle: Duration,
    ) -> StoreActor {
        StoreActor {
            store_code,
            repo,
            orders,
            bus,
            peers,
            clock,
            cell,
            queue,
            presence,
            tablets: HashSet::new(),
            idle,
            last_used: Instant::now(),
        }
    }

    /// A command from a reader or the staff: it keeps the actor alive.
    fn used(&mut self) -> Job {
        self.last_used = Instant::now();
        self.job()
    }

    fn job(&self) -> Job {
        Job {
            store_code: self.store_code.clone(),
            repo: self.repo.clone(),
            orders: self.orders.clone(),
            bus: self.bus.clone(),
            peers: self.peers.clone(),
            clock: self.clock.clone(),
            cell: self.cell.clone(),
            queue: self.queue.clone(),
        }
    }
}

impl Actor for StoreActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        let every = (self.idle / 5).max(Duration::from_millis(10));
        ctx.run_interval(every, |actor, ctx| {
            // A store with a tablet connected here stays: its actor holds that presence.
            let idle = actor.tablets.is_empty()
                && actor.last_used.elapsed() >= actor.idle
                && actor.cell.idle_secs() >= actor.idle.as_secs();
            if idle {
                ctx.stop();
            }
        });
    }
}

/// What a message's future needs, cloned out of the actor so it can run without borrowing it.
struct Job {
    store_code: String,
    repo: StoreBoardRepo,
    orders: OrderRepo,
    bus: Arc<dyn Bus>,
    peers: Option<Arc<dyn Bus>>,
    clock: Clock,
    cell: Arc<BoardCell>,
    queue: Arc<Mutex<LiveQueue>>,
}

impl Job {
    fn queue(&self) -> MutexGuard<'_, LiveQueue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An order's card as stored now; None when the order is gone.
    async fn read_order(&self, order_no: &str) -> Result<Option<(QueueEntry, bool)>, DbError> {
        let Some(row) = self.orders.find(order_no).await? else {
            return Ok(None);
        };
        let history = self.orders.history(order_no).await?;
        let listed = row.store_code == self.store_code && is_active(row.state);
        Ok(Some((QueueEntry::new(&row, &history), listed)))
    }

    /// The queue checked against the database's list of active orders and their versions;
    /// only the orders new or moved since the queue was held are read (all of them the
    /// first time).
    async fn checked_queue(&self) -> Result<Vec<QueueEntry>, DbError> {
        let current = self
            .orders
            .store_queue_versions(&self.store_code, &ACTIVE)
            .await?;
        let stale = to_read(self.queue().entries(), &current);
        let mut fresh = HashMap::with_capacity(stale.len());
        for order_no in stale {
            // An order that moved again between the list and its read is shown as read (newer
            // than the list, as the route always showed it); the next check drops it if it left.
            if let Some((entry, _)) = self.read_order(&order_no).await? {
                fresh.insert(order_no, entry);
            }
        }
        let mut queue = self.queue();
        let entries = merge(queue.entries(), &current, fresh);
        queue.replace(entries.clone());
        Ok(entries)
    }

    async fn reload(&self) -> Result<Arc<Board>, DbError> {
        let now = self.clock.now_ms();
        let board = self.repo.load(&self.store_code).await?;
        self.cell.install(board, now);
        Ok(self.cell.get())
    }

    /// One read of the version; the whole board only when it moved.
    async fn check(&self, max_age_ms: i64) -> Result<Arc<Board>, DbError> {
        let now = self.clock.now_ms();
        if self.cell.is_fresh(now, max_age_ms) {
            return Ok(self.cell.get());
        }
        if self.cell.is_loaded()
            && self.repo.version(&self.store_code).await? == self.cell.version()
        {
            self.cell.confirmed(now);
            return Ok(self.cell.get());
        }
        self.reload().await
    }

    /// After a change is stored: read it back (with whatever other nodes wrote meanwhile),
    /// install it, then tell every node. The event always says the whole state, so a client
    /// that missed one update is right again with the next.
    async fn apply_and_announce(&self, store: &Store) -> Result<Arc<Board>, DbError> {
        let board = self.reload().await?;
        let shown = effective_store(store, &board.live);
        let event = Event::StoreUpdate {
            store_code: self.store_code.clone(),
            status: status_name(shown.status).to_string(),
            // The staff's own words only: the default words of busy and closed are said by each
            // app in its reader's language (the catalogue's are Chinese).
            notice: board.live.notice.clone(),
            sold_out: board.live.sold_out.clone(),
            version: board.version,
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, store = %self.store_code, "store:update not published");
        }
        if let Some(peers) = &self.peers {
            if let Err(e) = peers.publish(&event).await {
                // Stored and applied here; other nodes catch up at their next version check.
                tracing::warn!(error = %e, store = %self.store_code, "store board invalidation not sent");
            }
        }
        Ok(board)
    }
}

/// Answers the board, first checking the database's version when it was not checked for
/// `max_age_ms` (0: check now). Activation is this message with the board never loaded.
#[derive(Message)]
#[rtype(result = "Result<Arc<Board>, DbError>")]
pub struct Refresh {
    pub max_age_ms: i64,
}

impl Handler<Refresh> for StoreActor {
    type Result = AtomicResponse<Self, Result<Arc<Board>, DbError>>;

    fn handle(&mut self, msg: Refresh, _: &mut Context<Self>) -> Self::Result {
        let job = self.used();
        AtomicResponse::new(Box::pin(
            async move { job.check(msg.max_age_ms).await }.into_actor(self),
        ))
    }
}

/// The bus says the board reached `version` (on this node or another): reload unless held.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Invalidate {
    pub version: i64,
}

impl Handler<Invalidate> for StoreActor {
    type Result = AtomicResponse<Self, ()>;

    fn handle(&mut self, msg: Invalidate, _: &mut Context<Self>) -> Self::Result {
        // Not a use: a store nobody reads still passivates while other nodes change it.
        let job = self.job();
        AtomicResponse::new(Box::pin(
            async move {
                if stale(job.cell.version(), msg.version) {
                    if let Err(e) = job.reload().await {
                        // The next read past the max age checks again.
                        tracing::warn!(error = %e, store = %job.store_code, "store board not reloaded");
                    }
                }
            }
            .into_actor(self),
        ))
    }
}

/// The staff set the store open, busy or closed, with a notice (none: the default words).
/// `store` is the catalogue's, for the event's shown status and notice.
#[derive(Message)]
#[rtype(result = "Result<Arc<Board>, DbError>")]
pub struct SetStatus {
    pub store: Store,
    pub status: StoreStatus,
    pub notice: Option<String>,
    pub by: String,
}

impl Handler<SetStatus> for StoreActor {
    type Result = AtomicResponse<Self, Result<Arc<Board>, DbError>>;

    fn handle(&mut self, msg: SetStatus, _: &mut Context<Self>) -> Self::Result {
        let job = self.used();
        AtomicResponse::new(Box::pin(
            async move {
                let now = job.clock.now_ms();
                job.repo
                    .set_status(&job.store_code, msg.status, msg.notice.as_deref(), &msg.by, now)
                    .await?;
                tracing::info!(store = %job.store_code, status = status_name(msg.status), by = %msg.by, "store status set");
                job.apply_and_announce(&msg.store).await
            }
            .into_actor(self),
        ))
    }
}

/// The staff mark an item sold out ("86") or back on sale. A repeat (a double tap, a retry)
/// changes nothing and tells no one.
#[derive(Message)]
#[rtype(result = "Result<Arc<Board>, DbError>")]
pub struct SetSoldOut {
    pub store: Store,
    pub item: SoldOutItem,
    pub sold_out: bool,
}

impl Handler<SetSoldOut> for StoreActor {
    type Result = AtomicResponse<Self, Result<Arc<Board>, DbError>>;

    fn handle(&mut self, msg: SetSoldOut, _: &mut Context<Self>) -> Self::Result {
        let job = self.used();
        AtomicResponse::new(Box::pin(
            async move {
                let now = job.clock.now_ms();
                let code = msg.item.key();
                let changed = job
                    .repo
                    .set_sold_out(&job.store_code, &code, msg.sold_out, now)
                    .await?;
                if changed.is_none() {
                    return job.check(0).await;
                }
                tracing::info!(store = %job.store_code, item = %code, sold_out = msg.sold_out, "sold-out toggled");
                job.apply_and_announce(&msg.store).await
            }
            .into_actor(self),
        ))
    }
}

/// The store's live queue for its tablets, priority orders then oldest first: checked against
/// the database's versions, so it is exact whichever node moved its orders (see `queue.rs`).
/// The first one loads the queue.
#[derive(Message)]
#[rtype(result = "Result<Vec<QueueEntry>, DbError>")]
pub struct Queue;

impl Handler<Queue> for StoreActor {
    type Result = AtomicResponse<Self, Result<Vec<QueueEntry>, DbError>>;

    fn handle(&mut self, _: Queue, _: &mut Context<Self>) -> Self::Result {
        let job = self.used();
        AtomicResponse::new(Box::pin(
            async move { job.checked_queue().await }.into_actor(self),
        ))
    }
}

/// An order of this store moved on this node (the bus's tablet event): its card is read back
/// and listed, moved or dropped, so the next tablet read has nothing to fetch. A queue no
/// tablet has read yet is left unloaded.
#[derive(Message)]
#[rtype(result = "()")]
pub struct OrderMoved {
    pub order_no: String,
}

impl Handler<OrderMoved> for StoreActor {
    type Result = AtomicResponse<Self, ()>;

    fn handle(&mut self, msg: OrderMoved, _: &mut Context<Self>) -> Self::Result {
        // Not a use: orders keep moving in a store whose tablets are all closed.
        let job = self.job();
        AtomicResponse::new(Box::pin(
            async move {
                if !job.queue().loaded {
                    return;
                }
                match job.read_order(&msg.order_no).await {
                    Ok(Some((entry, listed))) => job.queue().apply(entry, listed),
                    Ok(None) => {}
                    // The next tablet read finds the version moved and reads it then.
                    Err(e) => {
                        tracing::warn!(error = %e, store = %job.store_code, order_no = %msg.order_no, "queue not updated")
                    }
                }
            }
            .into_actor(self),
        ))
    }
}

/// A tablet of the store connected to this node (`tablet`: its socket id): held here, then
/// recorded where every node reads presence. Answers the store's presence after the change.
#[derive(Message)]
#[rtype(result = "PresenceStatus")]
pub struct TabletJoined {
    pub tablet: String,
    pub at: i64,
}

impl Handler<TabletJoined> for StoreActor {
    type Result = AtomicResponse<Self, PresenceStatus>;

    fn handle(&mut self, msg: TabletJoined, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        self.tablets.insert(msg.tablet.clone());
        let (presence, store_code) = (self.presence.clone(), self.store_code.clone());
        AtomicResponse::new(Box::pin(
            async move {
                presence.connected(&store_code, &msg.tablet, msg.at).await;
                presence.status(&store_code, msg.at).await
            }
            .into_actor(self),
        ))
    }
}

/// A tablet of the store left this node (closed, lost its network, logged out).
#[derive(Message)]
#[rtype(result = "PresenceStatus")]
pub struct TabletLeft {
    pub tablet: String,
    pub at: i64,
}

impl Handler<TabletLeft> for StoreActor {
    type Result = AtomicResponse<Self, PresenceStatus>;

    fn handle(&mut self, msg: TabletLeft, _: &mut Context<Self>) -> Self::Result {
        // The idle clock starts when the last tablet leaves, not when it came.
        self.last_used = Instant::now();
        self.tablets.remove(&msg.tablet);
        let (presence, store_code) = (self.presence.clone(), self.store_code.clone());
        AtomicResponse::new(Box::pin(
            async move {
                presence
                    .disconnected(&store_code, &msg.tablet, msg.at)
                    .await;
                presence.status(&store_code, msg.at).await
            }
            .into_actor(self),
        ))
    }
}
