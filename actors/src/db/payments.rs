//! Payment attempts. Every change names the version it read, so a notify replayed or delivered
//! twice at once changes the row once.
//!
//! States ([`PaymentState`], parsed here as a row is read): `created` → `pending` (the provider
//! has it) → `paid` / `failed` / `closed`; a paid attempt that does not keep the order's money
//! goes `refunding` (the refund is owed: written before the provider is asked, retried until it
//! answers) → `refunded`.

use super::{Db, DbError, Tx};
use crate::domain::money::Fen;
use crate::domain::payments::state::PaymentState;
use sqlx::Row;

#[derive(Debug, Clone, PartialEq)]
pub struct PaymentRow {
    pub payment_id: String,
    pub order_no: String,
    pub user_id: i64,
    pub method: String,
    pub provider: String,
    pub amount: Fen,
    pub state: PaymentState,
    pub provider_trade_no: Option<String>,
    pub instructions: Option<serde_json::Value>,
    pub fail_reason: Option<String>,
    pub refunded: Fen,
    /// Why the money goes back ([`crate::domain::payments::settlement::RefundReason`]), once it must.
    pub refund_reason: Option<String>,
    /// The provider's last failure while the refund is owed.
    pub refund_error: Option<String>,
    /// How many times the provider failed the owed refund (the retry waits longer each time).
    pub refund_attempts: i64,
    pub created_at: i64,
    pub expires_at: i64,
    pub updated_at: i64,
    pub version: i64,
}

const COLUMNS: &str = "payment_id, order_no, user_id, method, provider, amount, state, \
    provider_trade_no, instructions, fail_reason, refunded, refund_reason, refund_error, refund_attempts, \
    created_at, expires_at, updated_at, version";

/// The `state` column, parsed: a value no [`PaymentState`] stores is an error, not a guess.
pub(crate) fn read_state(r: &sqlx::any::AnyRow) -> Result<PaymentState, DbError> {
    let state: String = r.try_get("state")?;
    PaymentState::parse(&state).ok_or_else(|| DbError::Conflict(format!("payment state {state}")))
}

/// `'created', 'pending', …`: states inlined in a query (never user text).
fn sql_list(states: &[PaymentState]) -> String {
    let quoted: Vec<String> = states.iter().map(|s| format!("'{}'", s.as_str())).collect();
    quoted.join(", ")
}

fn read(r: &sqlx::any::AnyRow) -> Result<PaymentRow, DbError> {
    Ok(PaymentRow {
        payment_id: r.try_get("payment_id")?,
        order_no: r.try_get("order_no")?,
        user_id: r.try_get("user_id")?,
        method: r.try_get("method")?,
        provider: r.try_get("provider")?,
        amount: Fen(r.try_get("amount")?),
        state: read_state(r)?,
        provider_trade_no: r.try_get("provider_trade_no")?,
        instructions: r
            .try_get::<Option<String>, _>("instructions")?
            .map(|s| serde_json::from_str(&s))
            .transpose()?,
        fail_reason: r.try_get("fail_reason")?,
        refunded: Fen(r.try_get("refunded")?),
        refund_reason: r.try_get("refund_reason")?,
        refund_error: r.try_get("refund_error")?,
        refund_attempts: r.try_get("refund_attempts")?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        updated_at: r.try_get("updated_at")?,
        version: r.try_get("version")?,
    })
}

/// A change of a payment's state, with what comes with it.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentChange {
    pub state: PaymentState,
    pub provider_trade_no: Option<String>,
    pub instructions: Option<serde_json::Value>,
    pub fail_reason: Option<String>,
    pub refunded: Option<Fen>,
    pub refund_reason: Option<String>,
    /// Set: the provider failed the owed refund once more (`refund_attempts` counts it).
    pub refund_error: Option<String>,
}

impl PaymentChange {
    /// A move to `state` that changes nothing else.
    pub fn to(state: PaymentState) -> PaymentChange {
        PaymentChange {
            state,
            provider_trade_no: None,
            instructions: None,
            fail_reason: None,
            refunded: None,
            refund_reason: None,
            refund_error: None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct PaymentRepo {
    db: Db,
}

impl PaymentRepo {
    pub fn new(db: Db) -> PaymentRepo {
        PaymentRepo { db }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    pub async fn insert(&self, p: &PaymentRow) -> Result<(), DbError> {
        let mut tx = self.db.pool().begin().await?;
        insert_in(&mut tx, p).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn get(&self, payment_id: &str) -> Result<Option<PaymentRow>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE payment_id = $1"
        ))
        .bind(payment_id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(read).transpose()
    }

    pub async fn for_order(&self, order_no: &str) -> Result<Vec<PaymentRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE order_no = $1 ORDER BY created_at, payment_id"
        ))
        .bind(order_no)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// The user's newest pending payment created after `since`.
    pub async fn pending_for_user(
        &self,
        user_id: i64,
        since: i64,
    ) -> Result<Option<PaymentRow>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE user_id = $1 AND state = '{}' \
             AND created_at > $2 ORDER BY created_at DESC LIMIT 1",
            PaymentState::Pending.as_str(),
        ))
        .bind(user_id)
        .bind(since)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(read).transpose()
    }

    /// Attempts still open (created, pending, or failed: its order may still be payable)
    /// whose 30 minutes are over, oldest first.
    pub async fn expired(&self, now: i64) -> Result<Vec<PaymentRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE state IN ({}) \
             AND expires_at <= $1 ORDER BY expires_at, payment_id",
            sql_list(&PaymentState::OPEN),
        ))
        .bind(now)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// Every attempt still open (created, pending, or failed), soonest deadline first: the
    /// payment sessions re-arm their timers from these at start-up.
    pub async fn open_attempts(&self) -> Result<Vec<PaymentRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE state IN ({}) \
             ORDER BY expires_at, payment_id",
            sql_list(&PaymentState::OPEN),
        ))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// Refunds owed: rows in `refunding`, oldest first.
    pub async fn owed_refunds(&self) -> Result<Vec<PaymentRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE state = '{}' ORDER BY updated_at, payment_id",
            PaymentState::Refunding.as_str(),
        ))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// Paid attempts that are not their order's settlement: their order move or their refund
    /// was interrupted (a crash, a database error) and is still to be decided.
    pub async fn unsettled_paid(&self) -> Result<Vec<PaymentRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM payments WHERE state = '{}' AND NOT EXISTS \
             (SELECT 1 FROM orders o WHERE o.order_no = payments.order_no \
              AND o.paid_by = payments.payment_id AND o.state NOT IN ({}, {}))",
            PaymentState::Paid.as_str(),
            crate::domain::ordering::order_machine::state::CANCELLED_BY_CUSTOMER,
            crate::domain::ordering::order_machine::state::REFUSED_BY_STORE,
        ))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// Applies `change` if the payment is still at `read_version`; false when it moved first.
    pub async fn change(
        &self,
        p: &PaymentRow,
        change: &PaymentChange,
        now: i64,
    ) -> Result<bool, DbError> {
        // Placeholders in ascending order: SQLite numbers them by first appearance.
        let done = sqlx::query(
            "UPDATE payments SET state = $1, \
             provider_trade_no = COALESCE($2, provider_trade_no), \
             instructions = COALESCE($3, instructions), fail_reason = COALESCE($4, fail_reason), \
             refunded = COALESCE($5, refunded), refund_reason = COALESCE($6, refund_reason), \
             refund_error = $7, \
             refund_attempts = refund_attempts + (CASE WHEN $7 IS NULL THEN 0 ELSE 1 END), \
             updated_at = $8, version = version + 1 \
             WHERE payment_id = $9 AND version = $10",
        )
        .bind(change.state.as_str())
        .bind(&change.provider_trade_no)
        .bind(change.instructions.as_ref().map(|v| v.to_string()))
        .bind(&change.fail_reason)
        .bind(change.refunded.map(|f| f.0))
        .bind(&change.refund_reason)
        .bind(&change.refund_error)
        .bind(now)
        .bind(&p.payment_id)
        .bind(p.version)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// Writes a new attempt in `tx` (the admission's, which decided under the user's lock).
pub async fn insert_in(tx: &mut Tx, p: &PaymentRow) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO payments (payment_id, order_no, user_id, method, provider, amount, state, \
         created_at, expires_at, updated_at, version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1)",
    )
    .bind(&p.payment_id)
    .bind(&p.order_no)
    .bind(p.user_id)
    .bind(&p.method)
    .bind(&p.provider)
    .bind(p.amount.0)
    .bind(p.state.as_str())
    .bind(p.created_at)
    .bind(p.expires_at)
    .bind(p.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Every attempt of the order, oldest first, read in `tx`.
pub async fn for_order_in(tx: &mut Tx, order_no: &str) -> Result<Vec<PaymentRow>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payments WHERE order_no = $1 ORDER BY created_at, payment_id"
    ))
    .bind(order_no)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(read).collect()
}

/// When each of the user's attempts (any order) created after `since` was created, read in `tx`.
pub async fn user_created_since_in(
    tx: &mut Tx,
    user_id: i64,
    since: i64,
) -> Result<Vec<i64>, DbError> {
    let rows =
        sqlx::query("SELECT created_at FROM payments WHERE user_id = $1 AND created_at > $2")
            .bind(user_id)
            .bind(since)
            .fetch_all(&mut **tx)
            .await?;
    rows.iter()
        .map(|r| r.try_get::<i64, _>("created_at").map_err(DbError::from))
        .collect()
}
