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

use super::{Db, DbError};
use crate::domain::loyalty::{allocate, SpendableLot};
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

pub type Tx = Transaction<'static, Any>;

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

const LOT_COLUMNS: &str = "id, user_id, business_type, business_id, points, remaining, expired, \
    status, matures_at, expires_at";

fn lot(r: &AnyRow) -> Result<LotRow, sqlx::Error> {
    Ok(LotRow {
        id: r.try_get("id")?,
        user_id: r.try_get("user_id")?,
        business_type: r.try_get("business_type")?,
        business_id: r.try_get("business_id")?,
        points: r.try_get("points")?,
        remaining: r.try_get("remaining")?,
        expired: r.try_get("expired")?,
        status: r.try_get("status")?,
        matures_at: r.try_get("matures_at")?,
        expires_at: r.try_get("expires_at")?,
    })
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

    /// Credits an order's earned points as pending (a lot maturing at `matures_at`). Once per
    /// order: the entry's key is (order, orderNo, credit). An order already reversed (refunded
    /// before the credit ran) is marked credited with 0 points, so it is never credited later.
    #[allow(clippy::too_many_arguments)]
    pub async fn credit_pending(
        &self,
        user_id: i64,
        order_no: &str,
        points: i64,
        matures_at: i64,
        expires_at: i64,
        now: i64,
    ) -> Result<Applied, DbError> {
        let mut tx = self.begin_for(user_id, now).await?;
        // Read under the account's lock: a credit made before is seen (the entry's unique key
        // stays the backstop).
        if entry_exists(&mut tx, "order", order_no, "credit").await? {
            return Ok(Applied::Already);
        }
        let reversed = entry_exists(&mut tx, "refund", order_no, "reverse").await?;
        let points = if reversed { 0 } else { points.max(0) };
        let lot_id = if points > 0 {
            Some(
                insert_lot(
                    &mut tx, user_id, "order", order_no, points, "pending", matures_at, expires_at,
                    now,
                )
                .await?,
            )
        } else {
            None
        };
        let entry = Entry {
            user_id,
            kind: "pending",
            business_type: "order",
            business_id: order_no,
            direction: "credit",
            points,
            d_pending: points,
            lot_id,
            expires_at: lot_id.map(|_| expires_at),
            ..Entry::default()
        };
        if !append(&mut tx, &entry, now).await? {
            return Ok(Applied::Already); // dropped: the lot goes with the transaction
        }
        if !apply(&mut tx, &entry, now).await? {
            return Err(DbError::Conflict("points account".into()));
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Pending lots whose refund window has closed.
    pub async fn due_lots(&self, now: i64, limit: i64) -> Result<Vec<LotRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {LOT_COLUMNS} FROM points_lots WHERE status = 'pending' AND matures_at <= $1 \
             ORDER BY matures_at, id LIMIT $2"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.iter().map(lot).collect::<Result<_, _>>()?)
    }

    /// The member's pending lots that are due (for a maturing on read).
    pub async fn due_lots_of(&self, user_id: i64, now: i64) -> Result<Vec<LotRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {LOT_COLUMNS} FROM points_lots WHERE user_id = $1 AND status = 'pending' \
             AND matures_at <= $2 ORDER BY matures_at, id"
        ))
        .bind(user_id)
        .bind(now)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.iter().map(lot).collect::<Result<_, _>>()?)
    }

    /// Makes a due pending lot available: a compare-and-set on the lot (pending → available,
    /// only once its window closed), the entry (order, orderNo, mature), and the account's
    /// pending taken down by exactly the lot's points, guarded: what was never credited as
    /// pending cannot be matured. Points owed (from a reversal) are paid back first.
    pub async fn mature(&self, lot_id: i64, user_id: i64, now: i64) -> Result<Applied, DbError> {
        let mut tx = self.begin_for(user_id, now).await?;
        let Some(l) = get_lot(&mut tx, lot_id).await? else {
            return Ok(Applied::Nothing);
        };
        let flipped = sqlx::query(
            "UPDATE points_lots SET status = 'available' \
             WHERE id = $1 AND status = 'pending' AND matures_at <= $2",
        )
        .bind(lot_id)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if flipped != 1 || l.user_id != user_id {
            return Ok(Applied::Nothing);
        }
        let acc = account_in(&mut tx, user_id).await?;
        let pay = acc.owed.min(l.points);
        if pay > 0 {
            sqlx::query("UPDATE points_lots SET remaining = remaining - $2 WHERE id = $1 AND remaining >= $2")
                .bind(lot_id)
                .bind(pay)
                .execute(&mut *tx)
                .await?;
        }
        let entry = Entry {
            user_id,
            kind: "earned",
            business_type: &l.business_type,
            business_id: &l.business_id,
            direction: "mature",
            points: l.points,
            d_pending: -l.points,
            d_available: l.points - pay,
            d_owed: -pay,
            lot_id: Some(lot_id),
            expires_at: Some(l.expires_at),
            ..Entry::default()
        };
        if !append(&mut tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(&mut tx, &entry, now).await? {
            // The pending balance does not hold these points: never make them available.
            tracing::error!(
                lot_id,
                user_id,
                "maturing a lot the pending balance does not cover: refused"
            );
            return Ok(Applied::Nothing);
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Credits available points at once (a gift, an adjustment, points given back): a new lot
    /// expiring at `expires_at`, owed points paid back first. Once per business key.
    #[allow(clippy::too_many_arguments)]
    pub async fn credit_available_in(
        tx: &mut Tx,
        user_id: i64,
        kind: &str,
        business_type: &str,
        business_id: &str,
        direction: &str,
        points: i64,
        expires_at: i64,
        note: Option<&str>,
        now: i64,
    ) -> Result<Applied, DbError> {
        if points <= 0 {
            return Ok(Applied::Nothing);
        }
        if entry_exists(tx, business_type, business_id, direction).await? {
            return Ok(Applied::Already);
        }
        let acc = account_in(tx, user_id).await?;
        let pay = acc.owed.min(points);
        let lot_type = format!("{business_type}:{direction}");
        let lot_id = insert_lot(
            tx,
            user_id,
            &lot_type,
            business_id,
            points,
            "available",
            now,
            expires_at,
            now,
        )
        .await?;
        if pay > 0 {
            sqlx::query("UPDATE points_lots SET remaining = remaining - $2 WHERE id = $1")
                .bind(lot_id)
                .bind(pay)
                .execute(&mut **tx)
                .await?;
        }
        let entry = Entry {
            user_id,
            kind,
            business_type,
            business_id,
            direction,
            points,
            d_available: points - pay,
            d_owed: -pay,
            lot_id: Some(lot_id),
            expires_at: Some(expires_at),
            note,
            ..Entry::default()
        };
        if !append(tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(tx, &entry, now).await? {
            return Err(DbError::Conflict("points account".into()));
        }
        Ok(Applied::Now)
    }

    /// Takes `points` from what is available, soonest-expiring lots first (an adjustment down).
    /// Refused, changing nothing, when the member has fewer.
    #[allow(clippy::too_many_arguments)]
    pub async fn debit_available_in(
        tx: &mut Tx,
        user_id: i64,
        kind: &str,
        business_type: &str,
        business_id: &str,
        direction: &str,
        points: i64,
        note: Option<&str>,
        now: i64,
    ) -> Result<Applied, PointsError> {
        if entry_exists(tx, business_type, business_id, direction).await? {
            return Ok(Applied::Already);
        }
        take_from_lots(tx, user_id, points, None, now).await?;
        let entry = Entry {
            user_id,
            kind,
            business_type,
            business_id,
            direction,
            points: -points,
            d_available: -points,
            note,
            ..Entry::default()
        };
        if !append(tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(tx, &entry, now).await? {
            let available = account_in(tx, user_id).await?.available;
            return Err(PointsError::NotEnough { available });
        }
        Ok(Applied::Now)
    }

    /// Authorises `points` for order `order_no` inside the caller's transaction (submit): lots
    /// taken soonest-expiring first, the hold recorded, the entry (deduction, orderNo, hold).
    /// Refused, changing nothing, when the member has fewer available points.
    pub async fn hold_in(
        tx: &mut Tx,
        user_id: i64,
        order_no: &str,
        points: i64,
        now: i64,
    ) -> Result<Applied, PointsError> {
        if points <= 0 {
            return Ok(Applied::Nothing);
        }
        touch(tx, user_id, now).await?;
        let taken = take_from_lots(tx, user_id, points, None, now).await?;
        let entry = Entry {
            user_id,
            kind: "spent",
            business_type: "deduction",
            business_id: order_no,
            direction: "hold",
            points: -points,
            d_available: -points,
            d_held: points,
            ..Entry::default()
        };
        if !append(tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        // The guarded decrement: the balance never goes below zero, whatever raced.
        if !apply(tx, &entry, now).await? {
            let available = account_in(tx, user_id).await?.available;
            return Err(PointsError::NotEnough { available });
        }
        let lots = serde_json::to_string(&taken).map_err(DbError::from)?;
        sqlx::query(
            "INSERT INTO points_holds (order_no, user_id, points, status, lots, created_at, updated_at) \
             VALUES ($1, $2, $3, 'held', $4, $5, $5)",
        )
        .bind(order_no)
        .bind(user_id)
        .bind(points)
        .bind(lots)
        .bind(now)
        .execute(&mut **tx)
        .await
        .map_err(DbError::from)?;
        Ok(Applied::Now)
    }

    /// The same in its own transaction.
    pub async fn hold(
        &self,
        user_id: i64,
        order_no: &str,
        points: i64,
        now: i64,
    ) -> Result<Applied, PointsError> {
        let mut tx = self.begin_for(user_id, now).await?;
        let done = Self::hold_in(&mut tx, user_id, order_no, points, now).await?;
        if done == Applied::Now {
            tx.commit().await?;
        }
        Ok(done)
    }

    /// The hold of an order: (user, points, status).
    pub async fn hold_of(&self, order_no: &str) -> Result<Option<(i64, i64, String)>, DbError> {
        let row =
            sqlx::query("SELECT user_id, points, status FROM points_holds WHERE order_no = $1")
                .bind(order_no)
                .fetch_optional(self.db.pool())
                .await?;
        Ok(match row {
            Some(r) => Some((
                r.try_get("user_id")?,
                r.try_get("points")?,
                r.try_get("status")?,
            )),
            None => None,
        })
    }

    /// Captures an order's held points (it was paid): held → captured, once.
    pub async fn capture(&self, order_no: &str, now: i64) -> Result<Applied, DbError> {
        self.settle_hold(order_no, "captured", now).await
    }

    /// Gives an order's held points back (it closed unpaid): held → released, once; the lots
    /// get back what was taken from them.
    pub async fn release(&self, order_no: &str, now: i64) -> Result<Applied, DbError> {
        self.settle_hold(order_no, "released", now).await
    }

    async fn settle_hold(&self, order_no: &str, to: &str, now: i64) -> Result<Applied, DbError> {
        let Some((user_id, points, _)) = self.hold_of(order_no).await? else {
            return Ok(Applied::Nothing);
        };
        let mut tx = self.begin_for(user_id, now).await?;
        let moved = sqlx::query(
            "UPDATE points_holds SET status = $2, updated_at = $3 WHERE order_no = $1 AND status = 'held'",
        )
        .bind(order_no)
        .bind(to)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            return Ok(Applied::Already);
        }
        let entry = if to == "released" {
            let row = sqlx::query("SELECT lots FROM points_holds WHERE order_no = $1")
                .bind(order_no)
                .fetch_one(&mut *tx)
                .await?;
            let lots: Vec<(i64, i64)> = serde_json::from_str(&row.try_get::<String, _>("lots")?)?;
            for (lot_id, take) in lots {
                sqlx::query("UPDATE points_lots SET remaining = remaining + $2 WHERE id = $1")
                    .bind(lot_id)
                    .bind(take)
                    .execute(&mut *tx)
                    .await?;
            }
            Entry {
                user_id,
                kind: "released",
                business_type: "deduction",
                business_id: order_no,
                direction: "release",
                points,
                d_available: points,
                d_held: -points,
                ..Entry::default()
            }
        } else {
            Entry {
                user_id,
                kind: "spent",
                business_type: "deduction",
                business_id: order_no,
                direction: "capture",
                points: 0,
                d_held: -points,
                ..Entry::default()
            }
        };
        if !append(&mut tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(&mut tx, &entry, now).await? {
            return Err(DbError::Conflict("points hold".into()));
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Reverses what order `order_no` earned (it was refunded): a pending lot is cancelled; an
    /// available one is taken back from what the member has, soonest-expiring lots first after
    /// the order's own, and what they no longer have (spent meanwhile) is recorded as owed,
    /// paid back by their next credits; the balance never goes negative. Points the order used
    /// (captured) come back as a new lot. Once per order: (refund, orderNo, reverse); a credit
    /// that runs afterwards credits nothing.
    pub async fn reverse_order(
        &self,
        user_id: i64,
        order_no: &str,
        expires_at: i64,
        now: i64,
    ) -> Result<Applied, DbError> {
        let mut tx = self.begin_for(user_id, now).await?;
        if entry_exists(&mut tx, "refund", order_no, "reverse").await? {
            return Ok(Applied::Already);
        }
        let l = sqlx::query(&format!(
            "SELECT {LOT_COLUMNS} FROM points_lots WHERE business_type = 'order' AND business_id = $1"
        ))
        .bind(order_no)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| lot(&r))
        .transpose()?;
        let mut entry = Entry {
            user_id,
            kind: "reversed",
            business_type: "refund",
            business_id: order_no,
            direction: "reverse",
            ..Entry::default()
        };
        if let Some(l) = l.filter(|l| l.user_id == user_id) {
            entry.lot_id = Some(l.id);
            entry.points = -l.points;
            match l.status.as_str() {
                "pending" => {
                    sqlx::query("UPDATE points_lots SET status = 'reversed', remaining = 0 WHERE id = $1 AND status = 'pending'")
                        .bind(l.id)
                        .execute(&mut *tx)
                        .await?;
                    entry.d_pending = -l.points;
                }
                "available" => {
                    let acc = account_in(&mut tx, user_id).await?;
                    let take = l.points.min(acc.available);
                    take_from_lots(&mut tx, user_id, take, Some(l.id), now)
                        .await
                        .map_err(|e| match e {
                            PointsError::Db(d) => d,
                            PointsError::NotEnough { .. } => {
                                DbError::Conflict("points lots".into())
                            }
                        })?;
                    // The lot stays available (now empty): points of it held for an order
                    // are still the member's, and a release gives them back to it.
                    entry.d_available = -take;
                    entry.d_owed = l.points - take;
                }
                _ => entry.points = 0,
            }
        }
        if !append(&mut tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(&mut tx, &entry, now).await? {
            return Err(DbError::Conflict("points account".into()));
        }
        // Points the order used come back.
        let used = sqlx::query(
            "SELECT points FROM points_holds WHERE order_no = $1 AND status = 'captured' AND user_id = $2",
        )
        .bind(order_no)
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(r) = used {
            let points: i64 = r.try_get("points")?;
            Self::credit_available_in(
                &mut tx, user_id, "released", "refund", order_no, "restore", points, expires_at,
                None, now,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Available lots past their expiry with points left.
    pub async fn expired_lots(&self, now: i64, limit: i64) -> Result<Vec<LotRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {LOT_COLUMNS} FROM points_lots WHERE status = 'available' AND remaining > 0 \
             AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.iter().map(lot).collect::<Result<_, _>>()?)
    }

    /// Expires what is left of a lot past its expiry, by an entry (expiry, "lot:expiredSoFar",
    /// expire): the lot's remaining goes to zero only if it is still what was read.
    pub async fn expire_lot(
        &self,
        lot_id: i64,
        user_id: i64,
        now: i64,
    ) -> Result<Applied, DbError> {
        let mut tx = self.begin_for(user_id, now).await?;
        let Some(l) = get_lot(&mut tx, lot_id).await? else {
            return Ok(Applied::Nothing);
        };
        if l.status != "available" || l.remaining <= 0 || l.expires_at > now || l.user_id != user_id
        {
            return Ok(Applied::Nothing);
        }
        let cut = sqlx::query(
            "UPDATE points_lots SET remaining = 0, expired = expired + $2 WHERE id = $1 AND remaining = $2",
        )
        .bind(lot_id)
        .bind(l.remaining)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if cut != 1 {
            return Ok(Applied::Nothing);
        }
        let key = format!("{}:{}", lot_id, l.expired);
        let entry = Entry {
            user_id,
            kind: "expired",
            business_type: "expiry",
            business_id: &key,
            direction: "expire",
            points: -l.remaining,
            d_available: -l.remaining,
            lot_id: Some(lot_id),
            expires_at: Some(l.expires_at),
            ..Entry::default()
        };
        if !append(&mut tx, &entry, now).await? {
            return Ok(Applied::Already);
        }
        if !apply(&mut tx, &entry, now).await? {
            return Err(DbError::Conflict("points account".into()));
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Completed orders with no credit entry yet (the sweep's backstop of the completion hook).
    pub async fn uncredited_completed(
        &self,
        since: i64,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query(
            "SELECT o.order_no FROM orders o WHERE o.state = 8 AND o.updated_at >= $1 \
             AND NOT EXISTS (SELECT 1 FROM points_entries e WHERE e.business_type = 'order' \
             AND e.business_id = o.order_no AND e.direction = 'credit') ORDER BY o.updated_at LIMIT $2",
        )
        .bind(since)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("order_no"))
            .collect::<Result<_, _>>()?)
    }

    /// Holds still held, with their order's state.
    pub async fn open_holds(&self, limit: i64) -> Result<Vec<(String, i64)>, DbError> {
        let rows = sqlx::query(
            "SELECT h.order_no, o.state FROM points_holds h JOIN orders o ON o.order_no = h.order_no \
             WHERE h.status = 'held' ORDER BY h.created_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("order_no")?, r.try_get("state")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
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

    /// Compares every cached balance with its ledger sums, and with its lots and holds.
    pub async fn reconcile(&self) -> Result<ReconcileReport, DbError> {
        let rows = sqlx::query(
            "SELECT a.user_id, a.available, a.pending, a.held, a.owed, \
             (SELECT CAST(COALESCE(SUM(e.d_available), 0) AS BIGINT) FROM points_entries e WHERE e.user_id = a.user_id) AS la, \
             (SELECT CAST(COALESCE(SUM(e.d_pending), 0) AS BIGINT) FROM points_entries e WHERE e.user_id = a.user_id) AS lp, \
             (SELECT CAST(COALESCE(SUM(e.d_held), 0) AS BIGINT) FROM points_entries e WHERE e.user_id = a.user_id) AS lh, \
             (SELECT CAST(COALESCE(SUM(e.d_owed), 0) AS BIGINT) FROM points_entries e WHERE e.user_id = a.user_id) AS lo, \
             (SELECT CAST(COALESCE(SUM(l.remaining), 0) AS BIGINT) FROM points_lots l WHERE l.user_id = a.user_id AND l.status = 'available') AS ta, \
             (SELECT CAST(COALESCE(SUM(l.points), 0) AS BIGINT) FROM points_lots l WHERE l.user_id = a.user_id AND l.status = 'pending') AS tp, \
             (SELECT CAST(COALESCE(SUM(h.points), 0) AS BIGINT) FROM points_holds h WHERE h.user_id = a.user_id AND h.status = 'held') AS th \
             FROM points_accounts a ORDER BY a.user_id",
        )
        .fetch_all(self.db.pool())
        .await?;
        let mut report = ReconcileReport::default();
        for r in rows {
            report.checked += 1;
            let cached = Account {
                available: r.try_get("available")?,
                pending: r.try_get("pending")?,
                held: r.try_get("held")?,
                owed: r.try_get("owed")?,
            };
            let ledger = Account {
                available: r.try_get("la")?,
                pending: r.try_get("lp")?,
                held: r.try_get("lh")?,
                owed: r.try_get("lo")?,
            };
            let (ta, tp, th): (i64, i64, i64) =
                (r.try_get("ta")?, r.try_get("tp")?, r.try_get("th")?);
            if cached != ledger
                || ta != cached.available
                || tp != cached.pending
                || th != cached.held
            {
                report.mismatches.push(Mismatch {
                    user_id: r.try_get("user_id")?,
                    cached,
                    ledger,
                    lots_available: ta,
                    lots_pending: tp,
                    holds_held: th,
                });
            }
        }
        Ok(report)
    }
}

/// Takes the member's account row: inserted at zero if missing, then written, so the
/// transaction holds it (and SQLite's write lock) before reading anything.
async fn touch(tx: &mut Tx, user_id: i64, now: i64) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO points_accounts (user_id, updated_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(user_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE points_accounts SET updated_at = $2 WHERE user_id = $1")
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

async fn get_lot(tx: &mut Tx, lot_id: i64) -> Result<Option<LotRow>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {LOT_COLUMNS} FROM points_lots WHERE id = $1"
    ))
    .bind(lot_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| lot(&r)).transpose()?)
}

#[allow(clippy::too_many_arguments)]
async fn insert_lot(
    tx: &mut Tx,
    user_id: i64,
    business_type: &str,
    business_id: &str,
    points: i64,
    status: &str,
    matures_at: i64,
    expires_at: i64,
    now: i64,
) -> Result<i64, DbError> {
    let row = sqlx::query(
        "INSERT INTO points_lots (user_id, business_type, business_id, points, remaining, status, \
         matures_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(user_id)
    .bind(business_type)
    .bind(business_id)
    .bind(points)
    .bind(status)
    .bind(matures_at)
    .bind(expires_at)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.try_get("id")?)
}

/// Takes `points` from the member's spendable lots (`first` before the others, then
/// soonest-expiring first), each a guarded decrement. Answers what it took from which lot.
/// `first` set (a reversal): lots past their expiry not swept yet count too, since the
/// balance still holds them.
async fn take_from_lots(
    tx: &mut Tx,
    user_id: i64,
    points: i64,
    first: Option<i64>,
    now: i64,
) -> Result<Vec<(i64, i64)>, PointsError> {
    let now = if first.is_some() { i64::MIN } else { now };
    if points <= 0 {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT id, remaining, expires_at FROM points_lots WHERE user_id = $1 AND status = 'available' \
         AND remaining > 0 AND (expires_at > $2 OR id = $3)",
    )
    .bind(user_id)
    .bind(now)
    .bind(first.unwrap_or(-1))
    .fetch_all(&mut **tx)
    .await?;
    let mut lots = Vec::with_capacity(rows.len());
    for r in rows {
        let id: i64 = r.try_get("id")?;
        lots.push(SpendableLot {
            id,
            remaining: r.try_get("remaining")?,
            // The order's own lot goes first.
            expires_at: if Some(id) == first {
                i64::MIN
            } else {
                r.try_get("expires_at")?
            },
        });
    }
    let available: i64 = lots.iter().map(|l| l.remaining).sum();
    let plan = allocate(&lots, points).ok_or(PointsError::NotEnough { available })?;
    for (lot_id, take) in &plan {
        let done = sqlx::query(
            "UPDATE points_lots SET remaining = remaining - $2 WHERE id = $1 AND remaining >= $2",
        )
        .bind(lot_id)
        .bind(take)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if done != 1 {
            return Err(PointsError::NotEnough { available });
        }
    }
    Ok(plan)
}

/// Appends the entry; false when its business key is taken (the move was made before).
pub async fn append(tx: &mut Tx, e: &Entry<'_>, now: i64) -> Result<bool, DbError> {
    let row = sqlx::query(
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
    Ok(row.is_some())
}

/// Applies an entry's deltas to the account, only if no column goes below zero.
async fn apply(tx: &mut Tx, e: &Entry<'_>, now: i64) -> Result<bool, DbError> {
    let done = sqlx::query(
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
    Ok(done == 1)
}
