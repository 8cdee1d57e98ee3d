//! The moves after issue: used at payment, given back when the order closes or is refunded
//! (through the outbox keyed by order), expired, transferred. Each coupon's move is the
//! compare-and-set of [`move_in`] with its event, so repeating any of these, from the order's
//! hook, the sweep and a retry at once, moves each coupon once.

use super::issue::new_coupon_code;
use super::{coupon, event, move_in, CouponRepo, COUPON_COLUMNS};
use crate::db::outbox::Outbox;
use crate::db::points::Tx;
use crate::db::DbError;
use crate::domain::loyalty::coupon::{Coupon, CouponStatus};
use crate::domain::ordering::order_machine::state as s;
use sqlx::Row;

/// What giving back an order's coupons did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReturnOutcome {
    /// Back to usable (RETURNED).
    pub returned: usize,
    /// Past their validity: EXPIRED instead.
    pub expired: usize,
    /// The outbox row was already done (a retry found nothing to do).
    pub already: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error("no such coupon")]
    NotFound,
    #[error("the coupon is held by an order")]
    Locked,
    #[error("the coupon cannot be transferred")]
    NotTransferable,
    #[error("the coupon is not usable")]
    NotUsable,
    #[error("a coupon cannot be transferred to its holder")]
    ToSelf,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<sqlx::Error> for TransferError {
    fn from(e: sqlx::Error) -> Self {
        TransferError::Db(e.into())
    }
}

/// A due row of the give-back outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueReturn {
    pub order_no: String,
    pub reason: String,
    pub attempts: i64,
}

/// The give-backs owed: one row per closed order, with why it closed.
const RETURNS: Outbox = Outbox {
    table: "coupon_returns",
    key: "order_no",
    payload: "reason",
    done_counts_attempt: false,
};

/// A write before any read (as `PointsRepo` does): PostgreSQL locks the coupon's row, SQLite
/// takes its write lock, so what the transaction reads next is what it will change.
async fn lock_coupon(tx: &mut Tx, coupon_code: &str) -> Result<(), DbError> {
    sqlx::query("UPDATE coupons SET updated_at = updated_at WHERE coupon_code = $1")
        .bind(coupon_code)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The same for the moves of one order's coupons.
async fn lock_order(tx: &mut Tx, order_no: &str) -> Result<(), DbError> {
    crate::db::locks::lock_key(tx, &format!("coupons:order:{order_no}")).await
}

/// Gives back, in the caller's transaction, every coupon `order_no` holds (LOCKED) or used
/// (USED, a refund): RETURNED while still valid at `now` (and its holder's account open),
/// else EXPIRED.
pub async fn give_back_in(
    tx: &mut Tx,
    order_no: &str,
    reason: &str,
    now: i64,
) -> Result<ReturnOutcome, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.order_no = $1 \
         AND c.status IN ('LOCKED', 'USED') ORDER BY c.coupon_code"
    ))
    .bind(order_no)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = ReturnOutcome::default();
    for r in &rows {
        let c = coupon(r)?;
        let to = if now < c.valid_to && !holder_closed(tx, c.user_id).await? {
            CouponStatus::Returned
        } else {
            CouponStatus::Expired
        };
        if move_in(
            tx,
            &c.coupon_code,
            c.user_id,
            c.status,
            to,
            Some(order_no),
            reason,
            now,
        )
        .await?
        {
            match to {
                CouponStatus::Returned => out.returned += 1,
                _ => out.expired += 1,
            }
        }
    }
    Ok(out)
}

/// Forfeits a closing account's coupons in the caller's transaction: every one still usable
/// (ISSUED, RETURNED) or held by an order that has closed becomes EXPIRED with the reason
/// `account_closed`. USED ones stay, the record of what paid for an order. Answers how many.
pub async fn forfeit_all_in(tx: &mut Tx, user_id: i64, now: i64) -> Result<usize, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.user_id = $1 \
         AND c.status IN ('ISSUED', 'RETURNED', 'LOCKED') ORDER BY c.coupon_code"
    ))
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut n = 0;
    for r in &rows {
        let c = coupon(r)?;
        if move_in(
            tx,
            &c.coupon_code,
            user_id,
            c.status,
            CouponStatus::Expired,
            None,
            "account_closed",
            now,
        )
        .await?
        {
            n += 1;
        }
    }
    Ok(n)
}

/// Whether the holder of an order's coupons has closed their account (what they give back
/// then expires instead: a closed account keeps nothing).
async fn holder_closed(tx: &mut Tx, user_id: i64) -> Result<bool, DbError> {
    Ok(
        sqlx::query("SELECT 1 AS x FROM users WHERE id = $1 AND closed_at IS NOT NULL")
            .bind(user_id)
            .fetch_optional(&mut **tx)
            .await?
            .is_some(),
    )
}

/// Puts an order on the give-back outbox in the caller's transaction (once per order).
pub async fn enqueue_return_in(
    tx: &mut Tx,
    order_no: &str,
    reason: &str,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO coupon_returns (order_no, reason, next_at, created_at) VALUES ($1, $2, $3, $3) \
         ON CONFLICT (order_no) DO NOTHING",
    )
    .bind(order_no)
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl CouponRepo {
    /// An order was paid (or a cash-on-delivery order completed): its LOCKED coupons are USED.
    pub async fn use_for_order(&self, order_no: &str, now: i64) -> Result<usize, DbError> {
        let mut tx = self.db.pool().begin().await?;
        lock_order(&mut tx, order_no).await?;
        let rows = sqlx::query(
            "SELECT coupon_code, user_id FROM coupons WHERE order_no = $1 AND status = 'LOCKED'",
        )
        .bind(order_no)
        .fetch_all(&mut *tx)
        .await?;
        let mut n = 0;
        for r in &rows {
            let code: String = r.try_get("coupon_code")?;
            let user_id: i64 = r.try_get("user_id")?;
            if move_in(
                &mut tx,
                &code,
                user_id,
                CouponStatus::Locked,
                CouponStatus::Used,
                Some(order_no),
                "paid",
                now,
            )
            .await?
            {
                n += 1;
            }
        }
        tx.commit().await?;
        Ok(n)
    }

    /// Puts an order on the give-back outbox (once per order; a second call changes nothing).
    pub async fn enqueue_return(
        &self,
        order_no: &str,
        reason: &str,
        now: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.db.pool().begin().await?;
        enqueue_return_in(&mut tx, order_no, reason, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// One step of the outbox: the order's coupons given back and its row marked done, in one
    /// transaction. The done mark is itself a compare-and-set: of two workers racing, the one
    /// that finds the row done rolls back whatever it did. A crash before the commit undoes
    /// both, and the next attempt starts over; the coupon moves are compare-and-sets anyway.
    pub async fn process_return(&self, order_no: &str, now: i64) -> Result<ReturnOutcome, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let Some(claimed) = RETURNS.claim_in(&mut tx, order_no, now).await? else {
            return Ok(ReturnOutcome {
                already: true,
                ..ReturnOutcome::default()
            });
        };
        let reason: String = claimed.try_get("reason")?;
        let out = give_back_in(&mut tx, order_no, &reason, now).await?;
        tx.commit().await?;
        Ok(out)
    }

    /// Outbox rows due now, oldest first.
    pub async fn due_returns(&self, now: i64, limit: i64) -> Result<Vec<DueReturn>, DbError> {
        RETURNS
            .due(&self.db, now, limit, |r| {
                Ok(DueReturn {
                    order_no: r.try_get("order_no")?,
                    reason: r.try_get("reason")?,
                    attempts: r.try_get("attempts")?,
                })
            })
            .await
    }

    /// Records a failed attempt; the row is due again at `next_at`.
    pub async fn return_failed(
        &self,
        order_no: &str,
        error: &str,
        next_at: i64,
    ) -> Result<(), DbError> {
        RETURNS.failed(&self.db, order_no, error, next_at).await
    }

    /// Whether an order's give-back is still waiting (for the customer's 退券失败).
    pub async fn return_pending(&self, order_no: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query(
            "SELECT last_error FROM coupon_returns WHERE order_no = $1 AND done_at IS NULL",
        )
        .bind(order_no)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(match row {
            Some(r) => Some(
                r.try_get::<Option<String>, _>("last_error")?
                    .unwrap_or_default(),
            ),
            None => None,
        })
    }

    /// Orders holding LOCKED coupons whose order is settled: (order_no, order state). The sweep
    /// uses them (paid: use; closed: give back) so no coupon stays locked past its order. An
    /// order row that does not exist (a checkout rolled back after locking cannot leave one:
    /// the lock is in its transaction) is not listed.
    pub async fn stale_locks(&self, limit: i64) -> Result<Vec<(String, i64, String)>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT DISTINCT c.order_no, o.state, o.payment_type FROM coupons c \
             JOIN orders o ON o.order_no = c.order_no \
             WHERE c.status = 'LOCKED' AND o.state IN ({}, {}, {}, {}, {}, {}) LIMIT $1",
            s::PAID,
            s::ACCEPTED,
            s::COMPLETED,
            s::CANCELLED_BY_CUSTOMER,
            s::REFUSED_BY_STORE,
            s::EXPIRED_UNPAID
        ))
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("order_no")?,
                    r.try_get("state")?,
                    r.try_get("payment_type")?,
                ))
            })
            .collect()
    }

    /// Expires usable coupons past their validity (Issued/Returned with valid_to <= now).
    /// Locked ones wait for their order: its close gives them back as EXPIRED.
    pub async fn expire_due(&self, now: i64, limit: i64) -> Result<usize, DbError> {
        let rows = sqlx::query(
            "SELECT coupon_code, user_id, status FROM coupons \
             WHERE status IN ('ISSUED', 'RETURNED') AND valid_to <= $1 LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        let mut n = 0;
        for r in &rows {
            let code: String = r.try_get("coupon_code")?;
            let status: String = r.try_get("status")?;
            let Some(from) = CouponStatus::parse(&status) else {
                continue;
            };
            if self
                .expire_one(&code, r.try_get("user_id")?, from, now)
                .await?
            {
                n += 1;
            }
        }
        Ok(n)
    }

    /// One coupon expired by compare-and-set, only if really past its validity.
    pub async fn expire_one(
        &self,
        coupon_code: &str,
        user_id: i64,
        from: CouponStatus,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        lock_coupon(&mut tx, coupon_code).await?;
        let due = sqlx::query("SELECT valid_to FROM coupons WHERE coupon_code = $1")
            .bind(coupon_code)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get::<i64, _>("valid_to"))
            .transpose()?
            .is_some_and(|to| to <= now);
        if !due
            || !move_in(
                &mut tx,
                coupon_code,
                user_id,
                from,
                CouponStatus::Expired,
                None,
                "expired",
                now,
            )
            .await?
        {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Transfers `coupon_code` from `from_user` to `to_user`: the original becomes TRANSFERRED
    /// and the recipient gets a new coupon (same template and window) naming it as parent, in
    /// one transaction. Refused while the coupon is LOCKED by an order, and unless usable now
    /// and transferable. The original's code is the business key: a coupon is given away once.
    pub async fn transfer(
        &self,
        coupon_code: &str,
        from_user: i64,
        to_user: i64,
        transferable: bool,
        now: i64,
    ) -> Result<Coupon, TransferError> {
        if from_user == to_user {
            return Err(TransferError::ToSelf);
        }
        let mut tx = self.db.pool().begin().await?;
        lock_coupon(&mut tx, coupon_code).await?;
        let row = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.coupon_code = $1 AND c.user_id = $2"
        ))
        .bind(coupon_code)
        .bind(from_user)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(original) = row.as_ref().map(coupon).transpose()? else {
            return Err(TransferError::NotFound);
        };
        if original.status == CouponStatus::Locked {
            return Err(TransferError::Locked);
        }
        if !original.usable_at(now) {
            return Err(TransferError::NotUsable);
        }
        if !transferable {
            return Err(TransferError::NotTransferable);
        }
        // The compare-and-set decides a race with a checkout locking it: one of them wins.
        if !move_in(
            &mut tx,
            coupon_code,
            from_user,
            original.status,
            CouponStatus::Transferred,
            None,
            "transfer",
            now,
        )
        .await?
        {
            let now_status = sqlx::query("SELECT status FROM coupons WHERE coupon_code = $1")
                .bind(coupon_code)
                .fetch_one(&mut *tx)
                .await?
                .try_get::<String, _>("status")?;
            return Err(if now_status == CouponStatus::Locked.as_str() {
                TransferError::Locked
            } else {
                TransferError::NotUsable
            });
        }
        let code = new_coupon_code();
        sqlx::query(
            "INSERT INTO coupons (coupon_code, template_code, user_id, status, valid_from, valid_to, \
             parent_code, source, source_key, issued_at, updated_at) \
             VALUES ($1, $2, $3, 'ISSUED', $4, $5, $6, 'transfer', $6, $7, $7)",
        )
        .bind(&code)
        .bind(&original.template_code)
        .bind(to_user)
        .bind(original.valid_from)
        .bind(original.valid_to)
        .bind(coupon_code)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        event(
            &mut tx,
            &code,
            to_user,
            None,
            CouponStatus::Issued,
            None,
            "transfer",
            now,
        )
        .await?;
        tx.commit().await?;
        Ok(Coupon {
            coupon_code: code,
            template_code: original.template_code,
            user_id: to_user,
            status: CouponStatus::Issued,
            valid_from: original.valid_from,
            valid_to: original.valid_to,
            order_no: None,
            parent_code: Some(coupon_code.to_string()),
            issued_at: now,
        })
    }
}
