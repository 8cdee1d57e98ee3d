//! One settlement per order. Whatever the order in which attempts are paid, notified, queried
//! or expired, the first paid attempt to make the order's payment move keeps the money: the
//! move claims the order's `paid_by` in the same write, only while it is empty
//! ([`crate::orders::OrderRegistry::settle_move`]). Every other paid attempt, and the kept one
//! of an order cancelled or refused afterwards, is refunded: the row goes `refunding` with its
//! reason first (the refund is owed from then on, whatever happens next), then the provider is
//! asked with the refund id fixed per payment, so asking again is the same refund, never a
//! second one; then the row goes `refunded`. A provider that cannot refund now leaves the row
//! `refunding`, and [`PaymentService::settle_owed`] (the housekeeping job) asks again, waiting
//! longer after each failure ([`refund_retry_due`]).

use super::core::{PaymentCore, ATTEMPTS};
use super::session::{Decide, RefundKept, SettlePaid};
use super::{PayFailure, PaymentService, Settled};
use crate::bus::PaymentOutcome;
use crate::db::payments::{PaymentChange, PaymentRow};
use crate::domain::money::Fen;
use crate::domain::payments::settlement::{refund_retry_due, verdict, RefundReason, Verdict};
use crate::domain::payments::state::PaymentState;
use crate::orders::OrderFailure;
use crate::providers::payment::PaymentError;

/// What became of a paid attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It settled the order: the money stays.
    Kept,
    /// Given back, now or before.
    Refunded,
    /// Owed: the provider did not refund it yet (its answer); retried by the housekeeping job.
    Owed(PaymentError),
    /// Not paid (nothing to decide).
    NotPaid,
}

/// The refund id of a payment: one per payment, so a retry is the same refund.
pub fn refund_id(payment_id: &str) -> String {
    format!("{payment_id}-refund")
}

impl PaymentCore {
    /// The provider says the payment is paid (a confirmed notify, a query, expiry, or
    /// reconciliation), in the attempt's session. Checks the amount, marks the payment paid once, then decides it: the
    /// order's payment move if nobody settled the order yet (the customer is told), a refund
    /// otherwise. Called again for a paid payment, it finishes what an interruption left.
    pub(super) async fn settle_paid(
        &self,
        payment_id: &str,
        trade_no: &str,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        self.settle_paid_from(None, payment_id, trade_no, amount)
            .await
    }

    /// [`settle_paid`](Self::settle_paid) starting from the row the caller just read (in
    /// the same session turn); a stale one loses its compare-and-set and is read again.
    pub(super) async fn settle_paid_from(
        &self,
        read: Option<PaymentRow>,
        payment_id: &str,
        trade_no: &str,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        let mut read = read;
        for _ in 0..ATTEMPTS {
            let p = match read.take() {
                Some(p) => p,
                None => self
                    .repo
                    .get(payment_id)
                    .await?
                    .ok_or(PayFailure::NotFound)?,
            };
            if amount != p.amount {
                return Err(PayFailure::AmountMismatch {
                    want: p.amount,
                    got: amount,
                });
            }
            if matches!(
                p.state,
                PaymentState::Paid | PaymentState::Refunding | PaymentState::Refunded
            ) {
                self.decide(&p).await?;
                return Ok(Settled::AlreadyApplied);
            }
            let now = self.clock.now_ms();
            let change = PaymentChange {
                provider_trade_no: Some(trade_no.to_string()),
                ..PaymentChange::to(PaymentState::Paid)
            };
            if !self.change(&p, &change, now).await? {
                continue;
            }
            let paid = PaymentRow {
                state: PaymentState::Paid,
                provider_trade_no: Some(trade_no.to_string()),
                version: p.version + 1,
                updated_at: now,
                ..p
            };
            if self.decide(&paid).await? == Outcome::Kept {
                self.announce(&paid, PaymentOutcome::Paid, now).await;
            }
            return Ok(Settled::Applied);
        }
        Err(PayFailure::Contended)
    }

    /// Keeps or refunds a paid attempt, finishes an owed refund. The only decision written
    /// here is the order's payment move (a compare-and-set on `paid_by`); everything else
    /// follows from facts that never change once set (see [`verdict`]).
    pub(super) async fn decide(&self, p: &PaymentRow) -> Result<Outcome, PayFailure> {
        match p.state {
            PaymentState::Paid => {}
            PaymentState::Refunding => return self.finish_refund(p).await,
            PaymentState::Refunded => return Ok(Outcome::Refunded),
            _ => return Ok(Outcome::NotPaid),
        }
        for _ in 0..ATTEMPTS {
            let (state, paid_by) = self
                .orders
                .repo()
                .settlement(&p.order_no)
                .await?
                .ok_or(OrderFailure::NotFound)?;
            match verdict(&p.payment_id, state, paid_by.as_deref()) {
                Verdict::Keep => return Ok(Outcome::Kept),
                Verdict::Refund(reason) => return self.start_refund(p, reason).await,
                Verdict::Undecided => {
                    match self
                        .orders
                        .settle_move(&p.order_no, &p.payment_id, p.amount)
                        .await
                    {
                        Ok(_) => return Ok(Outcome::Kept),
                        // The order moved first (another attempt, a cancel): read what decided.
                        Err(OrderFailure::Refused(_)) => continue,
                        Err(e) => return Err(e.into()),
                    }
                }
            }
        }
        Err(PayFailure::Contended)
    }

    /// The chain refunds a completed order in full: the attempt that keeps its money is
    /// refunded (owed first, then asked for, like every other refund). Only the kept attempt of
    /// a completed order; anything else is decided as usual.
    pub(super) async fn refund_kept(&self, p: &PaymentRow) -> Result<Outcome, PayFailure> {
        let (state, paid_by) = self
            .orders
            .repo()
            .settlement(&p.order_no)
            .await?
            .ok_or(OrderFailure::NotFound)?;
        let kept = paid_by.as_deref() == Some(p.payment_id.as_str());
        if p.state == PaymentState::Paid
            && kept
            && state == crate::domain::ordering::order_machine::state::COMPLETED
        {
            return self.start_refund(p, RefundReason::OrderRefunded).await;
        }
        self.decide(p).await
    }

    /// Records that `p`'s money is owed back and why, then asks the provider.
    async fn start_refund(
        &self,
        p: &PaymentRow,
        reason: RefundReason,
    ) -> Result<Outcome, PayFailure> {
        let mut p = p.clone();
        for _ in 0..ATTEMPTS {
            match p.state {
                PaymentState::Paid => {}
                PaymentState::Refunding => return self.finish_refund(&p).await,
                PaymentState::Refunded => return Ok(Outcome::Refunded),
                _ => return Ok(Outcome::NotPaid),
            }
            let change = PaymentChange {
                refund_reason: Some(reason.as_str().into()),
                ..PaymentChange::to(PaymentState::Refunding)
            };
            if self.change(&p, &change, self.clock.now_ms()).await? {
                tracing::warn!(payment = %p.payment_id, order = %p.order_no, reason = reason.as_str(),
                    "paid attempt does not keep the money: refunding");
                p.state = change.state;
                p.refund_reason = change.refund_reason;
                p.version += 1;
                return self.finish_refund(&p).await;
            }
            p = self
                .repo
                .get(&p.payment_id)
                .await?
                .ok_or(PayFailure::NotFound)?;
        }
        Err(PayFailure::Contended)
    }

    /// Asks the provider for an owed refund (the whole amount, the fixed refund id) and marks
    /// the row refunded; a failure is recorded on the row and left owed.
    async fn finish_refund(&self, p: &PaymentRow) -> Result<Outcome, PayFailure> {
        let result = self
            .provider
            .refund(&p.payment_id, &refund_id(&p.payment_id), p.amount)
            .await;
        let now = self.clock.now_ms();
        match result {
            Ok(done) => {
                let change = PaymentChange {
                    refunded: Some(done.refunded_total),
                    ..PaymentChange::to(PaymentState::Refunded)
                };
                // Lost only to another finisher of the same refund (same id, same result).
                if self.change(p, &change, now).await? {
                    metrics::counter!("payment_outcomes_total", "outcome" => "refunded")
                        .increment(1);
                }
                Ok(Outcome::Refunded)
            }
            Err(e) => {
                tracing::warn!(error = %e, payment = %p.payment_id, "refund owed: the provider did not make it");
                let change = PaymentChange {
                    refund_error: Some(e.to_string()),
                    ..PaymentChange::to(PaymentState::Refunding)
                };
                self.change(p, &change, now).await?;
                Ok(Outcome::Owed(e))
            }
        }
    }
}

/// The same, for callers outside a session: each attempt's part runs in its session.
impl PaymentService {
    /// The provider says the payment is paid (reconciliation's missed notify): settled in the
    /// attempt's session.
    pub async fn settle_paid(
        &self,
        payment_id: &str,
        trade_no: &str,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        let msg = SettlePaid {
            trade_no: trade_no.to_string(),
            amount,
        };
        self.ask(payment_id, msg).await
    }

    /// Refunds whatever the order's attempts paid and may not keep (a refused or cancelled
    /// order gives back even the settling attempt). Answers what was refunded now; a refund
    /// the provider refused is the error (spec §8 alert), one it could not make now stays owed
    /// and is retried by the housekeeping job.
    pub async fn refund_order(&self, order_no: &str) -> Result<Fen, PayFailure> {
        let mut total = Fen::ZERO;
        let mut refused = None;
        for p in self.repo().for_order(order_no).await? {
            match self.ask(&p.payment_id, Decide).await? {
                Outcome::Refunded if p.state != PaymentState::Refunded => total += p.amount,
                Outcome::Owed(e @ PaymentError::Rejected { .. }) => refused = Some(e),
                _ => {}
            }
        }
        match refused {
            Some(e) => Err(e.into()),
            None => Ok(total),
        }
    }

    /// The chain's full refund of a completed order: its kept attempt is refunded. Answers what
    /// was refunded now; a refused refund is the error, one the provider could not make now
    /// stays owed (the housekeeping job asks again).
    pub async fn refund_completed(&self, order_no: &str) -> Result<Fen, PayFailure> {
        let mut total = Fen::ZERO;
        for p in self.repo().for_order(order_no).await? {
            match self.ask(&p.payment_id, RefundKept).await? {
                Outcome::Refunded if p.state != PaymentState::Refunded => total += p.amount,
                Outcome::Owed(e @ PaymentError::Rejected { .. }) => return Err(e.into()),
                _ => {}
            }
        }
        Ok(total)
    }

    /// Decides one paid attempt (see `PaymentCore::decide`): refunds it unless it is the
    /// standing order's settlement. For reconciliation.
    pub async fn refund_payment(&self, payment_id: &str) -> Result<Outcome, PayFailure> {
        self.ask(payment_id, Decide).await
    }

    /// The housekeeping pass: asks again for every owed refund, and decides every paid attempt
    /// whose settlement was interrupted. Answers how many rows it finished; a row that fails
    /// is logged and left for the next run.
    pub async fn settle_owed(&self) -> Result<usize, PayFailure> {
        let now = self.core.clock.now_ms();
        let mut rows: Vec<PaymentRow> = self
            .repo()
            .owed_refunds()
            .await?
            .into_iter()
            .filter(|p| refund_retry_due(p.refund_attempts, p.updated_at, now))
            .collect();
        rows.extend(self.repo().unsettled_paid().await?);
        let mut finished = 0;
        for p in rows.into_iter().filter(|p| self.core.owns(p)) {
            match self.ask(&p.payment_id, Decide).await {
                Ok(Outcome::Kept | Outcome::Refunded) => finished += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, payment = %p.payment_id, "owed settlement left for the next run")
                }
            }
        }
        Ok(finished)
    }
}
