//! The holds at checkout (hold, capture, release) and the reversal of a refunded order.

use super::lots::{lot, take_from_lots, LOT_COLUMNS};
use super::{
    account_in, entry_exists, move_points, touch, Applied, Entry, Moved, PointsError, PointsRepo,
    Tx,
};
use crate::db::DbError;
use sqlx::Row;

impl PointsRepo {
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
        // The guarded decrement: the balance never goes below zero, whatever raced.
        match move_points(tx, &entry, now).await? {
            Moved::Applied => {}
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => {
                let available = account_in(tx, user_id).await?.available;
                return Err(PointsError::NotEnough { available });
            }
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
        self.settle_hold(order_no, HoldMove::Capture, now).await
    }

    /// Gives an order's points back (it closed without being completed: unpaid, cancelled
    /// after payment, refused): a hold still held is released, one captured at payment is
    /// restored; either way each lot gets back what was taken from it, so the points keep the
    /// expiry they had (a lot past it is expired again by the sweep). Once per order.
    pub async fn give_back(&self, order_no: &str, now: i64) -> Result<Applied, DbError> {
        match self.hold_of(order_no).await? {
            None => Ok(Applied::Nothing),
            Some((_, _, status)) => match status.as_str() {
                "held" => match self.settle_hold(order_no, HoldMove::Release, now).await? {
                    // Captured meanwhile (a payment raced the cancel): restore it instead.
                    Applied::Already => self.settle_hold(order_no, HoldMove::Restore, now).await,
                    done => Ok(done),
                },
                "captured" => self.settle_hold(order_no, HoldMove::Restore, now).await,
                _ => Ok(Applied::Already),
            },
        }
    }

    async fn settle_hold(
        &self,
        order_no: &str,
        how: HoldMove,
        now: i64,
    ) -> Result<Applied, DbError> {
        let Some((user_id, points, _)) = self.hold_of(order_no).await? else {
            return Ok(Applied::Nothing);
        };
        let mut tx = self.begin_for(user_id, now).await?;
        let moved = sqlx::query(
            "UPDATE points_holds SET status = $2, updated_at = $3 WHERE order_no = $1 AND status = $4",
        )
        .bind(order_no)
        .bind(how.to())
        .bind(now)
        .bind(how.from())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            return Ok(Applied::Already);
        }
        let entry = match how {
            HoldMove::Capture => Entry {
                user_id,
                kind: "spent",
                business_type: "deduction",
                business_id: order_no,
                direction: "capture",
                points: 0,
                d_held: -points,
                ..Entry::default()
            },
            HoldMove::Release | HoldMove::Restore => {
                give_lots_back(&mut tx, order_no).await?;
                Entry {
                    user_id,
                    kind: "released",
                    business_type: "deduction",
                    business_id: order_no,
                    direction: how.to_direction(),
                    points,
                    d_available: points,
                    // A captured hold left `held` at payment already.
                    d_held: if how == HoldMove::Release { -points } else { 0 },
                    ..Entry::default()
                }
            }
        };
        match move_points(&mut tx, &entry, now).await? {
            Moved::Applied => {}
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => return Err(DbError::Conflict("points hold".into())),
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
        match move_points(&mut tx, &entry, now).await? {
            Moved::Applied => {}
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => return Err(DbError::Conflict("points account".into())),
        }
        // Points the order used come back (the hold moves to restored, so no other path gives
        // them back again).
        let used = sqlx::query(
            "SELECT points FROM points_holds WHERE order_no = $1 AND status = 'captured' AND user_id = $2",
        )
        .bind(order_no)
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
        // A closed account forfeited its holds at closure: nothing is captured any more.
        if let Some(r) = used {
            let points: i64 = r.try_get("points")?;
            sqlx::query(
                "UPDATE points_holds SET status = 'restored', updated_at = $2 WHERE order_no = $1 AND status = 'captured'",
            )
            .bind(order_no)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            Self::credit_available_in(
                &mut tx, user_id, "released", "refund", order_no, "restore", points, expires_at,
                None, now,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }
}

/// What settling a hold does: capture at payment; release (never paid) and restore (paid,
/// then cancelled or refused before completion) give the points back to their lots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HoldMove {
    Capture,
    Release,
    Restore,
}

impl HoldMove {
    fn from(self) -> &'static str {
        match self {
            HoldMove::Capture | HoldMove::Release => "held",
            HoldMove::Restore => "captured",
        }
    }

    fn to(self) -> &'static str {
        match self {
            HoldMove::Capture => "captured",
            HoldMove::Release => "released",
            HoldMove::Restore => "restored",
        }
    }

    /// The ledger entry's direction (its unique key with the order number).
    fn to_direction(self) -> &'static str {
        match self {
            HoldMove::Capture => "capture",
            HoldMove::Release => "release",
            HoldMove::Restore => "restore",
        }
    }
}

/// Each lot an order's hold took from gets its points back.
async fn give_lots_back(tx: &mut Tx, order_no: &str) -> Result<(), DbError> {
    let row = sqlx::query("SELECT lots FROM points_holds WHERE order_no = $1")
        .bind(order_no)
        .fetch_one(&mut **tx)
        .await?;
    let lots: Vec<(i64, i64)> = serde_json::from_str(&row.try_get::<String, _>("lots")?)?;
    for (lot_id, take) in lots {
        sqlx::query("UPDATE points_lots SET remaining = remaining + $2 WHERE id = $1")
            .bind(lot_id)
            .bind(take)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
