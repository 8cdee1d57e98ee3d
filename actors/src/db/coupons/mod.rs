//! Coupons (issue 24): templates with guarded issue counters, customers' coupons, their events,
//! exchange codes and the give-back outbox (migration 0016).
//!
//! Every move of a coupon is one compare-and-set on (coupon_code, status) that writes a
//! `coupon_events` row in the same transaction: a move that lost a race updates no row and
//! writes nothing, so the events of a coupon replay to its status. Issuing (`issue.rs`) bumps
//! the template's and the user's counters with guarded updates, never read-then-insert; the
//! other moves (`moves.rs`) lock, use, give back, expire and transfer.

mod issue;
mod moves;

pub use issue::{
    by_source_in, issue_in, new_coupon_code, normalise_code, ExchangeOutcome, IssueError,
    IssueSource, Issued,
};
pub use moves::{
    enqueue_return_in, forfeit_all_in, give_back_in, DueReturn, ReturnOutcome, TransferError,
};

use super::points::Tx;
use super::{Db, DbError};
use crate::domain::loyalty::coupon::{Coupon, CouponStatus, CouponTemplate};
use sqlx::any::AnyRow;
use sqlx::Row;

#[derive(Debug, thiserror::Error)]
pub enum CouponLockError {
    /// Not this user's, not usable, outside its window, or locked by another order meanwhile.
    #[error("coupon {0} is no longer available")]
    Taken(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<sqlx::Error> for CouponLockError {
    fn from(e: sqlx::Error) -> Self {
        CouponLockError::Db(e.into())
    }
}

/// A template with its counter.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateRow {
    pub template: CouponTemplate,
    pub issued: i64,
}

impl TemplateRow {
    /// None: unlimited.
    pub fn remaining(&self) -> Option<i64> {
        self.template
            .total_limit
            .map(|limit| (limit - self.issued).max(0))
    }
}

/// One coupon event, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub id: i64,
    pub coupon_code: String,
    pub user_id: i64,
    pub from_status: Option<CouponStatus>,
    pub to_status: CouponStatus,
    pub order_no: Option<String>,
    pub reason: String,
    pub created_at: i64,
}

/// The tabs of /my/coupon/list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFilter {
    /// Usable now, and locked by an order in progress.
    Available,
    /// Used and transferred.
    Used,
    /// Expired, or past valid_to whatever the status says (until the sweep catches up).
    Expired,
}

pub(crate) const COUPON_COLUMNS: &str = "c.coupon_code, c.template_code, c.user_id, c.status, \
    c.valid_from, c.valid_to, c.order_no, c.parent_code, c.issued_at";

pub(crate) fn coupon(r: &AnyRow) -> Result<Coupon, DbError> {
    let status: String = r.try_get("status")?;
    Ok(Coupon {
        coupon_code: r.try_get("coupon_code")?,
        template_code: r.try_get("template_code")?,
        user_id: r.try_get("user_id")?,
        status: CouponStatus::parse(&status)
            .ok_or_else(|| DbError::Conflict(format!("coupon status {status}")))?,
        valid_from: r.try_get("valid_from")?,
        valid_to: r.try_get("valid_to")?,
        order_no: r.try_get("order_no")?,
        parent_code: r.try_get("parent_code")?,
        issued_at: r.try_get("issued_at")?,
    })
}

fn template_row(r: &AnyRow) -> Result<TemplateRow, DbError> {
    Ok(TemplateRow {
        template: serde_json::from_str(&r.try_get::<String, _>("body")?)?,
        issued: r.try_get("issued")?,
    })
}

fn event_row(r: &AnyRow) -> Result<EventRow, DbError> {
    let from: Option<String> = r.try_get("from_status")?;
    let to: String = r.try_get("to_status")?;
    Ok(EventRow {
        id: r.try_get("id")?,
        coupon_code: r.try_get("coupon_code")?,
        user_id: r.try_get("user_id")?,
        from_status: from.as_deref().and_then(CouponStatus::parse),
        to_status: CouponStatus::parse(&to)
            .ok_or_else(|| DbError::Conflict(format!("coupon status {to}")))?,
        order_no: r.try_get("order_no")?,
        reason: r.try_get("reason")?,
        created_at: r.try_get("created_at")?,
    })
}

#[derive(Clone, Debug)]
pub struct CouponRepo {
    db: Db,
}

impl CouponRepo {
    pub fn new(db: Db) -> CouponRepo {
        CouponRepo { db }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Lock the coupons for an order inside the checkout transaction (the same `Tx` as
    /// `PointsRepo::hold_in`). Each is a compare-and-set: this user's, Issued or Returned,
    /// within its window; zero rows → `Taken(code)` and the caller rolls back. So of any
    /// number of concurrent checkouts naming one coupon, exactly one commits holding it.
    pub async fn lock_in(
        tx: &mut Tx,
        user_id: i64,
        coupon_codes: &[String],
        order_no: &str,
        now: i64,
    ) -> Result<(), CouponLockError> {
        for code in coupon_codes {
            // Two exact compare-and-sets rather than `status IN (…)`, so the event names the
            // status the coupon really left.
            let mut locked = false;
            for from in [CouponStatus::Issued, CouponStatus::Returned] {
                let done = sqlx::query(
                    "UPDATE coupons SET status = 'LOCKED', order_no = $3, updated_at = $4 \
                     WHERE coupon_code = $1 AND user_id = $2 AND status = $5 \
                     AND valid_from <= $4 AND valid_to > $4",
                )
                .bind(code)
                .bind(user_id)
                .bind(order_no)
                .bind(now)
                .bind(from.as_str())
                .execute(&mut **tx)
                .await?
                .rows_affected();
                if done == 1 {
                    event(
                        tx,
                        code,
                        user_id,
                        Some(from),
                        CouponStatus::Locked,
                        Some(order_no),
                        "checkout",
                        now,
                    )
                    .await?;
                    locked = true;
                    break;
                }
            }
            if !locked {
                return Err(CouponLockError::Taken(code.clone()));
            }
        }
        Ok(())
    }

    /// The user's usable coupons with their templates (for the cart's pricing): Issued or
    /// Returned and within [valid_from, valid_to) at `now`.
    pub async fn usable(
        &self,
        user_id: i64,
        now: i64,
    ) -> Result<Vec<(Coupon, CouponTemplate)>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS}, t.body FROM coupons c \
             JOIN coupon_templates t ON t.template_code = c.template_code \
             WHERE c.user_id = $1 AND c.status IN ('ISSUED', 'RETURNED') \
             AND c.valid_from <= $2 AND c.valid_to > $2 \
             ORDER BY t.sort, c.valid_to, c.coupon_code"
        ))
        .bind(user_id)
        .bind(now)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    coupon(r)?,
                    serde_json::from_str(&r.try_get::<String, _>("body")?)?,
                ))
            })
            .collect()
    }

    pub async fn templates(&self) -> Result<Vec<TemplateRow>, DbError> {
        let rows =
            sqlx::query("SELECT body, issued FROM coupon_templates ORDER BY sort, template_code")
                .fetch_all(self.db.pool())
                .await?;
        rows.iter().map(template_row).collect()
    }

    pub async fn template(&self, template_code: &str) -> Result<Option<TemplateRow>, DbError> {
        let row = sqlx::query("SELECT body, issued FROM coupon_templates WHERE template_code = $1")
            .bind(template_code)
            .fetch_optional(self.db.pool())
            .await?;
        row.as_ref().map(template_row).transpose()
    }

    /// Creates or replaces a template's rule (seeding); the counter is kept.
    pub async fn upsert_template(&self, t: &CouponTemplate, now: i64) -> Result<(), DbError> {
        let body = serde_json::to_string(t)?;
        sqlx::query(
            "INSERT INTO coupon_templates (template_code, body, total_limit, per_user_limit, \
             collectable, sort, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (template_code) DO UPDATE SET body = excluded.body, \
             total_limit = excluded.total_limit, per_user_limit = excluded.per_user_limit, \
             collectable = excluded.collectable, sort = excluded.sort, updated_at = excluded.updated_at",
        )
        .bind(&t.template_code)
        .bind(body)
        .bind(t.total_limit)
        .bind(t.per_user_limit)
        .bind(i64::from(t.collectable))
        .bind(i64::from(t.sort))
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    pub async fn get(&self, coupon_code: &str) -> Result<Option<Coupon>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.coupon_code = $1"
        ))
        .bind(coupon_code)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(coupon).transpose()
    }

    /// One tab of the user's coupons, newest first, with their templates, and the tab's total.
    pub async fn list(
        &self,
        user_id: i64,
        filter: ListFilter,
        now: i64,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<(Coupon, CouponTemplate)>, i64), DbError> {
        let cond = match filter {
            ListFilter::Available => {
                "((c.status IN ('ISSUED', 'RETURNED') AND c.valid_to > $2) OR c.status = 'LOCKED')"
            }
            ListFilter::Used => "c.status IN ('USED', 'TRANSFERRED')",
            ListFilter::Expired => {
                "(c.status = 'EXPIRED' OR (c.status IN ('ISSUED', 'RETURNED') AND c.valid_to <= $2))"
            }
        };
        let rows = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS}, t.body FROM coupons c \
             JOIN coupon_templates t ON t.template_code = c.template_code \
             WHERE c.user_id = $1 AND {cond} \
             ORDER BY c.issued_at DESC, c.coupon_code LIMIT $3 OFFSET $4"
        ))
        .bind(user_id)
        .bind(now)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.db.pool())
        .await?;
        let total: i64 = sqlx::query(&format!(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM coupons c WHERE c.user_id = $1 AND {cond}"
        ))
        .bind(user_id)
        .bind(now)
        .fetch_one(self.db.pool())
        .await?
        .try_get("n")?;
        let list = rows
            .iter()
            .map(|r| {
                Ok((
                    coupon(r)?,
                    serde_json::from_str(&r.try_get::<String, _>("body")?)?,
                ))
            })
            .collect::<Result<_, DbError>>()?;
        Ok((list, total))
    }

    /// How many coupons of each template this user was issued.
    pub async fn user_counts(&self, user_id: i64) -> Result<Vec<(String, i64)>, DbError> {
        let rows =
            sqlx::query("SELECT template_code, issued FROM coupon_user_counts WHERE user_id = $1")
                .bind(user_id)
                .fetch_all(self.db.pool())
                .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("template_code")?, r.try_get("issued")?)))
            .collect()
    }

    /// The coupons an order holds or used.
    pub async fn of_order(&self, order_no: &str) -> Result<Vec<Coupon>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.order_no = $1 ORDER BY c.coupon_code"
        ))
        .bind(order_no)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(coupon).collect()
    }

    /// A coupon's events in order (for tests, support and the reconcile).
    pub async fn events(&self, coupon_code: &str) -> Result<Vec<EventRow>, DbError> {
        let rows = sqlx::query(
            "SELECT id, coupon_code, user_id, from_status, to_status, order_no, reason, created_at \
             FROM coupon_events WHERE coupon_code = $1 ORDER BY id",
        )
        .bind(coupon_code)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(event_row).collect()
    }
}

/// Appends a coupon event in the mover's transaction.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn event(
    tx: &mut Tx,
    coupon_code: &str,
    user_id: i64,
    from: Option<CouponStatus>,
    to: CouponStatus,
    order_no: Option<&str>,
    reason: &str,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO coupon_events (coupon_code, user_id, from_status, to_status, order_no, reason, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(coupon_code)
    .bind(user_id)
    .bind(from.map(CouponStatus::as_str))
    .bind(to.as_str())
    .bind(order_no)
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The compare-and-set every move but locking goes through: `coupon_code` from `from` to `to`
/// and its event, in `tx`. With `order_no`, the coupon must be that order's (a give-back or a
/// use concerns one order only). A coupon given back forgets its order (it may serve another).
/// False when the coupon was not in `from` (another move won): nothing written.
#[allow(clippy::too_many_arguments)]
pub async fn move_in(
    tx: &mut Tx,
    coupon_code: &str,
    user_id: i64,
    from: CouponStatus,
    to: CouponStatus,
    order_no: Option<&str>,
    reason: &str,
    now: i64,
) -> Result<bool, DbError> {
    debug_assert!(from.can_move_to(to), "{from:?} -> {to:?}");
    let keep_order = if to == CouponStatus::Returned {
        "NULL"
    } else {
        "order_no"
    };
    let sql = format!(
        "UPDATE coupons SET status = $3, order_no = {keep_order}, updated_at = $4 \
         WHERE coupon_code = $1 AND status = $2 AND user_id = $5{}",
        if order_no.is_some() {
            " AND order_no = $6"
        } else {
            ""
        }
    );
    let mut q = sqlx::query(&sql)
        .bind(coupon_code)
        .bind(from.as_str())
        .bind(to.as_str())
        .bind(now)
        .bind(user_id);
    if let Some(o) = order_no {
        q = q.bind(o);
    }
    if q.execute(&mut **tx).await?.rows_affected() != 1 {
        return Ok(false);
    }
    event(
        tx,
        coupon_code,
        user_id,
        Some(from),
        to,
        order_no,
        reason,
        now,
    )
    .await?;
    Ok(true)
}
