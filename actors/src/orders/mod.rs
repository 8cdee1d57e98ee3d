//! Orders as virtual actors: one [`OrderSession`] per active order serialises its moves (a
//! tablet's tap, a payment notify, the customer's cancel). Each move is checked by the state
//! machine, written with its history row under the order's version, and only then announced:
//! `order:progress` with the next `seq` to the order's watchers and the store, and the tablet's
//! card (`order:new` when the order reaches the queue, `order:updated` after).

mod session;
pub mod view;

pub use session::{Move, MoveDone, OrderSession};

use crate::actor_registry::{ActorRegistry, IDLE};
use crate::bus::Bus;
use crate::clock::Clock;
use crate::db::orders::OrderRepo;
use crate::db::DbError;
use crate::domain::ordering::order_machine::{Actor as Mover, Command, MoveError};
use crate::stores::LiveStores;
use actix::{Actor, Addr, ArbiterHandle};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum OrderFailure {
    #[error("no such order")]
    NotFound,
    #[error(transparent)]
    Refused(#[from] MoveError),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("the order kept changing under concurrent writers")]
    Contended,
    #[error("order session unavailable")]
    Unavailable,
}

pub struct OrderRegistry {
    repo: OrderRepo,
    stores: LiveStores,
    bus: Arc<dyn Bus>,
    clock: Clock,
    arbiter: ArbiterHandle,
    sessions: ActorRegistry<String, OrderSession>,
    idle: Duration,
    /// Told of every move once it is stored (points captured, released, credited).
    loyalty: OnceLock<crate::loyalty::Loyalty>,
    /// Told of every move too: coupons used at payment, given back when the order closes.
    coupons: OnceLock<crate::coupons::Coupons>,
}

impl OrderRegistry {
    /// `arbiter`: where the sessions run (see `actor_thread`).
    pub fn new(
        repo: OrderRepo,
        stores: LiveStores,
        bus: Arc<dyn Bus>,
        clock: Clock,
        arbiter: ArbiterHandle,
    ) -> OrderRegistry {
        OrderRegistry {
            repo,
            stores,
            bus,
            clock,
            arbiter,
            sessions: ActorRegistry::default(),
            idle: IDLE,
            loyalty: OnceLock::new(),
            coupons: OnceLock::new(),
        }
    }

    /// Wires the loyalty programme in: it hears of every stored move.
    pub fn set_loyalty(&self, loyalty: crate::loyalty::Loyalty) {
        let _ = self.loyalty.set(loyalty);
    }

    /// Wires the coupons in: they hear of every stored move.
    pub fn set_coupons(&self, coupons: crate::coupons::Coupons) {
        let _ = self.coupons.set(coupons);
    }

    pub fn repo(&self) -> &OrderRepo {
        &self.repo
    }

    /// Asks the order's session to make a move; answers the transition once it is stored and
    /// announced.
    pub async fn make_move(
        &self,
        order_no: &str,
        mover: Mover,
        command: Command,
        paid: crate::domain::money::Fen,
    ) -> Result<MoveDone, OrderFailure> {
        self.send(order_no, mover, command, paid, None).await
    }

    /// The payment move (`PaymentSucceeded`) that makes `payment_id` the one payment keeping
    /// the order's money: written with the move, only while the order has none.
    pub async fn settle_move(
        &self,
        order_no: &str,
        payment_id: &str,
        paid: crate::domain::money::Fen,
    ) -> Result<MoveDone, OrderFailure> {
        self.send(
            order_no,
            Mover::System,
            Command::PaymentSucceeded,
            paid,
            Some(payment_id.to_string()),
        )
        .await
    }

    async fn send(
        &self,
        order_no: &str,
        mover: Mover,
        command: Command,
        paid: crate::domain::money::Fen,
        paid_by: Option<String>,
    ) -> Result<MoveDone, OrderFailure> {
        let msg = || Move {
            mover,
            command: command.clone(),
            paid,
            paid_by: paid_by.clone(),
        };
        for _ in 0..2 {
            match self.session(order_no).send(msg()).await {
                Ok(result) => {
                    if let (Ok(done), Some(loyalty)) = (&result, self.loyalty.get()) {
                        loyalty.order_moved(order_no, done.transition.state).await;
                    }
                    if let (Ok(done), Some(coupons)) = (&result, self.coupons.get()) {
                        coupons.order_moved(order_no, done.transition.state).await;
                    }
                    return result;
                }
                Err(_) => self.forget(order_no),
            }
        }
        Err(OrderFailure::Unavailable)
    }

    /// A new order that reaches the store at once (cash on delivery): the tablets get it.
    pub async fn announce_new(&self, order_no: &str) -> Result<(), OrderFailure> {
        let row = self
            .repo
            .find(order_no)
            .await?
            .ok_or(OrderFailure::NotFound)?;
        let history = self.repo.history(order_no).await?;
        let event = crate::bus::Event::TabletOrder {
            store_code: row.store_code.clone(),
            new: true,
            order: {
                let mut card = view::tablet_order(&row, &history);
                let store = self.stores.store(&row.store_code).await;
                view::stamp_arrival(&mut card, store.as_ref(), self.clock.now_ms());
                serde_json::to_value(card).unwrap_or_default()
            },
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, order_no, "order:new not published");
        }
        Ok(())
    }

    /// Sessions stop after `idle` without work (`[memory] session_idle_seconds`).
    pub fn with_idle(mut self, idle: Duration) -> OrderRegistry {
        self.idle = idle;
        self
    }

    fn session(&self, order_no: &str) -> Addr<OrderSession> {
        self.sessions.get_or_start(&order_no.to_string(), || {
            let session = OrderSession::new(
                order_no.to_string(),
                self.repo.clone(),
                self.stores.clone(),
                self.bus.clone(),
                self.clock.clone(),
                self.idle,
            );
            OrderSession::start_in_arbiter(&self.arbiter, |_| session)
        })
    }

    /// How many order sessions are alive in this process.
    pub fn live_sessions(&self) -> usize {
        self.sessions.live()
    }

    /// Drops the entries of sessions that stopped (the memory sweep).
    pub fn prune(&self) {
        self.sessions.prune();
    }

    /// Registry entries held, stopped sessions' included (for tests).
    pub fn held_sessions(&self) -> usize {
        self.sessions.held()
    }

    fn forget(&self, order_no: &str) {
        self.sessions.forget(&order_no.to_string());
    }
}
