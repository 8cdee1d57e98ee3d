//! The points ledger (issue 23): append-only entries, lots with expiry, holds at checkout, and
//! the balance as a checked cache of the entries.
//!
//! Every move is one transaction that
//! 1. takes the member's account row first (`touch`: a write, so SQLite takes its write lock
//!    and PostgreSQL the row lock before anything is read: moves of one member run one at a
//!    time on every node),
//! 2. appends its entry under the unique key (business type, business id, direction): a second
//!    attempt of the same move inserts nothing and changes nothing ([`Applied::Already`]),
//! 3. moves lots and holds with compare-and-sets (`WHERE status = … AND remaining >= …`),
//! 4. applies the entry's deltas to the account with a guarded update (no column below zero),
//!    backed by the table's CHECK constraints.
//!
//! So `account.x == SUM(entries.d_x)` for each of available, pending, held and owed, after
//! every commit; [`PointsRepo::reconcile`] checks it, and that the lots and holds agree.
//!
//! Steps 2 and 4 are one function, `move_points`, that every move calls.
//!
//! The files: this one the types, the account and ledger reads, and `move_points`;
//! `ledger.rs` the moves of the ledger (credit, debit, mature, expire); `holds.rs` the holds
//! at checkout (hold, capture, release) and the reversal of a refunded order; `lots.rs` the
//! lots' rows and the taking from them; `reconcile.rs` the reconcile report and the sweeps'
//! listings.

mod holds;
mod ledger;
mod lots;
mod reconcile;

pub use super::Tx;
use super::{Db, DbError};
use sqlx::Row;

/// Whether a move was applied now or had been before (same business key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    Now,
    Already,
    /// Nothing to do (no such hold, a lot not due, …).
    Nothing,
}

#[derive(Debug, thiserror::Error)]
pub enum PointsError {
    #[error("not enough points: {available} available")]
    NotEnough { available: i64 },
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<sqlx::Error> for PointsError {
    fn from(e: sqlx::Error) -> Self {
        PointsError::Db(e.into())
    }
}

/// One ledger entry to append.
#[derive(Debug, Clone, Default)]
pub struct Entry<'a> {
    pub user_id: i64,
    pub kind: &'a str,
    pub business_type: &'a str,
    pub business_id: &'a str,
    pub direction: &'a str,
    /// The signed effect on what the member has (shown in the ledger).
    pub points: i64,
    pub d_available: i64,
    pub d_pending: i64,
    pub d_held: i64,
    pub d_owed: i64,
    pub lot_id: Option<i64>,
    pub expires_at: Option<i64>,
    pub note: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Account {
    pub available: i64,
    pub pending: i64,
    pub held: i64,
    pub owed: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    pub id: i64,
    pub kind: String,
    pub business_type: String,
    pub business_id: String,
    pub direction: String,
    pub points: i64,
    pub expires_at: Option<i64>,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LotRow {
    pub id: i64,
    pub user_id: i64,
    pub business_type: String,
    pub business_id: String,
    pub points: i64,
    pub remaining: i64,
    pub expired: i64,
    pub status: String,
    pub matures_at: i64,
    pub expires_at: i64,
}

/// A member whose cached balance differs from the ledger (or whose lots or holds disagree).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub user_id: i64,
    pub cached: Account,
    pub ledger: Account,
    /// Σ remaining of available lots, Σ points of pending lots, Σ points of held holds.
    pub lots_available: i64,
    pub lots_pending: i64,
    pub holds_held: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReconcileReport {
    pub checked: i64,
    pub mismatches: Vec<Mismatch>,
}

/// The ledger's filter in the points detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerFilter {
    All,
    Earned,
    Pending,
    Spent,
    Expired,
}

#[derive(Clone, Debug)]
pub struct PointsRepo {
    db: Db,
}

impl PointsRepo {
    pub fn new(db: Db) -> PointsRepo {
        PointsRepo { db }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// A transaction that holds `user_id`'s account (created at zero if need be).
    pub async fn begin_for(&self, user_id: i64, now: i64) -> Result<Tx, DbError> {
        let mut tx = self.db.pool().begin().await?;
        touch(&mut tx, user_id, now).await?;
        Ok(tx)
    }

    pub async fn account(&self, user_id: i64) -> Result<Account, DbError> {
        let row = sqlx::query(
            "SELECT available, pending, held, owed FROM points_accounts WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(match row {
            Some(r) => Account {
                available: r.try_get("available")?,
                pending: r.try_get("pending")?,
                held: r.try_get("held")?,
                owed: r.try_get("owed")?,
            },
            None => Account::default(),
        })
    }

    /// Points of available lots expiring before `before` (and after `now`), and the soonest
    /// such expiry.
    pub async fn expiring(
        &self,
        user_id: i64,
        now: i64,
        before: i64,
    ) -> Result<(i64, Option<i64>), DbError> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(remaining), 0) AS BIGINT) AS pts, MIN(expires_at) AS soonest FROM points_lots \
             WHERE user_id = $1 AND status = 'available' AND remaining > 0 \
             AND expires_at > $2 AND expires_at <= $3",
        )
        .bind(user_id)
        .bind(now)
        .bind(before)
        .fetch_one(self.db.pool())
        .await?;
        Ok((row.try_get("pts")?, row.try_get("soonest")?))
    }

    /// The member's entries, newest first, with the total, filtered as the points detail asks.
    pub async fn ledger(
        &self,
        user_id: i64,
        filter: LedgerFilter,
        page: i64,
        page_size: i64,
    ) -> Result<(Vec<EntryRow>, i64), DbError> {
        let cond = match filter {
            LedgerFilter::All => "",
            LedgerFilter::Earned => " AND kind IN ('earned', 'adjusted', 'released', 'gift')",
            LedgerFilter::Pending => " AND kind = 'pending'",
            LedgerFilter::Spent => " AND kind IN ('spent', 'reversed')",
            LedgerFilter::Expired => " AND kind = 'expired'",
        };
        let base = format!("FROM points_entries WHERE user_id = $1 AND points <> 0{cond}");
        let total: i64 = sqlx::query(&format!("SELECT COUNT(*) AS n {base}"))
            .bind(user_id)
            .fetch_one(self.db.pool())
            .await?
            .try_get("n")?;
        let rows = sqlx::query(&format!(
            "SELECT id, kind, business_type, business_id, direction, points, expires_at, created_at \
             {base} ORDER BY id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(page_size)
        .bind((page - 1).max(0) * page_size)
        .fetch_all(self.db.pool())
        .await?;
        let items = rows
            .iter()
            .map(|r| {
                Ok(EntryRow {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    business_type: r.try_get("business_type")?,
                    business_id: r.try_get("business_id")?,
                    direction: r.try_get("direction")?,
                    points: r.try_get("points")?,
                    expires_at: r.try_get("expires_at")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok((items, total))
    }
}

/// Takes the member's account row: inserted at zero if missing, else written, in one
/// statement (an upsert locks the row it updates, as an UPDATE does), so the transaction holds
/// it (and SQLite's write lock) before reading anything.
async fn touch(tx: &mut Tx, user_id: i64, now: i64) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO points_accounts (user_id, updated_at) VALUES ($1, $2) \
         ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn account_in(tx: &mut Tx, user_id: i64) -> Result<Account, DbError> {
    let r = sqlx::query(
        "SELECT available, pending, held, owed FROM points_accounts WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(Account {
        available: r.try_get("available")?,
        pending: r.try_get("pending")?,
        held: r.try_get("held")?,
        owed: r.try_get("owed")?,
    })
}

async fn entry_exists(tx: &mut Tx, bt: &str, bid: &str, dir: &str) -> Result<bool, DbError> {
    Ok(sqlx::query(
        "SELECT 1 AS x FROM points_entries WHERE business_type = $1 AND business_id = $2 AND direction = $3",
    )
    .bind(bt)
    .bind(bid)
    .bind(dir)
    .fetch_optional(&mut **tx)
    .await?
    .is_some())
}

/// What `move_points` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Moved {
    /// The entry is written and the account changed by its deltas.
    Applied,
    /// The entry's business key was taken: the move was made before. Nothing written.
    Already,
    /// A column of the account would go below zero: the account is unchanged but the entry
    /// is written, so the transaction must not be committed (the caller refuses).
    Refused,
}

/// The move every change of the ledger makes: its entry appended under the unique business
/// key (business type, business id, direction), then the entry's deltas applied to the
/// account, only if no column goes below zero (a compare-and-set on the account row).
pub(super) async fn move_points(tx: &mut Tx, e: &Entry<'_>, now: i64) -> Result<Moved, DbError> {
    let appended = sqlx::query(
        "INSERT INTO points_entries (user_id, kind, business_type, business_id, direction, points, \
         d_available, d_pending, d_held, d_owed, lot_id, expires_at, note, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (business_type, business_id, direction) DO NOTHING RETURNING id",
    )
    .bind(e.user_id)
    .bind(e.kind)
    .bind(e.business_type)
    .bind(e.business_id)
    .bind(e.direction)
    .bind(e.points)
    .bind(e.d_available)
    .bind(e.d_pending)
    .bind(e.d_held)
    .bind(e.d_owed)
    .bind(e.lot_id)
    .bind(e.expires_at)
    .bind(e.note)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if appended.is_none() {
        return Ok(Moved::Already);
    }
    let applied = sqlx::query(
        "UPDATE points_accounts SET available = available + $2, pending = pending + $3, \
         held = held + $4, owed = owed + $5, updated_at = $6 \
         WHERE user_id = $1 AND available + $2 >= 0 AND pending + $3 >= 0 \
         AND held + $4 >= 0 AND owed + $5 >= 0",
    )
    .bind(e.user_id)
    .bind(e.d_available)
    .bind(e.d_pending)
    .bind(e.d_held)
    .bind(e.d_owed)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(if applied == 1 {
        Moved::Applied
    } else {
        Moved::Refused
    })
}
