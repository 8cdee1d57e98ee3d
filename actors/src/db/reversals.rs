//! The ended orders compared with what their ledgers hold (issue 34): a reversal that was lost
//! (a hook that failed, a crash between the refund and the give-back) leaves each ledger
//! agreeing with itself, so only this comparison finds it.
//!
//! What each way of ending must leave (docs/payments-and-orders.md, "What each ending gives
//! back"):
//! - closed without completing (cancelled, refused, expired): no money kept (no attempt still
//!   `paid`), its points hold released or restored, its coupons given back;
//! - completed, then refunded by the chain (no attempt keeps its money, one was refunded):
//!   its spend taken back, its points reversed (earned and used), its coupons given back, the
//!   gifts its completion unlocked revoked.

use super::{Db, DbError};
use crate::domain::ordering::order_machine::state as s;
use sqlx::Row;

/// One order whose ledgers do not hold what its ending requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostReversal {
    pub order_no: String,
    pub user_id: i64,
    /// Which ledger: "money", "points", "coupons", "spend" or "gifts".
    pub ledger: &'static str,
    /// What it still holds, in words for operations.
    pub found: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReversalReport {
    /// Ended orders compared.
    pub checked: i64,
    pub lost: Vec<LostReversal>,
}

/// The states of an order that closed without being completed (refused, cancelled, expired
/// unpaid), as SQL.
pub(crate) fn closed_states() -> String {
    format!(
        "{}, {}, {}",
        s::REFUSED_BY_STORE,
        s::CANCELLED_BY_CUSTOMER,
        s::EXPIRED_UNPAID
    )
}

/// A completed order whose money the chain gave back: no attempt keeps it, one was refunded.
fn refunded_completed(o: &str) -> String {
    format!(
        "{o}.state = {} AND EXISTS (SELECT 1 FROM payments p WHERE p.order_no = {o}.order_no \
         AND p.state IN ('refunding', 'refunded')) AND NOT EXISTS (SELECT 1 FROM payments p \
         WHERE p.order_no = {o}.order_no AND p.state = 'paid')",
        s::COMPLETED
    )
}

#[derive(Clone, Debug)]
pub struct ReversalRepo {
    db: Db,
}

impl ReversalRepo {
    pub fn new(db: Db) -> ReversalRepo {
        ReversalRepo { db }
    }

    /// Every ended order last moved at or before `settled_before` (younger ones may still be
    /// on their way through the hooks and outboxes), compared with its ledgers.
    pub async fn reconcile(&self, settled_before: i64) -> Result<ReversalReport, DbError> {
        let closed = closed_states();
        let refunded = refunded_completed("o");
        let checked: i64 = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM orders o WHERE o.updated_at <= $1 \
             AND (o.state IN ({closed}) OR ({refunded}))"
        ))
        .bind(settled_before)
        .fetch_one(self.db.pool())
        .await?
        .try_get("n")?;
        let checks: [(&'static str, String); 8] = [
            (
                "money",
                format!(
                    "SELECT o.order_no, o.user_id, 'payment ' || p.payment_id || ' still paid' AS found \
                     FROM orders o JOIN payments p ON p.order_no = o.order_no \
                     WHERE o.state IN ({closed}) AND p.state = 'paid'"
                ),
            ),
            (
                "points",
                format!(
                    "SELECT o.order_no, o.user_id, 'hold still ' || h.status AS found \
                     FROM orders o JOIN points_holds h ON h.order_no = o.order_no \
                     WHERE o.state IN ({closed}) AND h.status IN ('held', 'captured')"
                ),
            ),
            (
                "coupons",
                format!(
                    "SELECT o.order_no, o.user_id, 'coupon ' || c.coupon_code || ' still ' || c.status AS found \
                     FROM orders o JOIN coupons c ON c.order_no = o.order_no \
                     WHERE (o.state IN ({closed}) OR ({refunded})) AND c.status IN ('LOCKED', 'USED')"
                ),
            ),
            (
                "points",
                format!(
                    "SELECT o.order_no, o.user_id, 'points used still captured' AS found \
                     FROM orders o JOIN points_holds h ON h.order_no = o.order_no \
                     WHERE ({refunded}) AND h.status = 'captured'"
                ),
            ),
            (
                "points",
                format!(
                    "SELECT o.order_no, o.user_id, 'points earned not reversed' AS found FROM orders o \
                     WHERE ({refunded}) AND NOT EXISTS (SELECT 1 FROM points_entries e \
                     WHERE e.business_type = 'refund' AND e.business_id = o.order_no AND e.direction = 'reverse')"
                ),
            ),
            (
                "points",
                format!(
                    "SELECT o.order_no, o.user_id, 'lot ' || l.status || ' not reversed' AS found \
                     FROM orders o JOIN points_lots l ON l.business_type = 'order' AND l.business_id = o.order_no \
                     WHERE ({refunded}) AND l.status = 'pending'"
                ),
            ),
            (
                "spend",
                format!(
                    "SELECT o.order_no, o.user_id, 'spend not taken back' AS found FROM orders o \
                     WHERE ({refunded}) AND EXISTS (SELECT 1 FROM loyalty_spend sp \
                     WHERE sp.business_type = 'order' AND sp.business_id = o.order_no) \
                     AND NOT EXISTS (SELECT 1 FROM loyalty_spend sp \
                     WHERE sp.business_type = 'refund' AND sp.business_id = o.order_no)"
                ),
            ),
            (
                "gifts",
                format!(
                    "SELECT o.order_no, o.user_id, 'gift ' || g.gift_id || ' still ' || g.status AS found \
                     FROM orders o JOIN loyalty_gifts g ON g.order_no = o.order_no \
                     WHERE ({refunded}) AND g.status IN ('available', 'claimed')"
                ),
            ),
        ];
        let mut lost = Vec::new();
        for (ledger, sql) in checks {
            let rows = sqlx::query(&format!("{sql} AND o.updated_at <= $1 ORDER BY o.order_no"))
                .bind(settled_before)
                .fetch_all(self.db.pool())
                .await?;
            for r in rows {
                lost.push(LostReversal {
                    order_no: r.try_get("order_no")?,
                    user_id: r.try_get("user_id")?,
                    ledger,
                    found: r.try_get("found")?,
                });
            }
        }
        Ok(ReversalReport { checked, lost })
    }

    /// Completed orders whose money the chain gave back but whose loyalty was not reversed (the
    /// refund's hook failed): the sweep runs the reversal for them.
    pub async fn unreversed_refunds(&self, limit: i64) -> Result<Vec<String>, DbError> {
        let refunded = refunded_completed("o");
        let rows = sqlx::query(&format!(
            "SELECT o.order_no FROM orders o WHERE ({refunded}) AND NOT EXISTS \
             (SELECT 1 FROM points_entries e WHERE e.business_type = 'refund' \
             AND e.business_id = o.order_no AND e.direction = 'reverse') \
             ORDER BY o.updated_at LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("order_no"))
            .collect::<Result<_, _>>()?)
    }
}
