//! The sandbox's ledger in our database (migration 0009): its trades, their refunds and the
//! state of each notify, so a restart loses nothing and nodes sharing PostgreSQL share it.
//!
//! Every change is one statement or one transaction guarded by a compare-and-set: a trade
//! leaves `pending` once, a notify attempt is claimed by one sender, a refund id is unique per
//! trade and a refund applies only to the version of the trade it read.

use super::SettleOutcome;
use actors::db::{Db, DbError};
use actors::domain::money::Fen;
use actors::providers::payment::{PayInstructions, PayMethod, RefundResult};
use sqlx::Row;

/// Where a trade stands. Past `expires_at`, a pending trade reads as closed (see
/// [`TradeRow::state_at`]), as the provider closes it by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TradeState {
    Pending,
    Settled(SettleOutcome),
    Closed,
}

impl TradeState {
    /// The text stored in `sandbox_trades.state`.
    pub fn as_str(self) -> &'static str {
        match self {
            TradeState::Pending => "pending",
            TradeState::Settled(o) => o.as_str(),
            TradeState::Closed => "closed",
        }
    }

    fn parse(text: &str) -> Option<TradeState> {
        match text {
            "pending" => Some(TradeState::Pending),
            "closed" => Some(TradeState::Closed),
            other => SettleOutcome::parse(other).map(TradeState::Settled),
        }
    }
}

/// How a settled trade's notify fares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotifyState {
    Sending,
    Delivered,
    GaveUp,
}

impl NotifyState {
    fn parse(text: &str) -> Option<NotifyState> {
        match text {
            "sending" => Some(NotifyState::Sending),
            "delivered" => Some(NotifyState::Delivered),
            "gave_up" => Some(NotifyState::GaveUp),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TradeRow {
    pub payment_id: String,
    pub trade_no: String,
    pub order_no: String,
    pub subject: String,
    pub amount: Fen,
    pub method: PayMethod,
    pub notify_url: String,
    pub return_url: String,
    pub instructions: PayInstructions,
    pub state: TradeState,
    pub created_at: i64,
    pub expires_at: i64,
    pub settled_at: Option<i64>,
    pub refunded: Fen,
    pub notify_body: Option<String>,
    pub notify_state: Option<NotifyState>,
    pub notify_attempts: u32,
    pub notify_next_at: Option<i64>,
    pub notify_last_answer: Option<String>,
    pub version: i64,
}

impl TradeRow {
    /// The state at `now`: an unpaid trade is closed once its time is up.
    pub fn state_at(&self, now: i64) -> TradeState {
        if self.state == TradeState::Pending && now >= self.expires_at {
            TradeState::Closed
        } else {
            self.state
        }
    }
}

const COLUMNS: &str = "payment_id, trade_no, order_no, subject, amount, method, notify_url, \
    return_url, instructions, state, created_at, expires_at, settled_at, refunded, notify_body, \
    notify_state, notify_attempts, notify_next_at, notify_last_answer, version";

fn corrupt(what: &str, value: &str) -> DbError {
    DbError::Conflict(format!("sandbox_trades holds an unknown {what} {value:?}"))
}

fn read(r: &sqlx::any::AnyRow) -> Result<TradeRow, DbError> {
    let method: String = r.try_get("method")?;
    let state: String = r.try_get("state")?;
    let notify_state: Option<String> = r.try_get("notify_state")?;
    let instructions: String = r.try_get("instructions")?;
    Ok(TradeRow {
        payment_id: r.try_get("payment_id")?,
        trade_no: r.try_get("trade_no")?,
        order_no: r.try_get("order_no")?,
        subject: r.try_get("subject")?,
        amount: Fen(r.try_get("amount")?),
        method: PayMethod::parse(&method).ok_or_else(|| corrupt("method", &method))?,
        notify_url: r.try_get("notify_url")?,
        return_url: r.try_get("return_url")?,
        instructions: serde_json::from_str(&instructions)?,
        state: TradeState::parse(&state).ok_or_else(|| corrupt("state", &state))?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        settled_at: r.try_get("settled_at")?,
        refunded: Fen(r.try_get("refunded")?),
        notify_body: r.try_get("notify_body")?,
        notify_state: notify_state
            .map(|s| NotifyState::parse(&s).ok_or_else(|| corrupt("notify state", &s)))
            .transpose()?,
        notify_attempts: u32::try_from(r.try_get::<i64, _>("notify_attempts")?).unwrap_or(0),
        notify_next_at: r.try_get("notify_next_at")?,
        notify_last_answer: r.try_get("notify_last_answer")?,
        version: r.try_get("version")?,
    })
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// What a refund write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundWrite {
    Done,
    /// The trade changed since it was read (another refund): read again.
    Moved,
    /// The refund id was taken meanwhile: answer the refund that has it.
    Taken,
}

#[derive(Clone, Debug)]
pub struct Ledger {
    db: Db,
}

impl Ledger {
    pub fn new(db: Db) -> Ledger {
        Ledger { db }
    }

    /// Records a new trade; false when the payment id or the trade number is taken.
    pub async fn insert(&self, t: &TradeRow) -> Result<bool, DbError> {
        let instructions = serde_json::to_string(&t.instructions)?;
        let done = sqlx::query(
            "INSERT INTO sandbox_trades (payment_id, trade_no, order_no, subject, amount, method, \
             notify_url, return_url, instructions, state, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11)",
        )
        .bind(&t.payment_id)
        .bind(&t.trade_no)
        .bind(&t.order_no)
        .bind(&t.subject)
        .bind(t.amount.0)
        .bind(t.method.as_str())
        .bind(&t.notify_url)
        .bind(&t.return_url)
        .bind(instructions)
        .bind(t.created_at)
        .bind(t.expires_at)
        .execute(self.db.pool())
        .await;
        match done {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    pub async fn get(&self, payment_id: &str) -> Result<Option<TradeRow>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM sandbox_trades WHERE payment_id = $1"
        ))
        .bind(payment_id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(read).transpose()
    }

    /// Settles a pending trade still in its time, with the notify to send: its first attempt
    /// is due at `first_at`. False when the trade is not pending (or out of time) any more.
    pub async fn settle(
        &self,
        payment_id: &str,
        outcome: SettleOutcome,
        at: i64,
        notify_body: &str,
        first_at: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE sandbox_trades SET state = $1, settled_at = $2, notify_body = $3, \
             notify_state = 'sending', notify_attempts = 0, notify_next_at = $4, \
             version = version + 1 \
             WHERE payment_id = $5 AND state = 'pending' AND expires_at > $6",
        )
        .bind(outcome.as_str())
        .bind(at)
        .bind(notify_body)
        .bind(first_at)
        .bind(payment_id)
        .bind(at)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes a trade that is still pending; false when it is not.
    pub async fn close(&self, payment_id: &str) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE sandbox_trades SET state = 'closed', version = version + 1 \
             WHERE payment_id = $1 AND state = 'pending'",
        )
        .bind(payment_id)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The refunds of a trade, oldest first.
    pub async fn refunds(&self, payment_id: &str) -> Result<Vec<RefundResult>, DbError> {
        let rows = sqlx::query(
            "SELECT refund_id, provider_refund_no, amount, refunded_total, at FROM sandbox_refunds \
             WHERE payment_id = $1 ORDER BY at, refunded_total",
        )
        .bind(payment_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RefundResult {
                    refund_id: r.try_get("refund_id")?,
                    provider_refund_no: r.try_get("provider_refund_no")?,
                    amount: Fen(r.try_get("amount")?),
                    refunded_total: Fen(r.try_get("refunded_total")?),
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Records a refund of a paid trade read at `version`, in one transaction: the trade's
    /// refunded total moves (only from that version, and never past the amount) and the refund
    /// row is written under its unique (payment id, refund id).
    pub async fn refund(
        &self,
        trade: &TradeRow,
        refund: &RefundResult,
    ) -> Result<RefundWrite, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let moved = sqlx::query(
            "UPDATE sandbox_trades SET refunded = refunded + $1, version = version + 1 \
             WHERE payment_id = $2 AND version = $3 AND state = 'success' \
             AND refunded + $4 <= amount",
        )
        .bind(refund.amount.0)
        .bind(&trade.payment_id)
        .bind(trade.version)
        .bind(refund.amount.0)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(RefundWrite::Moved);
        }
        let written = sqlx::query(
            "INSERT INTO sandbox_refunds (payment_id, refund_id, provider_refund_no, amount, \
             refunded_total, at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&trade.payment_id)
        .bind(&refund.refund_id)
        .bind(&refund.provider_refund_no)
        .bind(refund.amount.0)
        .bind(refund.refunded_total.0)
        .bind(refund.at)
        .execute(&mut *tx)
        .await;
        match written {
            Ok(_) => {
                tx.commit().await?;
                Ok(RefundWrite::Done)
            }
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                Ok(RefundWrite::Taken)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Paid trades settled in `[from, to)` and refunds made in it, as (payment id, trade no,
    /// refund id, amount, at).
    pub async fn statement_rows(
        &self,
        from: i64,
        to: i64,
    ) -> Result<Vec<(String, String, Option<String>, Fen, i64)>, DbError> {
        let paid = sqlx::query(
            "SELECT payment_id, trade_no, amount, settled_at FROM sandbox_trades \
             WHERE state = 'success' AND settled_at >= $1 AND settled_at < $2",
        )
        .bind(from)
        .bind(to)
        .fetch_all(self.db.pool())
        .await?;
        let refunds = sqlx::query(
            "SELECT r.payment_id, t.trade_no, r.refund_id, r.amount, r.at FROM sandbox_refunds r \
             JOIN sandbox_trades t ON t.payment_id = r.payment_id WHERE r.at >= $1 AND r.at < $2",
        )
        .bind(from)
        .bind(to)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(paid.len() + refunds.len());
        for r in &paid {
            out.push((
                r.try_get("payment_id")?,
                r.try_get("trade_no")?,
                None,
                Fen(r.try_get("amount")?),
                r.try_get("settled_at")?,
            ));
        }
        for r in &refunds {
            out.push((
                r.try_get("payment_id")?,
                r.try_get("trade_no")?,
                Some(r.try_get("refund_id")?),
                Fen(r.try_get("amount")?),
                r.try_get("at")?,
            ));
        }
        Ok(out)
    }

    /// Claims notify attempt number `done + 1` (after `done` made), with when the one after is
    /// due; false when another sender claimed it first or the notify is no longer being sent.
    pub async fn claim_attempt(
        &self,
        payment_id: &str,
        done: u32,
        next_at: i64,
    ) -> Result<bool, DbError> {
        let claimed = sqlx::query(
            "UPDATE sandbox_trades SET notify_attempts = $1, notify_next_at = $2 \
             WHERE payment_id = $3 AND notify_attempts = $4 AND notify_state = 'sending'",
        )
        .bind(i64::from(done) + 1)
        .bind(next_at)
        .bind(payment_id)
        .bind(i64::from(done))
        .execute(self.db.pool())
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Records the answer to attempt `attempt`, by the sender that claimed it.
    pub async fn record_answer(
        &self,
        payment_id: &str,
        attempt: u32,
        answer: &str,
        outcome: Option<NotifyState>,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE sandbox_trades SET notify_last_answer = $1, \
             notify_state = COALESCE($2, notify_state), \
             notify_next_at = CASE WHEN $3 = 1 THEN NULL ELSE notify_next_at END \
             WHERE payment_id = $4 AND notify_attempts = $5 AND notify_state = 'sending'",
        )
        .bind(answer)
        .bind(outcome.map(|o| match o {
            NotifyState::Sending => "sending",
            NotifyState::Delivered => "delivered",
            NotifyState::GaveUp => "gave_up",
        }))
        .bind(i64::from(outcome.is_some()))
        .bind(payment_id)
        .bind(i64::from(attempt))
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Marks a notify given up once every attempt was claimed (the last sender died before
    /// recording its answer).
    pub async fn give_up(&self, payment_id: &str, attempts: u32) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE sandbox_trades SET notify_state = 'gave_up', notify_next_at = NULL \
             WHERE payment_id = $1 AND notify_attempts = $2 AND notify_state = 'sending'",
        )
        .bind(payment_id)
        .bind(i64::from(attempts))
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Notifies still being sent whose next attempt was due before `before` (all of them with
    /// `i64::MAX`): what a starting node resumes, and what a live node takes over when the
    /// node that was sending it has gone.
    pub async fn sending_due_before(&self, before: i64) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query(
            "SELECT payment_id FROM sandbox_trades WHERE notify_state = 'sending' \
             AND (notify_next_at IS NULL OR notify_next_at < $1) ORDER BY notify_next_at",
        )
        .bind(before)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get("payment_id").map_err(DbError::from))
            .collect()
    }
}
