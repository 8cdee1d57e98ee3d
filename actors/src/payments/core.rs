//! The work of one payment attempt, as plain async functions over the database, the provider
//! and the order sessions. [`super::session::PaymentSession`] runs them one at a time per
//! attempt; nothing here knows about actors, and nothing here sends to a payment session (a
//! session waiting on itself would never answer).

use super::{PayFailure, Settled};
use crate::bus::{Bus, Event, PaymentOutcome};
use crate::clock::Clock;
use crate::db::orders::OrderRow;
use crate::db::payments::{PaymentChange, PaymentRepo, PaymentRow};
use crate::domain::money::Fen;
use crate::domain::ordering::order_machine::{Actor as Mover, Command};
use crate::domain::payments::state::PaymentState;
use crate::orders::{OrderFailure, OrderRegistry};
use crate::providers::payment::{
    CreatePayment, NotifyStatus, PayInstructions, PayMethod, PaymentProvider, ProviderPaymentStatus,
};

/// What a pay request brings for the provider: where it notifies, where the payer comes back
/// to, the payer's address and (WeChat JSAPI) open id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayRequest {
    pub notify_url: String,
    pub return_url: String,
    pub client_ip: String,
    pub open_id: Option<String>,
}
use std::sync::Arc;

/// How often a compare-and-set is retried against concurrent writers before giving up.
pub(super) const ATTEMPTS: usize = 5;

pub(crate) struct PaymentCore {
    pub(super) repo: PaymentRepo,
    pub(super) provider: Arc<dyn PaymentProvider>,
    pub(super) orders: Arc<OrderRegistry>,
    pub(super) bus: Arc<dyn Bus>,
    pub(super) clock: Clock,
}

impl PaymentCore {
    pub(super) fn new(
        repo: PaymentRepo,
        provider: Arc<dyn PaymentProvider>,
        orders: Arc<OrderRegistry>,
        bus: Arc<dyn Bus>,
        clock: Clock,
    ) -> PaymentCore {
        PaymentCore {
            repo,
            provider,
            orders,
            bus,
            clock,
        }
    }

    /// Whether the attempt was made with this service's provider: the periodic jobs leave
    /// another provider's attempts to that provider's service.
    pub(super) fn owns(&self, p: &PaymentRow) -> bool {
        p.provider == self.provider.name()
    }

    /// Opens an admitted attempt (its row written `created` by the admission) at the provider,
    /// and moves the row to pending with its instructions before they are answered.
    pub(super) async fn open_at_provider(
        &self,
        mut row: PaymentRow,
        order: &OrderRow,
        method: PayMethod,
        at: PayRequest,
    ) -> Result<(PaymentRow, PayInstructions), PayFailure> {
        let now = row.created_at;
        let amount = row.amount;
        let request = CreatePayment {
            payment_id: row.payment_id.clone(),
            order_no: order.order_no.clone(),
            amount,
            subject: format!("比萨订单 {}", order.order_no),
            method,
            notify_url: at.notify_url,
            return_url: at.return_url,
            client_ip: at.client_ip,
            open_id: at.open_id,
            expires_at: row.expires_at,
        };
        match self.provider.create(&request).await {
            Ok(instructions) => {
                let change = PaymentChange {
                    provider_trade_no: Some(instructions.provider_trade_no.clone()),
                    instructions: serde_json::to_value(&instructions).ok(),
                    ..PaymentChange::to(PaymentState::Pending)
                };
                if !self.change(&row, &change, now).await? {
                    return Err(PayFailure::Contended);
                }
                row.state = change.state;
                row.version += 1;
                row.instructions = change.instructions;
                Ok((row, instructions))
            }
            Err(e) => {
                let change = PaymentChange {
                    fail_reason: Some(e.to_string()),
                    ..PaymentChange::to(PaymentState::Failed)
                };
                self.change(&row, &change, now).await?;
                Err(e.into())
            }
        }
    }

    /// The provider says the attempt failed or was cancelled: the order shows payment failed and
    /// can be paid again.
    pub(super) async fn settle_failed(
        &self,
        payment_id: &str,
        reason: &str,
    ) -> Result<Settled, PayFailure> {
        for _ in 0..ATTEMPTS {
            let p = self
                .repo
                .get(payment_id)
                .await?
                .ok_or(PayFailure::NotFound)?;
            if p.state != PaymentState::Pending && p.state != PaymentState::Created {
                return Ok(Settled::AlreadyApplied);
            }
            let now = self.clock.now_ms();
            let change = PaymentChange {
                fail_reason: Some(reason.to_string()),
                ..PaymentChange::to(PaymentState::Failed)
            };
            if !self.change(&p, &change, now).await? {
                continue;
            }
            self.move_if_possible(&p.order_no, Command::PaymentFailed)
                .await?;
            self.announce(&p, PaymentOutcome::Failed, now).await;
            return Ok(Settled::Applied);
        }
        Err(PayFailure::Contended)
    }

    /// A system move that may legitimately no longer apply (the order moved on meanwhile).
    pub(super) async fn move_if_possible(
        &self,
        order_no: &str,
        command: Command,
    ) -> Result<(), PayFailure> {
        match self
            .orders
            .make_move(order_no, Mover::System, command, Fen::ZERO)
            .await
        {
            Ok(_) | Err(OrderFailure::Refused(_)) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// A provider notify, its signature verified. It is only a hint: the provider is asked
    /// (Alipay and WeChat Pay advise as much) and only what its answer confirms is applied; a
    /// payment id we never issued is [`PayFailure::NotFound`].
    pub(super) async fn on_notify(
        &self,
        payment_id: &str,
        trade_no: &str,
        status: NotifyStatus,
        amount: Fen,
    ) -> Result<Settled, PayFailure> {
        let Some(row) = self.repo.get(payment_id).await? else {
            return Err(PayFailure::NotFound);
        };
        let answer = self.provider.query(payment_id).await?;
        match (status, answer) {
            (
                NotifyStatus::Paid,
                ProviderPaymentStatus::Paid {
                    trade_no: t,
                    amount: a,
                    ..
                },
            ) if t == trade_no && a == amount => {
                self.settle_paid_from(Some(row), payment_id, &t, a).await
            }
            (
                NotifyStatus::Failed | NotifyStatus::Cancelled,
                ProviderPaymentStatus::Failed { reason },
            ) => self.settle_failed(payment_id, &reason).await,
            (status, answer) => {
                let why = format!(
                    "notify {} (trade {trade_no}, {amount}) but the provider answers {answer:?}",
                    status.as_str()
                );
                tracing::warn!(payment_id, %why, "payment notify not confirmed");
                Err(PayFailure::Unconfirmed(why))
            }
        }
    }

    /// The payment as it stands. A pending one is checked with the provider first, so a
    /// customer back before the notify never waits on a stale answer; one past its 30 minutes
    /// goes through expiry (asked, then closed); a paid one whose settlement was interrupted
    /// is finished.
    pub(super) async fn refresh(&self, payment_id: &str) -> Result<PaymentRow, PayFailure> {
        let p = self
            .repo
            .get(payment_id)
            .await?
            .ok_or(PayFailure::NotFound)?;
        let due = p.expires_at <= self.clock.now_ms();
        match p.state {
            PaymentState::Created | PaymentState::Pending if due => {
                // The provider being down must not break the status page: answer as stored.
                if let Err(e) = self.expire_one(&p).await {
                    tracing::warn!(error = %e, payment_id, "payment expiry on query failed");
                }
            }
            PaymentState::Pending => match self.provider.query(payment_id).await {
                Ok(ProviderPaymentStatus::Paid {
                    trade_no, amount, ..
                }) => {
                    self.settle_paid(payment_id, &trade_no, amount).await?;
                }
                Ok(ProviderPaymentStatus::Failed { reason }) => {
                    self.settle_failed(payment_id, &reason).await?;
                }
                Ok(ProviderPaymentStatus::Closed) => {
                    if let Err(e) = self.expire_one(&p).await {
                        tracing::warn!(error = %e, payment_id, "closing a closed payment failed");
                    }
                }
                Ok(ProviderPaymentStatus::Pending) => {}
                Err(e) => tracing::warn!(error = %e, payment_id, "payment query failed"),
            },
            PaymentState::Paid => {
                self.decide(&p).await?;
            }
            _ => {}
        }
        self.repo.get(payment_id).await?.ok_or(PayFailure::NotFound)
    }

    /// Writes a payment's change (a compare-and-set on its version) and, when it took, says
    /// the order changed: what nodes keep of the order's detail lists its payments.
    pub(super) async fn change(
        &self,
        p: &PaymentRow,
        change: &PaymentChange,
        now: i64,
    ) -> Result<bool, crate::db::DbError> {
        let took = self.repo.change(p, change, now).await?;
        if took {
            self.changed(&p.order_no).await;
        }
        Ok(took)
    }

    pub(super) async fn changed(&self, order_no: &str) {
        let event = Event::OrderChanged {
            order_no: order_no.to_string(),
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, order_no, "payment change not announced");
        }
    }

    pub(super) async fn announce(&self, p: &PaymentRow, result: PaymentOutcome, at: i64) {
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
