//! The lots: their rows, and taking points from the spendable ones.

use super::{LotRow, PointsError, Tx};
use crate::db::DbError;
use crate::domain::loyalty::{allocate, SpendableLot};
use sqlx::any::AnyRow;
use sqlx::Row;

pub(super) const LOT_COLUMNS: &str =
    "id, user_id, business_type, business_id, points, remaining, expired, \
    status, matures_at, expires_at";

pub(super) fn lot(r: &AnyRow) -> Result<LotRow, sqlx::Error> {
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

pub(super) async fn get_lot(tx: &mut Tx, lot_id: i64) -> Result<Option<LotRow>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {LOT_COLUMNS} FROM points_lots WHERE id = $1"
    ))
    .bind(lot_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| lot(&r)).transpose()?)
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn insert_lot(
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
pub(super) async fn take_from_lots(
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
