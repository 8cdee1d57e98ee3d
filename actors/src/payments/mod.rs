//! Payment sessions: one row per attempt, moved created → pending → paid / failed / closed →
//! refunded. Every change is written (under the row's version) before the order moves and
//! before anyone is told, so a notify replayed, delivered twice at once, or overtaken by the
//! customer's return (query) changes things once. A paid payment whose order could not move
//! (the write after it failed) is healed by the next notify or query: applying "paid" again is
//! harmless because the order's state machine refuses a second payment move.

use crate::bus::{Bus, Event, PaymentOutcome};
use crate::clock::Clock;
use crate::db::orders::OrderRow;
use crate::db::payments::{PaymentChange, PaymentRepo, PaymentRow};
use crate::db::DbError;
use crate::domain::money::Fen;
use crate::domain::order_machine::{state as s, Actor as Mover, Command, MoveError};
use crate::orders::{OrderFailure, OrderRegistry};
use crate::providers::payment::{
    CreatePayment, NotifyStatus, PayInstructions, PayMethod, PaymentError, PaymentProvider,
    ProviderPaymentStatus,
};
use std::sync::Arc;

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
}

/// What a settle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    Applied,
    AlreadyApplied,
}

pub struct PaymentService {
    repo: PaymentRepo,
    provider: Arc<dyn PaymentProvider>,
    orders: Arc<OrderRegistry>,
    bus: Arc<dyn Bus>,
    clock: Clock,
}

impl PaymentService {
    pub fn new(
        repo: PaymentRepo,
        provider: Arc<dyn PaymentProvider>,
        orders: Arc<OrderRegistry>,
        bus: Arc<dyn Bus>,
        clock: Clock,
    ) -> PaymentService {
        PaymentService {
            repo,
            provider,
            orders,
            bus,
            clock,
        }
    }

    pub fn repo(&self) -> &PaymentRepo {
        &self.repo
    }

    pub fn provider(&self) -> &dyn PaymentProvider {
        self.provider.as_ref()
    }

    /// Starts an attempt: the row is written (created), the provider asked, and the row moved to
    /// pending with its instructions before they are answered.
    pub async fn create(
        &self,
        order: &OrderRow,
        method: PayMethod,
        notify_url: String,
        return_url: String,
        client_ip: String,
        open_id: Option<String>,
    ) -> Result<(PaymentRow, PayInstructions), PayFailure> {
        if !matches!(order.state, s::UNPAID | s::PAYMENT_FAILED) {
            return Err(PayFailure::NotPayable);
        }
        let now = self.clock.now_ms();
        let amount = order.order_amount - order.paid_amount;
        let mut row = PaymentRow {
            // 24 hex digits (96 random bits): unguessable, and a code the API accepts.
            payment_id: format!("P{}", &uuid::Uuid::new_v4().simple().to_string()[..24]),
            order_no: order.order_no.clone(),
            user_id: order.user_id,
            method: method.as_str().to_string(),
            provider: self.provider.name().to_string(),
            amount,
            state: "created".into(),
            provider_trade_no: None,
            instructions: None,
            fail_reason: None,
            refunded: Fen::ZERO,
            created_at: now,
            expires_at: now + PAYMENT_LIFETIME_MS,
            updated_at: now,
            version: 1,
        };
        self.repo.insert(&row).await?;
        let request = CreatePayment {
            payment_id: row.payment_id.clone(),
            order_no: order.order_no.clone(),
            amount,
            subject: format!("比萨订单 {}", order.order_no),
            method,
            notify_url,
            return_url,
            client_ip,
            open_id,
            expires_at: row.expires_at,
        };
        match self.provider.create(&request).await {
            Ok(instructions) => {
                let change = PaymentChange {
                    state: "pending".into(),
                    provider_trade_no: Some(instructions.provider_trade_no.clone()),
                    instructions: serde_json::to_value(&instructions).ok(),
                    ..PaymentChange::default()
                };
                if !self.repo.change(&row, &change, now).await? {
                    return Err(PayFailure::Contended);
                }
                row.state = change.state;
                row.version += 1;
                row.instructions = change.instructions;
                Ok((row, instructions))
            }
            Err(e) => {
                let change = PaymentChange {
                    state: "failed".into(),
                    fail_reason: Some(e.to_string()),
                    ..PaymentChange::default()
                };
                self.repo.change(&row, &change, now).await?;
                Err(e.into())
            }
        }
    }

    /// The provider says the payment is paid (notify or query). Checks the amount, marks the
    /// payment paid once, moves the order, and tells the user. An order that can no longer be
    /// paid (cancelled, or paid by another attempt) gets this money back.
    pub async fn settle_paid(
        &self,
        payment_id: &str,
        trade_no: &str,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        for _ in 0..5 {
            let p = self
                .repo
                .get(payment_id)
                .await?
                .ok_or(PayFailure::NotFound)?;
            if amount != p.amount {
                return Err(PayFailure::AmountMismatch {
                    want: p.amount,
                    got: amount,
                });
            }
            match p.state.as_str() {
                "paid" | "refunded" => {
                    // Already recorded: make sure the order followed (heals a lost second write).
                    self.move_order_paid(&p).await?;
                    return Ok(Settled::AlreadyApplied);
                }
                _ => {}
            }
            let now = self.clock.now_ms();
            let change = PaymentChange {
                state: "paid".into(),
                provider_trade_no: Some(trade_no.to_string()),
                ..PaymentChange::default()
            };
            if !self.repo.change(&p, &change, now).await? {
                continue;
            }
            self.move_order_paid(&p).await?;
            self.announce(&p, PaymentOutcome::Paid, now).await;
            return Ok(Settled::Applied);
        }
        Err(PayFailure::Contended)
    }

    async fn move_order_paid(&self, p: &PaymentRow) -> Result<(), PayFailure> {
        match self
            .orders
            .make_move(
                &p.order_no,
                Mover::System,
                Command::PaymentSucceeded,
                p.amount,
            )
            .await
        {
            Ok(_) => Ok(()),
            // Paid already (by this attempt: a replay; nothing to do).
            Err(OrderFailure::Refused(MoveError::MovedOn)) if self.order_paid_by(p).await? => {
                Ok(())
            }
            // The order was cancelled or paid by another attempt meanwhile: give the money back.
            Err(OrderFailure::Refused(_)) => {
                tracing::warn!(payment = %p.payment_id, order = %p.order_no, "payment for an order that cannot take it: refunding");
                self.refund_payment(p.payment_id.as_str()).await.map(|_| ())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A system move that may legitimately no longer apply (the order moved on meanwhile).
    async fn move_if_possible(&self, order_no: &str, command: Command) -> Result<(), PayFailure> {
        match self
            .orders
            .make_move(order_no, Mover::System, command, Fen::ZERO)
            .await
        {
            Ok(_) | Err(OrderFailure::Refused(_)) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether this payment is the one the order counts as paid.
    async fn order_paid_by(&self, p: &PaymentRow) -> Result<bool, PayFailure> {
        let paid: Vec<PaymentRow> = self
            .repo
            .for_order(&p.order_no)
            .await?
            .into_iter()
            .filter(|x| x.state == "paid")
            .collect();
        Ok(paid
            .first()
            .is_some_and(|first| first.payment_id == p.payment_id))
    }

    /// The provider says the attempt failed or was cancelled: the order shows payment failed and
    /// can be paid again.
    pub async fn settle_failed(
        &self,
        payment_id: &str,
        reason: &str,
    ) -> Result<Settled, PayFailure> {
        for _ in 0..5 {
            let p = self
                .repo
                .get(payment_id)
                .await?
                .ok_or(PayFailure::NotFound)?;
            if p.state != "pending" && p.state != "created" {
                return Ok(Settled::AlreadyApplied);
            }
            let now = self.clock.now_ms();
            let change = PaymentChange {
                state: "failed".into(),
                fail_reason: Some(reason.to_string()),
                ..PaymentChange::default()
            };
            if !self.repo.change(&p, &change, now).await? {
                continue;
            }
            self.move_if_possible(&p.order_no, Command::PaymentFailed)
                .await?;
            self.announce(&p, PaymentOutcome::Failed, now).await;
            return Ok(Settled::Applied);
        }
        Err(PayFailure::Contended)
    }

    /// A provider notify, already verified.
    pub async fn on_notify(
        &self,
        payment_id: &str,
        trade_no: &str,
        status: NotifyStatus,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        match status {
            NotifyStatus::Paid => self.settle_paid(payment_id, trade_no, amount).await,
            NotifyStatus::Failed => {
                self.settle_failed(payment_id, "failed at the provider")
                    .await
            }
            NotifyStatus::Cancelled => {
                self.settle_failed(payment_id, "cancelled by the payer")
                    .await
            }
        }
    }

    /// The payment as it stands; a pending one is checked with the provider first, so a
    /// customer back before the notify never waits on a stale answer.
    pub async fn refresh(&self, payment_id: &str) -> Result<PaymentRow, PayFailure> {
        let p = self
            .repo
            .get(payment_id)
            .await?
            .ok_or(PayFailure::NotFound)?;
        if p.state == "pending" {
            if p.expires_at <= self.clock.now_ms() {
                self.close(&p).await?;
            } else {
                match self.provider.query(payment_id).await {
                    Ok(ProviderPaymentStatus::Paid {
                        trade_no, amount, ..
                    }) => {
                        self.settle_paid(payment_id, &trade_no, amount).await?;
                    }
                    Ok(ProviderPaymentStatus::Failed { reason }) => {
                        self.settle_failed(payment_id, &reason).await?;
                    }
                    Ok(ProviderPaymentStatus::Closed) => self.close(&p).await?,
                    Ok(ProviderPaymentStatus::Pending) => {}
                    // The provider being down must not break the status page: answer as stored.
                    Err(e) => tracing::warn!(error = %e, payment_id, "payment query failed"),
                }
            }
        }
        self.repo.get(payment_id).await?.ok_or(PayFailure::NotFound)
    }

    /// Closes every attempt past its 30 minutes, cancelling orders left unpaid.
    pub async fn expire_due(&self) -> Result<usize, PayFailure> {
        let due = self.repo.expired(self.clock.now_ms()).await?;
        for p in &due {
            self.close(p).await?;
        }
        Ok(due.len())
    }

    async fn close(&self, p: &PaymentRow) -> Result<(), PayFailure> {
        let now = self.clock.now_ms();
        let change = PaymentChange {
            state: "closed".into(),
            fail_reason: Some("expired".into()),
            ..PaymentChange::default()
        };
        if !self.repo.change(p, &change, now).await? {
            return Ok(()); // settled meanwhile
        }
        // The order is cancelled only if no other attempt paid it.
        let others_paid = self.repo.for_order(&p.order_no).await?.iter().any(|x| {
            x.state == "paid"
                || (x.state == "pending" && x.payment_id != p.payment_id && x.expires_at > now)
        });
        if !others_paid {
            self.move_if_possible(&p.order_no, Command::PaymentExpired)
                .await?;
        }
        self.announce(p, PaymentOutcome::Closed, now).await;
        Ok(())
    }

    /// Refunds whatever was paid for the order (a refused or cancelled paid order).
    pub async fn refund_order(&self, order_no: &str) -> Result<Fen, PayFailure> {
        let mut total = Fen::ZERO;
        for p in self.repo.for_order(order_no).await? {
            if p.state == "paid" {
                total += self.refund_payment(&p.payment_id).await?;
            }
        }
        Ok(total)
    }

    async fn refund_payment(&self, payment_id: &str) -> Result<Fen, PayFailure> {
        let p = self
            .repo
            .get(payment_id)
            .await?
            .ok_or(PayFailure::NotFound)?;
        if p.state != "paid" {
            return Ok(Fen::ZERO);
        }
        let amount = p.amount - p.refunded;
        // The refund id is fixed per payment: asking again is the same refund, never a second.
        let result = self
            .provider
            .refund(payment_id, &format!("{payment_id}-refund"), amount)
            .await?;
        let change = PaymentChange {
            state: "refunded".into(),
            refunded: Some(result.refunded_total),
            ..PaymentChange::default()
        };
        if !self.repo.change(&p, &change, self.clock.now_ms()).await? {
            tracing::warn!(
                payment_id,
                "refund done at the provider but the row moved meanwhile"
            );
        } else {
            metrics::counter!("payment_outcomes_total", "outcome" => "refunded").increment(1);
        }
        Ok(amount)
    }

    async fn announce(&self, p: &PaymentRow, result: PaymentOutcome, at: i64) {
        let event = Event::PaymentResult {
            order_no: p.order_no.clone(),
            user_id: p.user_id,
            payment_id: p.payment_id.clone(),
            result,
            at,
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, payment = %p.payment_id, "payment:result not published");
        }
    }
}
