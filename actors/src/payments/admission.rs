//! Whether a pay request opens a trade (issue 34, item 5): the rules are
//! [`crate::domain::payments::attempts`]; here they are asked under a lock on the user's row
//! (PostgreSQL's row lock, SQLite's write lock), so two requests on two nodes cannot both see
//! room under a ceiling, nor both find no open attempt and both open one. The new attempt's row
//! is written in the same transaction; the provider is asked after it commits.

use super::core::{PayRequest, PaymentCore};
use super::session::Deadline;
use super::{PayFailure, PaymentService, PAYMENT_LIFETIME_MS};
use crate::db::locks::lock_user;
use crate::db::orders::{OrderRepo, OrderRow};
use crate::db::payments::{for_order_in, insert_in, user_created_since_in, PaymentRow};
use crate::db::DbError;
use crate::domain::money::Fen;
use crate::domain::ordering::order_machine::state as s;
use crate::domain::payments::attempts::{
    admit, Admission, AttemptLimits, Existing, Request, USER_WINDOW_MS,
};
use crate::domain::payments::state::PaymentState;
use crate::providers::payment::{PayInstructions, PayMethod};
use std::time::{Duration, Instant};

/// How long a request waits for another request's attempt of the same method to be opened
/// (the provider answering it) before it answers [`PayFailure::Contended`] (409, try again).
const IN_FLIGHT_WAIT: Duration = Duration::from_secs(10);
/// How often it looks while it waits.
const IN_FLIGHT_POLL: Duration = Duration::from_millis(25);
/// How many times an attempt found open may turn out settled or closed when asked, before the
/// request gives up (each time the order decides again).
const REUSE_ROUNDS: usize = 3;

/// What the admission decided, the row read or written under the lock.
enum Admitted {
    /// A new attempt, written `created`: open it at the provider.
    Opened(Box<PaymentRow>),
    Reuse(String),
    InFlight,
}

impl PaymentService {
    /// A pay request for `order` with `method`: the order's open attempt of that method handed
    /// out again (the provider asked first, so one paid, failed or closed at the cashier
    /// meanwhile is settled and not handed out), or a new attempt: its row written (created)
    /// within the ceilings, the provider asked, the row moved to pending with its
    /// instructions, then its session started with the timer armed for created + 30 minutes
    /// (a failed create too: a failed attempt is open until its expiry, which may cancel the
    /// order). Past a ceiling: [`PayFailure::Refused`], and nothing is opened.
    pub async fn create(
        &self,
        order: &OrderRow,
        method: PayMethod,
        request: PayRequest,
    ) -> Result<(PaymentRow, PayInstructions), PayFailure> {
        let waiting_since = Instant::now();
        let mut order = order.clone();
        let mut reuses_missed = 0;
        loop {
            match self.core.admit(&order, method, self.limits).await? {
                Admitted::Opened(row) => {
                    let payment_id = row.payment_id.clone();
                    let opened = self
                        .core
                        .open_at_provider(*row, &order, method, request)
                        .await;
                    if let Ok((row, _)) = &opened {
                        // The row was just written: the session arms its timer from it.
                        self.start_knowing(row);
                    }
                    if !matches!(opened, Err(PayFailure::Db(_))) {
                        // Answered once the session has armed the timer, so the timer counts
                        // from the clock of the create.
                        if let Err(e) = self.ask(&payment_id, Deadline).await {
                            tracing::warn!(error = %e, payment = %payment_id, "payment session not started; the sweep expires it");
                        }
                    }
                    return opened;
                }
                Admitted::Reuse(payment_id) => {
                    let row = self.refresh(&payment_id).await?;
                    let instructions = row
                        .instructions
                        .clone()
                        .and_then(|i| serde_json::from_value::<PayInstructions>(i).ok());
                    match instructions {
                        Some(instructions) if row.state == PaymentState::Pending => {
                            tracing::info!(payment = %payment_id, order_no = %order.order_no, "open attempt handed out again");
                            return Ok((row, instructions));
                        }
                        // Settled or closed meanwhile: the order, as it is now, decides again.
                        _ if reuses_missed < REUSE_ROUNDS => {
                            reuses_missed += 1;
                            order = OrderRepo::new(self.repo().db().clone())
                                .find_head(&order.order_no)
                                .await?
                                .ok_or(PayFailure::NotPayable)?;
                        }
                        _ => return Err(PayFailure::Contended),
                    }
                }
                Admitted::InFlight => {
                    if waiting_since.elapsed() >= IN_FLIGHT_WAIT {
                        return Err(PayFailure::Contended);
                    }
                    tokio::time::sleep(IN_FLIGHT_POLL).await;
                }
            }
        }
    }
}

impl PaymentCore {
    /// The rules asked under the user's lock; a new attempt's row is written before the lock
    /// goes.
    async fn admit(
        &self,
        order: &OrderRow,
        method: PayMethod,
        limits: AttemptLimits,
    ) -> Result<Admitted, PayFailure> {
        if !matches!(order.state, s::UNPAID | s::PAYMENT_FAILED) {
            return Err(PayFailure::NotPayable);
        }
        let now = self.clock.now_ms();
        let amount = order.order_amount - order.paid_amount;
        let mut tx = self.repo.db().pool().begin().await.map_err(DbError::from)?;
        lock_user(&mut tx, order.user_id).await?;
        let attempts = for_order_in(&mut tx, &order.order_no).await?;
        let recent = user_created_since_in(&mut tx, order.user_id, now - USER_WINDOW_MS).await?;
        let existing: Vec<Existing<'_>> = attempts.iter().map(existing).collect();
        let request = Request {
            method: method.as_str(),
            amount,
            now,
        };
        let admitted = match admit(&existing, &recent, request, limits) {
            Ok(Admission::Reuse(id)) => Admitted::Reuse(id.to_string()),
            Ok(Admission::InFlight(_)) => Admitted::InFlight,
            Ok(Admission::Open) => {
                let row = new_attempt(order, method, self.provider.name(), amount, now);
                insert_in(&mut tx, &row).await?;
                tx.commit().await.map_err(DbError::from)?;
                self.changed(&row.order_no).await;
                return Ok(Admitted::Opened(Box::new(row)));
            }
            Err(refusal) => {
                tracing::info!(order_no = %order.order_no, user_id = order.user_id, ?refusal, "payment attempt refused");
                return Err(PayFailure::Refused(refusal));
            }
        };
        // Nothing written: dropping the transaction rolls it back and frees the lock.
        Ok(admitted)
    }
}

fn existing(p: &PaymentRow) -> Existing<'_> {
    Existing {
        payment_id: &p.payment_id,
        method: &p.method,
        state: p.state,
        amount: p.amount,
        created_at: p.created_at,
        expires_at: p.expires_at,
    }
}

fn new_attempt(
    order: &OrderRow,
    method: PayMethod,
    provider: &str,
    amount: Fen,
    now: i64,
) -> PaymentRow {
    PaymentRow {
        // 24 hex digits (96 random bits): unguessable, and a code the API accepts.
        payment_id: format!("P{}", &uuid::Uuid::new_v4().simple().to_string()[..24]),
        order_no: order.order_no.clone(),
        user_id: order.user_id,
        method: method.as_str().to_string(),
        provider: provider.to_string(),
        amount,
        state: PaymentState::Created,
        provider_trade_no: None,
        instructions: None,
        fail_reason: None,
        refunded: Fen::ZERO,
        refund_reason: None,
        refund_error: None,
        refund_attempts: 0,
        created_at: now,
        expires_at: now + PAYMENT_LIFETIME_MS,
        updated_at: now,
        version: 1,
    }
}
