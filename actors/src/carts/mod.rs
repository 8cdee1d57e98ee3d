//! Carts as virtual actors: one [`CartSession`] per cart, started on first use, stopped when
//! idle. The session runs one command at a time, so two tabs adding at once lose nothing; every
//! change is written (with the version check that protects against another node) before
//! `cart:updated` is published.

pub mod pricing;
mod session;

pub use session::{CartSession, Checkout, CheckoutDone, IdempotentAnswer, Update};

use crate::actor_registry::{ActorRegistry, IDLE};
use crate::bus::Bus;
use crate::clock::Clock;
use crate::db::carts::{CartRepo, StoredCart};
use crate::db::orders::OrderRepo;
use crate::db::DbError;
use crate::domain::cart::{Cart, CartError};
use actix::{Actor, Addr, ArbiterHandle};
use std::sync::Arc;
use std::time::Duration;

/// Whose cart: a user's, or a visitor's by cart token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CartKey {
    User(i64),
    Visitor(String),
}

impl CartKey {
    pub fn storage_key(&self) -> String {
        match self {
            CartKey::User(id) => format!("u:{id}"),
            CartKey::Visitor(token) => format!("v:{token}"),
        }
    }

    pub fn user_id(&self) -> Option<i64> {
        match self {
            CartKey::User(id) => Some(*id),
            CartKey::Visitor(_) => None,
        }
    }

    pub fn token(&self) -> Option<&str> {
        match self {
            CartKey::User(_) => None,
            CartKey::Visitor(token) => Some(token),
        }
    }
}

/// A change to a cart: applied to the freshly read cart, and applied again if another node
/// wrote meanwhile, so it must not depend on anything but the cart it is given. `Ok(false)`
/// means nothing changed (nothing is written, the version stays).
pub type Mutation = Arc<dyn Fn(&mut Cart) -> Result<bool, CartError> + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum CartFailure {
    #[error(transparent)]
    Rejected(#[from] CartError),
    #[error(transparent)]
    Db(#[from] DbError),
    /// The cart changed after it was priced (checkout): price it again.
    #[error("the cart changed meanwhile")]
    Stale,
    #[error("the cart kept changing under concurrent writers")]
    Contended,
    #[error("cart session unavailable")]
    Unavailable,
    /// The points asked for at submit are no longer available (spent meanwhile): nothing
    /// was created.
    #[error("not enough points: {available} available")]
    NotEnoughPoints { available: i64 },
    /// A coupon the order uses was locked, used or expired meanwhile (another order won the
    /// compare-and-set): nothing was created.
    #[error("coupon {0} taken")]
    CouponTaken(String),
    /// The order's number is another order's already (checkout): nothing was created; submit
    /// draws another.
    #[error("order number taken")]
    NumberTaken,
}

pub struct CartRegistry {
    carts: CartRepo,
    orders: OrderRepo,
    bus: Arc<dyn Bus>,
    clock: Clock,
    arbiter: ArbiterHandle,
    sessions: ActorRegistry<CartKey, CartSession>,
    idle: Duration,
}

impl CartRegistry {
    /// `arbiter`: where the sessions run (see `actor_thread`).
    pub fn new(
        carts: CartRepo,
        orders: OrderRepo,
        bus: Arc<dyn Bus>,
        clock: Clock,
        arbiter: ArbiterHandle,
    ) -> CartRegistry {
        CartRegistry {
            carts,
            orders,
            bus,
            clock,
            arbiter,
            sessions: ActorRegistry::default(),
            idle: IDLE,
        }
    }

    /// The cart as stored now. Reads need no turn in the session: a row is read whole.
    pub async fn read(&self, key: &CartKey) -> Result<StoredCart, CartFailure> {
        Ok(self.carts.load(&key.storage_key()).await?)
    }

    pub async fn update(
        &self,
        key: &CartKey,
        mutation: Mutation,
    ) -> Result<StoredCart, CartFailure> {
        self.update_from(key, None, mutation).await
    }

    /// [`update`](Self::update) starting from the cart as the caller just read it (saves
    /// reading it again; a cart changed meanwhile is read again and the mutation re-applied).
    pub async fn update_from(
        &self,
        key: &CartKey,
        read: Option<StoredCart>,
        mutation: Mutation,
    ) -> Result<StoredCart, CartFailure> {
        for _ in 0..2 {
            match self
                .session(key)
                .send(Update(mutation.clone(), read.clone()))
                .await
            {
                Ok(result) => return result,
                // The session stopped (idle) between lookup and send: start a new one.
                Err(_) => self.forget(key),
            }
        }
        Err(CartFailure::Unavailable)
    }

    pub async fn checkout(
        &self,
        key: &CartKey,
        checkout: Checkout,
    ) -> Result<CheckoutDone, CartFailure> {
        match self.session(key).send(checkout).await {
            Ok(result) => result,
            Err(_) => {
                self.forget(key);
                Err(CartFailure::Unavailable)
            }
        }
    }

    /// Takes a visitor's cart into the user's (at login), then forgets the visitor's.
    pub async fn merge_visitor(&self, token: &str, user_id: i64) -> Result<(), CartFailure> {
        let visitor = CartKey::Visitor(token.to_string());
        let taken = self.read(&visitor).await?;
        if taken.version == 0 {
            return Ok(());
        }
        if !taken.cart.lines.is_empty() || taken.cart.store_code.is_some() {
            let cart = taken.cart.clone();
            self.update(
                &CartKey::User(user_id),
                Arc::new(move |mine: &mut Cart| {
                    mine.merge(cart.clone());
                    Ok(true)
                }),
            )
            .await?;
        }
        self.carts.delete(&visitor.storage_key()).await?;
        Ok(())
    }

    /// Sessions stop after `idle` without work (`[memory] session_idle_seconds`).
    pub fn with_idle(mut self, idle: Duration) -> CartRegistry {
        self.idle = idle;
        self
    }

    fn session(&self, key: &CartKey) -> Addr<CartSession> {
        self.sessions.get_or_start(key, || {
            let session = CartSession::new(
                key.clone(),
                self.carts.clone(),
                self.orders.clone(),
                self.bus.clone(),
                self.clock.clone(),
                self.idle,
            );
            CartSession::start_in_arbiter(&self.arbiter, |_| session)
        })
    }

    fn forget(&self, key: &CartKey) {
        self.sessions.forget(key);
    }

    /// Drops the entries of sessions that stopped (the memory sweep).
    pub fn prune(&self) {
        self.sessions.prune();
    }

    /// Registry entries held, stopped sessions' included (for tests).
    pub fn held_sessions(&self) -> usize {
        self.sessions.held()
    }

    /// Sessions alive on this node (for tests and metrics).
    pub fn live_sessions(&self) -> usize {
        self.sessions.live()
    }
}
