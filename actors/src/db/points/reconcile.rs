//! The reconcile report, and the listings the sweeps work through.

use super::lots::{lot, LOT_COLUMNS};
use super::{Account, LotRow, Mismatch, PointsRepo, ReconcileReport};
use crate::db::reversals::closed_states;
use crate::db::DbError;
use sqlx::Row;

impl PointsRepo {
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

    /// Holds still to settle, with their order's state: those still held, and those captured
    /// for an order that then closed without being completed (cancelled after payment,
    /// refused), whose points are owed back.
    pub async fn open_holds(&self, limit: i64) -> Result<Vec<(String, i64)>, DbError> {
        let closed = closed_states();
        let rows = sqlx::query(&format!(
            "SELECT h.order_no, o.state FROM points_holds h JOIN orders o ON o.order_no = h.order_no \
             WHERE h.status = 'held' OR (h.status = 'captured' AND o.state IN ({closed})) \
             ORDER BY h.created_at LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("order_no")?, r.try_get("state")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
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
