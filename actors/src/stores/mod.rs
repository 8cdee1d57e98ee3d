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

mod actor;
pub mod cell;
pub mod presence;
#[cfg(test)]
mod tests;

pub use actor::{Invalidate, Refresh, SetSoldOut, SetStatus, StoreActor};
pub use cell::MAX_AGE_MS;

use crate::bus::{Bus, Event};
use crate::catalogue::CatalogueService;
use crate::clock::Clock;
use crate::db::store_boards::StoreBoardRepo;
use crate::db::{Db, DbError};
use crate::domain::catalog::{Store, StoreStatus};
use crate::domain::store_board::{effective_store, Board, SoldOutItem, StoreLive};
use actix::{Actor, Addr, ArbiterHandle};
use cell::BoardCell;
use std::collections::HashMap;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

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
}

pub struct StoreBoards {
    repo: StoreBoardRepo,
    bus: Arc<dyn Bus>,
    peers: Option<Arc<dyn Bus>>,
    clock: Clock,
    arbiter: ArbiterHandle,
    idle: Duration,
    epoch: Instant,
    actors: RwLock<HashMap<String, Handle>>,
}

impl StoreBoards {
    /// The registry, listening to `peers` (the bus between nodes; None: one node, its own
    /// bus) for other nodes' changes. `arbiter`: where the actors run (see `actor_thread`).
    pub fn start(
        db: Db,
        (bus, peers): (Arc<dyn Bus>, Option<Arc<dyn Bus>>),
        clock: Clock,
        arbiter: ArbiterHandle,
        idle: Duration,
    ) -> Arc<StoreBoards> {
        let mut events = peers.as_ref().unwrap_or(&bus).subscribe();
        let boards = Arc::new(StoreBoards {
            repo: StoreBoardRepo::new(db),
            bus,
            peers,
            clock,
            arbiter: arbiter.clone(),
            idle,
            epoch: Instant::now(),
            actors: RwLock::new(HashMap::new()),
        });
        let weak = Arc::downgrade(&boards);
        arbiter.spawn(async move {
            loop {
                let event = events.recv().await;
                let Some(boards) = weak.upgrade() else { break };
                match event {
                    Ok(Event::StoreUpdate {
                        store_code,
                        version,
                        ..
                    }) => boards.invalidate(&store_code, version),
                    Ok(_) => {}
                    Err(RecvError::Lagged(lost)) => {
                        // Which stores changed is lost with the events: check them all.
                        tracing::warn!(lost, "store boards missed bus events; reloading");
                        boards.invalidate_all();
                    }
                    Err(RecvError::Closed) => break,
                }
            }
        });
        boards
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
        let msg = || SetSoldOut {
            store: store.clone(),
            item: SoldOutItem::Product(product_code.to_string()),
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

    /// StoreActors alive on this node (for tests and metrics).
    pub fn live_actors(&self) -> usize {
        self.read_actors()
            .values()
            .filter(|h| h.addr.connected())
            .count()
    }

    /// The board, from memory when it was checked less than `max_age_ms` ago; else after the
    /// actor checked the database's version (activation included).
    async fn board(&self, store_code: &str, max_age_ms: i64) -> Result<Arc<Board>, BoardFailure> {
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
        let actor = StoreActor::new(
            store_code.to_string(),
            self.repo.clone(),
            (self.bus.clone(), self.peers.clone()),
            self.clock.clone(),
            cell.clone(),
            self.idle,
        );
        let addr = StoreActor::start_in_arbiter(&self.arbiter, |_| actor);
        Handle { addr, cell }
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
