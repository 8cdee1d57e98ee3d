//! The moves of the ledger: credit (pending, available), debit, mature, expire.

use super::lots::{get_lot, insert_lot, take_from_lots};
use super::{
    account_in, entry_exists, move_points, touch, Applied, Entry, Moved, PointsError, PointsRepo,
    Tx,
};
use crate::db::DbError;

impl PointsRepo {
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
        match move_points(&mut tx, &entry, now).await? {
            Moved::Applied => {}
            // Dropped: the lot goes with the transaction.
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => return Err(DbError::Conflict("points account".into())),
        }
        tx.commit().await?;
        Ok(Applied::Now)
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
        match move_points(&mut tx, &entry, now).await? {
            Moved::Applied => {}
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => {
                // The pending balance does not hold these points: never make them available.
                tracing::error!(
                    lot_id,
                    user_id,
                    "maturing a lot the pending balance does not cover: refused"
                );
                return Ok(Applied::Nothing);
            }
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
        match move_points(tx, &entry, now).await? {
            Moved::Applied => Ok(Applied::Now),
            Moved::Already => Ok(Applied::Already),
            Moved::Refused => Err(DbError::Conflict("points account".into())),
        }
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
        match move_points(tx, &entry, now).await? {
            Moved::Applied => Ok(Applied::Now),
            Moved::Already => Ok(Applied::Already),
            Moved::Refused => {
                let available = account_in(tx, user_id).await?.available;
                Err(PointsError::NotEnough { available })
            }
        }
    }

    /// Takes back `points` a member was given (a gift its order's refund revoked): what they
    /// still have, soonest-expiring lots first, and the rest recorded as owed, paid back by
    /// their next credits; the balance never goes negative. Once per business key.
    #[allow(clippy::too_many_arguments)]
    pub async fn claw_back_in(
        tx: &mut Tx,
        user_id: i64,
        kind: &str,
        business_type: &str,
        business_id: &str,
        direction: &str,
        points: i64,
        now: i64,
    ) -> Result<Applied, DbError> {
        if points <= 0 {
            return Ok(Applied::Nothing);
        }
        if entry_exists(tx, business_type, business_id, direction).await? {
            return Ok(Applied::Already);
        }
        let take = points.min(account_in(tx, user_id).await?.available);
        // No lot first (-1 names none), but lots past their expiry not swept yet count, as the
        // balance still holds them.
        take_from_lots(tx, user_id, take, Some(-1), now)
            .await
            .map_err(|e| match e {
                PointsError::Db(d) => d,
                PointsError::NotEnough { .. } => DbError::Conflict("points lots".into()),
            })?;
        let entry = Entry {
            user_id,
            kind,
            business_type,
            business_id,
            direction,
            points: -points,
            d_available: -take,
            d_owed: points - take,
            ..Entry::default()
        };
        match move_points(tx, &entry, now).await? {
            Moved::Applied => Ok(Applied::Now),
            Moved::Already => Ok(Applied::Already),
            Moved::Refused => Err(DbError::Conflict("points account".into())),
        }
    }

    /// Forfeits everything a closing account holds, in the caller's transaction (the account's
    /// closure): available and pending lots emptied, holds of orders not settled yet and a
    /// debt forgiven, one entry (closure, userId, forfeit) with every delta, so the account
    /// ends at zero in each column and no later give-back can refill it (a forfeited hold is
    /// neither released nor restored). Once per account.
    pub async fn forfeit_all_in(tx: &mut Tx, user_id: i64, now: i64) -> Result<Applied, DbError> {
        touch(tx, user_id, now).await?;
        let key = user_id.to_string();
        if entry_exists(tx, "closure", &key, "forfeit").await? {
            return Ok(Applied::Already);
        }
        let acc = account_in(tx, user_id).await?;
        sqlx::query(
            "UPDATE points_lots SET status = 'forfeited', remaining = 0 \
             WHERE user_id = $1 AND status IN ('available', 'pending')",
        )
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "UPDATE points_holds SET status = 'forfeited', updated_at = $2 \
             WHERE user_id = $1 AND status IN ('held', 'captured')",
        )
        .bind(user_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        let entry = Entry {
            user_id,
            kind: "forfeited",
            business_type: "closure",
            business_id: &key,
            direction: "forfeit",
            points: -(acc.available + acc.pending + acc.held),
            d_available: -acc.available,
            d_pending: -acc.pending,
            d_held: -acc.held,
            d_owed: -acc.owed,
            ..Entry::default()
        };
        match move_points(tx, &entry, now).await? {
            Moved::Applied => Ok(Applied::Now),
            Moved::Already => Ok(Applied::Already),
            Moved::Refused => Err(DbError::Conflict("points account".into())),
        }
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
        match move_points(&mut tx, &entry, now).await? {
            Moved::Applied => {}
            Moved::Already => return Ok(Applied::Already),
            Moved::Refused => return Err(DbError::Conflict("points account".into())),
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }
}
