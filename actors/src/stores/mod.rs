//! The store board: what a store's staff set live (open, busy or closed with a notice, and
//! the sold-out products), laid over the catalogue for every customer path (menu, cart,
//! submit, store cards) and announced as `store:update` after it is written.
//!
//! A simpler shape than an actor per store keeps the same guarantees: every change is one
//! statement (an upsert of the status row, an insert or delete of one sold-out row), so
//! concurrent tablets on any node lose nothing, and every read goes to the database, so a
//! product marked sold out on one node is refused by the next submit on every node.

pub mod presence;

use crate::bus::{Bus, Event};
use crate::catalogue::CatalogueService;
use crate::clock::Clock;
use crate::db::store_boards::StoreBoardRepo;
use crate::db::{Db, DbError};
use crate::domain::catalog::{Store, StoreStatus};
use crate::domain::store_board::{effective_store, shown_notice, status_name, StoreLive};
use std::sync::Arc;

pub struct StoreBoards {
    repo: StoreBoardRepo,
    bus: Arc<dyn Bus>,
    clock: Clock,
}

impl StoreBoards {
    pub fn new(db: Db, bus: Arc<dyn Bus>, clock: Clock) -> StoreBoards {
        StoreBoards {
            repo: StoreBoardRepo::new(db),
            bus,
            clock,
        }
    }

    pub async fn live(&self, store_code: &str) -> Result<StoreLive, DbError> {
        self.repo.get(store_code).await
    }

    /// The store as customers meet it now, and its live state (the sold-out list).
    pub async fn effective(&self, store: &Store) -> Result<(Store, StoreLive), DbError> {
        let live = self.repo.get(&store.store_code).await?;
        Ok((effective_store(store, &live), live))
    }

    /// Every store as customers meet it now (status and notice; for store lists, which do not
    /// show sold-out products): one read for the whole list.
    pub async fn effective_all(&self, stores: &[Store]) -> Result<Vec<Store>, DbError> {
        let set = self.repo.statuses().await?;
        Ok(stores
            .iter()
            .map(|s| match set.get(&s.store_code) {
                Some(live) => effective_store(s, live),
                None => s.clone(),
            })
            .collect())
    }

    /// The staff set the store open, busy or closed, with a notice (none: the default words).
    pub async fn set_status(
        &self,
        store: &Store,
        status: StoreStatus,
        notice: Option<&str>,
        by: &str,
    ) -> Result<(Store, StoreLive), DbError> {
        let now = self.clock.now_ms();
        self.repo
            .set_status(&store.store_code, status, notice, by, now)
            .await?;
        tracing::info!(store = %store.store_code, status = status_name(status), by, "store status set");
        self.announce(store).await
    }

    /// The staff mark a product sold out ("86") or back on sale.
    pub async fn set_sold_out(
        &self,
        store: &Store,
        product_code: &str,
        sold_out: bool,
    ) -> Result<(Store, StoreLive), DbError> {
        let now = self.clock.now_ms();
        let changed = self
            .repo
            .set_sold_out(&store.store_code, product_code, sold_out, now)
            .await?;
        if !changed {
            // A repeat (a double tap, a retry): nothing to tell anyone.
            return self.effective(store).await;
        }
        tracing::info!(store = %store.store_code, product = product_code, sold_out, "sold-out toggled");
        self.announce(store).await
    }

    /// Reads back what is persisted and publishes it: the event always says the whole state,
    /// so a client that missed one update is right again with the next.
    async fn announce(&self, store: &Store) -> Result<(Store, StoreLive), DbError> {
        let (shown, live) = self.effective(store).await?;
        let event = Event::StoreUpdate {
            store_code: store.store_code.clone(),
            status: status_name(shown.status).to_string(),
            notice: shown_notice(&shown),
            sold_out: live.sold_out.clone(),
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, store = %store.store_code, "store:update not published");
        }
        Ok((shown, live))
    }
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
