//! Payment attempts: one row per attempt, moved created → pending → paid / failed / closed,
//! and a paid attempt that does not keep the order's money → refunding → refunded. Every change
//! is written (under the row's version) before the order moves and before anyone is told, so a
//! notify replayed, delivered twice at once, or overtaken by the customer's return (query)
//! changes things once.
//!
//! - [`session`]: one [`PaymentSession`] actor per attempt (virtual: started on first use,
//!   stopped when idle and no timer is pending) runs its notify, query, expiry, close and
//!   refund one at a time, and owns its 30-minute timer: armed when the attempt is created (or
//!   its session activated), re-armed for every open attempt at start-up
//!   ([`PaymentService::restore_open`]), one already past its deadline expiring at once.
//!   The session removes the races inside one process (a notify and the customer's query of
//!   the same attempt at once ask the provider one after the other); between nodes the row's
//!   version (compare-and-set) stays the guard, as before.
//! - [`admission`]: whether a pay request opens a trade: the order's open attempt of the method
//!   handed out again, or a new one within the ceilings per order and per user a minute,
//!   decided under a lock on the user's row so that two nodes agree (issue 34).
//! - [`settle`]: one settlement per order. The first paid attempt to make the order's payment
//!   move claims the order's `paid_by` in the same write; every other paid attempt is refunded
//!   with a fixed refund id, and a refund the provider cannot make now stays owed until the
//!   housekeeping job gets it through.
//! - [`expiry`]: at 30 minutes an attempt is asked about before anything is closed: paid
//!   settles, unpaid is closed at the provider, then the order is cancelled.
//! - A notify settles nothing the provider's own query does not confirm.
//!
//! **The periodic sweep stays, as a backstop** ([`PaymentService::expire_due`], every 15 s):
//! a timer lives in one process. An attempt created on a node that died after start-up has a
//! timer nowhere until some node restarts; a timer whose expiry found the provider down retries
//! only on its own node; and another node's attempt activated here on demand (its notify came
//! to us) is armed only if its deadline is still ahead. The sweep stays correct with the actor
//! because it does not expire anything itself: each due attempt goes through its session, so it
//! queues behind (and then sees the result of) the timer's own expiry, and across nodes the
//! compare-and-set decides as it always did. The owed refunds' retries stay with the sweep too.

mod admission;
mod core;
mod expiry;
pub mod session;
mod settle;

pub use self::core::PayRequest;
pub use crate::domain::payments::attempts::{AttemptLimits, AttemptRefusal};
pub use expiry::CloseReason;
pub use session::PaymentSession;
pub use settle::{refund_id, Outcome};

use crate::actor_registry::{ActorRegistry, IDLE};
use crate::clock::Clock;
use crate::db::payments::{PaymentRepo, PaymentRow};
use crate::db::DbError;
use crate::domain::money::Fen;
use crate::orders::{OrderFailure, OrderRegistry};
use crate::providers::payment::{NotifyStatus, PaymentError, PaymentProvider};
use actix::{Actor, Addr, ArbiterHandle, Handler, Message};
use session::{Deadline, Due, Notify, Query};
use std::sync::Arc;
use std::time::Duration;

pub mod reconcile;

/// The pay-in-progress record lives 30 minutes (spec §3, §9); so does an attempt.
pub const PAYMENT_LIFETIME_MS: i64 = 30 * 60_000;

#[derive(Debug, thiserror::Error)]
pub enum PayFailure {
    #[error("the order cannot be paid now")]
    NotPayable,
    #[error("no such payment")]
    NotFound,
    #[error("the notify's amount {got} differs from the payment's {want}")]
    AmountMismatch { want: Fen, got: Fen },
    #[error(transparent)]
    Provider(#[from] PaymentError),
    #[error(transparent)]
    Order(#[from] OrderFailure),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("the payment kept changing under concurrent writers")]
    Contended,
    /// A notify the provider's own answer does not confirm (another trade number or amount,
    /// or not paid): nothing changed.
    #[error("the provider does not confirm the notify: {0}")]
    Unconfirmed(String),
    /// The attempt's session stopped twice under the caller (the actor thread is going away).
    #[error("payment session unavailable")]
    Unavailable,
    /// No new attempt past a ceiling (per order, per user and minute): nothing was opened.
    #[error("payment attempt refused: {0:?}")]
    Refused(AttemptRefusal),
}

/// What a settle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    Applied,
    AlreadyApplied,
}

/// The payment service: each attempt's work runs in its [`PaymentSession`]; this answers for
/// them and finds (or starts) the session of an attempt.
pub struct PaymentService {
    core: Arc<core::PaymentCore>,
    arbiter: ArbiterHandle,
    idle: Duration,
    limits: AttemptLimits,
    sessions: ActorRegistry<String, PaymentSession>,
}

/// What [`PaymentService::restore_open`] found at start-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Restored {
    /// Open attempts whose timer was armed for their deadline.
    pub armed: usize,
    /// Open attempts already past their deadline, expired at once (settled or closed).
    pub expired: usize,
    /// Past their deadline but the provider could not answer: their sessions retry.
    pub left: usize,
}

impl PaymentService {
    /// `arbiter`: where the sessions run (see `actor_thread`).
    pub fn new(
        repo: PaymentRepo,
        provider: Arc<dyn PaymentProvider>,
        orders: Arc<OrderRegistry>,
        bus: Arc<dyn crate::bus::Bus>,
        clock: Clock,
        arbiter: ArbiterHandle,
    ) -> PaymentService {
        PaymentService {
            core: Arc::new(core::PaymentCore::new(repo, provider, orders, bus, clock)),
            arbiter,
            idle: IDLE,
            limits: AttemptLimits::default(),
            sessions: ActorRegistry::default(),
        }
    }

    /// Sessions stop after `idle` without work (and no timer pending); tests shorten it.
    pub fn with_idle(mut self, idle: Duration) -> PaymentService {
        self.idle = idle;
        self
    }

    /// The ceilings on new attempts (`[payment]` in the configuration).
    pub fn with_limits(mut self, limits: AttemptLimits) -> PaymentService {
        self.limits = limits;
        self
    }

    pub fn repo(&self) -> &PaymentRepo {
        &self.core.repo
    }

    pub fn provider(&self) -> &dyn PaymentProvider {
        self.core.provider.as_ref()
    }

    /// A provider notify, its signature verified, in the attempt's session: only what the
    /// provider's own query confirms is applied; a payment id we never issued is
    /// [`PayFailure::NotFound`] (and starts no session).
    pub async fn on_notify(
        &self,
        payment_id: &str,
        trade_no: &str,
        status: NotifyStatus,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        // A payment id we never issued is answered NotFound by its session (the notify is
        // signed: only the provider sends one), so it is not looked up here first.
        let msg = Notify {
            trade_no: trade_no.to_string(),
            status,
            amount,
        };
        self.ask(payment_id, msg).await
    }

    /// The payment as it stands, asked in its session: a
    /// pending one is checked with the provider, one past its 30 minutes goes through expiry.
    pub async fn refresh(&self, payment_id: &str) -> Result<PaymentRow, PayFailure> {
        self.ask(payment_id, Query).await
    }

    /// At start-up: a session for every open attempt of this provider. Those still within
    /// their 30 minutes arm their timer; those past it expire at once (asked, then settled or
    /// closed), and one the provider cannot answer for now is retried by its session. Every
    /// node restores every open attempt: a timer on two nodes costs a second query, and the
    /// compare-and-set lets one expiry win.
    pub async fn restore_open(&self) -> Result<Restored, PayFailure> {
        let now = self.core.clock.now_ms();
        let mut restored = Restored::default();
        let open = self.repo().open_attempts().await?;
        for p in open.iter().filter(|p| self.core.owns(p)) {
            if p.expires_at > now {
                // Answered once the session has read its row and armed its timer.
                if self.ask(&p.payment_id, Deadline).await?.is_some() {
                    restored.armed += 1;
                }
                continue;
            }
            match self.ask(&p.payment_id, Due).await {
                Ok(_) => restored.expired += 1,
                Err(e) => {
                    tracing::warn!(error = %e, payment = %p.payment_id, "overdue payment left to its session's retry");
                    restored.left += 1;
                }
            }
        }
        Ok(restored)
    }

    /// The deadline the attempt's session has armed its timer for, if any (starting the
    /// session if it was not running).
    pub async fn timer_deadline(&self, payment_id: &str) -> Result<Option<i64>, PayFailure> {
        self.ask(payment_id, Deadline).await
    }

    /// How many payment sessions are alive in this process.
    pub fn live_sessions(&self) -> usize {
        self.sessions.live()
    }

    /// Sends `msg` to the attempt's session and waits for its answer; a session that stopped
    /// (idle) between lookup and send is started again once.
    async fn ask<M, T>(&self, payment_id: &str, msg: M) -> Result<T, PayFailure>
    where
        M: Message<Result = Result<T, PayFailure>> + Clone + Send + 'static,
        T: Send + 'static,
        PaymentSession: Handler<M>,
    {
        for _ in 0..2 {
            match self.session(payment_id).send(msg.clone()).await {
                Ok(answer) => return answer,
                Err(_) => self.forget(payment_id),
            }
        }
        Err(PayFailure::Unavailable)
    }

    fn session(&self, payment_id: &str) -> Addr<PaymentSession> {
        self.sessions.get_or_start(&payment_id.to_string(), || {
            let session = PaymentSession::new(payment_id.to_string(), self.core.clone(), self.idle);
            PaymentSession::start_in_arbiter(&self.arbiter, |_| session)
        })
    }

    /// Starts the session of an attempt whose row was just written (unless one runs): it arms
    /// its timer from `row` instead of reading it back.
    fn start_knowing(&self, row: &PaymentRow) {
        self.sessions.get_or_start(&row.payment_id, || {
            let session = PaymentSession::new(row.payment_id.clone(), self.core.clone(), self.idle)
                .knowing(row.state, row.expires_at);
            PaymentSession::start_in_arbiter(&self.arbiter, |_| session)
        });
    }

    fn forget(&self, payment_id: &str) {
        self.sessions.forget(&payment_id.to_string());
    }

    /// Drops the entries of sessions that stopped (the memory sweep).
    pub fn prune(&self) {
        self.sessions.prune();
    }

    /// Registry entries held, stopped sessions' included (for tests).
    pub fn held_sessions(&self) -> usize {
        self.sessions.held()
    }
}
