//! Expiry asks before it closes (issue 20, point 4). An attempt past its 30 minutes is first
//! queried: paid settles (refunded if the order cannot take it); otherwise it is closed at the
//! provider (Alipay's trade close), which answers paid if the payer beat the close; only then
//! is the row closed and the order cancelled, and only if no other attempt of the order is
//! still open. A provider that cannot be reached leaves the attempt for the next run: an order
//! is never cancelled on a guess.

use super::core::{PaymentCore, ATTEMPTS};
use super::session::{Close, Expire};
use super::{PayFailure, PaymentService};
use crate::bus::PaymentOutcome;
use crate::db::payments::{PaymentChange, PaymentRow};
use crate::domain::ordering::order_machine::Command;
use crate::domain::payments::state::PaymentState;
use crate::providers::payment::{
    CloseOutcome, PaymentError, ProviderPaymentStatus, TRADE_NOT_EXIST,
};

/// Why an open attempt is closed: its time ran out, or the customer cancelled the order
/// (recorded as the row's `fail_reason`, told in the payer's language).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    Expired,
    OrderCancelled,
}

impl CloseReason {
    pub fn as_str(self) -> &'static str {
        match self {
            CloseReason::Expired => "expired",
            CloseReason::OrderCancelled => "order_cancelled",
        }
    }
}

/// Attempts that can still be paid or whose expiry has not run yet.
pub(super) fn open(state: PaymentState) -> bool {
    state.is_open()
}

/// The provider has no such trade: our create never reached it, so nothing can be paid.
fn unknown_trade(e: &PaymentError) -> bool {
    matches!(e, PaymentError::Rejected { code, .. } if code == TRADE_NOT_EXIST)
}

impl PaymentService {
    /// The periodic sweep: expiry for every open attempt past its 30 minutes, each in its
    /// session, then the owed refunds and interrupted settlements. Answers how many attempts
    /// it settled or closed; one the provider could not answer for is logged and left for the
    /// next run. The sessions' own timers expire this node's attempts on time; the sweep is
    /// the backstop (see the module doc of [`super`]).
    pub async fn expire_due(&self) -> Result<usize, PayFailure> {
        let due = self.repo().expired(self.core.clock.now_ms()).await?;
        let mut done = 0;
        for p in due.iter().filter(|p| self.core.owns(p)) {
            match self.ask(&p.payment_id, Expire).await {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, payment = %p.payment_id, "payment expiry left for the next run")
                }
            }
        }
        self.settle_owed().await?;
        Ok(done)
    }

    /// Closes every attempt of a cancelled order that could still be paid, the way expiry
    /// does (asked, then closed at the provider; one paid meanwhile settles and, the order
    /// being cancelled, is refunded), so a cashier left open cannot take money for an order
    /// that no longer exists. Answers how many it settled or closed; an attempt the provider
    /// could not answer for is left to its own expiry.
    pub async fn close_open_attempts(&self, order_no: &str) -> Result<usize, PayFailure> {
        let mut done = 0;
        for p in self.repo().for_order(order_no).await? {
            if !open(p.state) {
                continue;
            }
            match self
                .ask(&p.payment_id, Close(CloseReason::OrderCancelled))
                .await
            {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, payment = %p.payment_id, "closing an attempt of a cancelled order left to its expiry")
                }
            }
        }
        Ok(done)
    }
}

impl PaymentCore {
    /// One attempt's expiry: asked, then closed at the provider, then here. False when it had
    /// already been settled or closed by someone else.
    pub(super) async fn expire_one(&self, p: &PaymentRow) -> Result<bool, PayFailure> {
        self.close_one(p, CloseReason::Expired).await
    }

    pub(super) async fn close_one(
        &self,
        p: &PaymentRow,
        reason: CloseReason,
    ) -> Result<bool, PayFailure> {
        let paid = match self.provider.query(&p.payment_id).await {
            Ok(ProviderPaymentStatus::Paid {
                trade_no, amount, ..
            }) => Some((trade_no, amount)),
            Ok(_) => None,
            Err(e) if unknown_trade(&e) => None,
            Err(e) => return Err(e.into()),
        };
        let paid = match paid {
            Some(paid) => Some(paid),
            None => match self.provider.close(&p.payment_id).await {
                Ok(CloseOutcome::Paid {
                    trade_no, amount, ..
                }) => Some((trade_no, amount)),
                Ok(CloseOutcome::Closed) => None,
                Err(e) if unknown_trade(&e) => None,
                Err(e) => return Err(e.into()),
            },
        };
        if let Some((trade_no, amount)) = paid {
            self.settle_paid(&p.payment_id, &trade_no, amount).await?;
            return Ok(true);
        }
        self.mark_closed(p, reason).await
    }

    /// The attempt is closed at the provider: closed here, and the order cancelled unless
    /// another attempt is still open (its own expiry decides then) or paid it (the order's
    /// state machine refuses the move).
    async fn mark_closed(&self, p: &PaymentRow, reason: CloseReason) -> Result<bool, PayFailure> {
        let now = self.clock.now_ms();
        let mut p = p.clone();
        let mut closed = false;
        for _ in 0..ATTEMPTS {
            if !open(p.state) {
                return Ok(false);
            }
            let change = PaymentChange {
                fail_reason: Some(reason.as_str().into()),
                ..PaymentChange::to(PaymentState::Closed)
            };
            if self.change(&p, &change, now).await? {
                closed = true;
                break;
            }
            p = self
                .repo
                .get(&p.payment_id)
                .await?
                .ok_or(PayFailure::NotFound)?;
        }
        if !closed {
            return Err(PayFailure::Contended);
        }
        if reason == CloseReason::OrderCancelled {
            // The order is cancelled already: nothing to move.
            self.announce(&p, PaymentOutcome::Closed, now).await;
            return Ok(true);
        }
        // Read after our own close: of two attempts closing at once, the later reader sees
        // both closed and cancels.
        let others_open = self
            .repo
            .for_order(&p.order_no)
            .await?
            .iter()
            .any(|x| x.payment_id != p.payment_id && open(x.state));
        if !others_open {
            self.move_if_possible(&p.order_no, Command::PaymentExpired)
                .await?;
        }
        self.announce(&p, PaymentOutcome::Closed, now).await;
        Ok(true)
    }
}
