//! Member gifts: granted once per (user, level, cycle) by the table's unique key, claimed with
//! a compare-and-set, delivered through the outbox (`loyalty_gift_outbox`).

use super::coupons::{by_source_in, issue_in, move_in, IssueError, IssueSource};
use super::members::{GiftGrant, GiftOption};
use super::outbox::Outbox;
use super::points::{Applied, PointsRepo, Tx};
use super::{Db, DbError};
use crate::domain::loyalty::coupon::CouponStatus;
use sqlx::any::AnyRow;
use sqlx::Row;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftRow {
    pub gift_id: String,
    pub user_id: i64,
    pub kind: String,
    pub level: i64,
    pub options: Vec<GiftOption>,
    pub status: String,
    pub chosen_option: Option<String>,
    pub claimed_at: Option<i64>,
    pub expires_at: i64,
}

const COLUMNS: &str =
    "gift_id, user_id, kind, level, options, status, chosen_option, claimed_at, expires_at";

fn gift(r: &AnyRow) -> Result<GiftRow, DbError> {
    Ok(GiftRow {
        gift_id: r.try_get("gift_id")?,
        user_id: r.try_get("user_id")?,
        kind: r.try_get("kind")?,
        level: r.try_get("level")?,
        options: serde_json::from_str(&r.try_get::<String, _>("options")?)?,
        status: r.try_get("status")?,
        chosen_option: r.try_get("chosen_option")?,
        claimed_at: r.try_get("claimed_at")?,
        expires_at: r.try_get("expires_at")?,
    })
}

/// The deliveries of claimed gifts: one row per gift, the option the member chose. Marking one
/// done counts an attempt.
const OUTBOX: Outbox = Outbox {
    table: "loyalty_gift_outbox",
    key: "gift_id",
    payload: "user_id, option",
    done_counts_attempt: true,
};

/// What claiming did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    Claimed(GiftRow),
    NotFound,
    /// Claimed before, or expired.
    Closed(GiftRow),
    BadOption,
}

#[derive(Clone, Debug)]
pub struct GiftRepo {
    db: Db,
}

/// Grants a gift inside the caller's transaction (joining, a level change); nothing when this
/// user already had the gift of this level in this cycle (a gift a refund took back included:
/// it is not granted again that year).
pub async fn grant_in(
    tx: &mut Tx,
    user_id: i64,
    level: i64,
    grant: &GiftGrant,
    now: i64,
) -> Result<bool, DbError> {
    if grant.options.is_empty() {
        return Ok(false);
    }
    let gift_id = format!("G{user_id}-{level}-{}", grant.cycle);
    let done = sqlx::query(
        "INSERT INTO loyalty_gifts (gift_id, user_id, kind, level, cycle, options, status, \
         expires_at, created_at, order_no) VALUES ($1, $2, $3, $4, $5, $6, 'available', $7, $8, $9) \
         ON CONFLICT DO NOTHING",
    )
    .bind(&gift_id)
    .bind(user_id)
    .bind(grant.kind)
    .bind(level)
    .bind(&grant.cycle)
    .bind(serde_json::to_string(&grant.options)?)
    .bind(grant.expires_at)
    .bind(now)
    .bind(grant.order_no.as_deref())
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(done == 1)
}

impl GiftRepo {
    pub fn new(db: Db) -> GiftRepo {
        GiftRepo { db }
    }

    pub async fn for_user(&self, user_id: i64) -> Result<Vec<GiftRow>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM loyalty_gifts WHERE user_id = $1 ORDER BY created_at DESC, gift_id"
        ))
        .bind(user_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(gift).collect()
    }

    pub async fn get(&self, gift_id: &str) -> Result<Option<GiftRow>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM loyalty_gifts WHERE gift_id = $1"
        ))
        .bind(gift_id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(gift).transpose()
    }

    /// Claims `gift_id` of `user_id` with `option_id`: available → claimed (a compare-and-set)
    /// and the delivery written to the outbox, in one transaction.
    pub async fn claim(
        &self,
        user_id: i64,
        gift_id: &str,
        option_id: &str,
        now: i64,
    ) -> Result<Claim, DbError> {
        let Some(g) = self.get(gift_id).await?.filter(|g| g.user_id == user_id) else {
            return Ok(Claim::NotFound);
        };
        if g.status != "available" || g.expires_at <= now {
            return Ok(Claim::Closed(g));
        }
        if !g.options.iter().any(|o| o.option_id == option_id) {
            return Ok(Claim::BadOption);
        }
        let mut tx = self.db.pool().begin().await?;
        let moved = sqlx::query(
            "UPDATE loyalty_gifts SET status = 'claimed', chosen_option = $2, claimed_at = $3 \
             WHERE gift_id = $1 AND status = 'available'",
        )
        .bind(gift_id)
        .bind(option_id)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            tx.rollback().await?;
            let g = self
                .get(gift_id)
                .await?
                .ok_or_else(|| DbError::Conflict("gift".into()))?;
            return Ok(Claim::Closed(g));
        }
        sqlx::query(
            "INSERT INTO loyalty_gift_outbox (gift_id, user_id, option, next_at, created_at) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(gift_id)
        .bind(user_id)
        .bind(option_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        let g = self
            .get(gift_id)
            .await?
            .ok_or_else(|| DbError::Conflict("gift".into()))?;
        Ok(Claim::Claimed(g))
    }

    /// Deliveries due: (giftId, userId, optionId, attempts).
    pub async fn due(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<(String, i64, String, i64)>, DbError> {
        OUTBOX
            .due(&self.db, now, limit, |r| {
                Ok((
                    r.try_get("gift_id")?,
                    r.try_get("user_id")?,
                    r.try_get("option")?,
                    r.try_get("attempts")?,
                ))
            })
            .await
    }

    /// Delivers one claimed gift and marks its outbox row done, in one transaction; the
    /// points credit has its own unique key (gift, giftId, credit) and the product row its
    /// primary key, so a delivery run twice delivers once.
    pub async fn deliver(
        &self,
        gift_id: &str,
        user_id: i64,
        option_id: &str,
        points_expire_at: i64,
        now: i64,
    ) -> Result<Applied, DbError> {
        let Some(g) = self.get(gift_id).await? else {
            return Ok(Applied::Nothing);
        };
        let Some(option) = g.options.iter().find(|o| o.option_id == option_id) else {
            return Ok(Applied::Nothing);
        };
        let points = PointsRepo::new(self.db.clone());
        let mut tx = points.begin_for(user_id, now).await?;
        if OUTBOX.claim_in(&mut tx, gift_id, now).await?.is_none() {
            return Ok(Applied::Already);
        }
        match option.kind.as_str() {
            "points" => {
                PointsRepo::credit_available_in(
                    &mut tx,
                    user_id,
                    "gift",
                    "gift",
                    gift_id,
                    "credit",
                    option.points.unwrap_or(0),
                    points_expire_at,
                    None,
                    now,
                )
                .await?;
            }
            "coupon" => {
                // Issued under the gift id as business key: a delivery run twice issues once.
                // A template that cannot issue (sold out, ended) fails the delivery, which the
                // outbox retries; gift templates are seeded without limits.
                let template = option.template_code.as_deref().unwrap_or("");
                issue_in(
                    &mut tx,
                    template,
                    user_id,
                    IssueSource::Gift,
                    Some(gift_id),
                    now,
                )
                .await
                .map_err(|e| match e {
                    IssueError::Db(e) => e,
                    other => DbError::Conflict(format!("gift coupon {template}: {other}")),
                })?;
            }
            _ => {
                sqlx::query(
                    "INSERT INTO loyalty_gift_items (gift_id, user_id, product_code, created_at) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                )
                .bind(gift_id)
                .bind(user_id)
                .bind(option.product_code.as_deref().unwrap_or(""))
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(Applied::Now)
    }

    /// Takes back the gifts order `order_no` unlocked (it was refunded): each becomes revoked
    /// by a compare-and-set; one not delivered yet never will be (its outbox row is closed in
    /// the same transaction); one delivered gives back what it gave: its points (what the
    /// member no longer has is owed), its coupon if still unused, its product if not yet
    /// ordered. A coupon or product already used stays with the order that used it. Once per
    /// gift: the points' key is (gift, giftId, revoke). Answers how many were revoked now.
    pub async fn revoke_for_order(&self, order_no: &str, now: i64) -> Result<usize, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM loyalty_gifts WHERE order_no = $1 AND status IN ('available', 'claimed')"
        ))
        .bind(order_no)
        .fetch_all(self.db.pool())
        .await?;
        let mut revoked = 0;
        for g in rows.iter().map(gift) {
            if self.revoke(&g?, now).await? {
                revoked += 1;
            }
        }
        Ok(revoked)
    }

    async fn revoke(&self, g: &GiftRow, now: i64) -> Result<bool, DbError> {
        let mut tx = PointsRepo::new(self.db.clone())
            .begin_for(g.user_id, now)
            .await?;
        let moved = sqlx::query(
            "UPDATE loyalty_gifts SET status = 'revoked' WHERE gift_id = $1 AND status = $2",
        )
        .bind(&g.gift_id)
        .bind(&g.status)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            return Ok(false);
        }
        if g.status == "claimed" {
            // Not delivered yet: the delivery is called off, nothing to take back.
            let called_off = sqlx::query(
                "UPDATE loyalty_gift_outbox SET done_at = $2, last_error = 'revoked' \
                 WHERE gift_id = $1 AND done_at IS NULL",
            )
            .bind(&g.gift_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let option = g
                .chosen_option
                .as_deref()
                .and_then(|id| g.options.iter().find(|o| o.option_id == id));
            if called_off == 0 {
                if let Some(option) = option {
                    take_back(&mut tx, g, option, now).await?;
                }
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A failed delivery waits longer before the next try.
    pub async fn failed(&self, gift_id: &str, error: &str, next_at: i64) -> Result<(), DbError> {
        OUTBOX.failed(&self.db, gift_id, error, next_at).await
    }

    /// Free products won and not yet used by an order.
    pub async fn unused_items(&self, user_id: i64) -> Result<Vec<(String, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT gift_id, product_code FROM loyalty_gift_items WHERE user_id = $1 AND order_no IS NULL \
             ORDER BY created_at",
        )
        .bind(user_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("gift_id")?, r.try_get("product_code")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }
}

/// What a delivered gift gave, taken back in the caller's transaction.
async fn take_back(tx: &mut Tx, g: &GiftRow, option: &GiftOption, now: i64) -> Result<(), DbError> {
    match option.kind.as_str() {
        "points" => {
            PointsRepo::claw_back_in(
                tx,
                g.user_id,
                "revoked",
                "gift",
                &g.gift_id,
                "revoke",
                option.points.unwrap_or(0),
                now,
            )
            .await?;
        }
        "coupon" => {
            if let Some(c) = by_source_in(tx, IssueSource::Gift, &g.gift_id).await? {
                if matches!(c.status, CouponStatus::Issued | CouponStatus::Returned) {
                    move_in(
                        tx,
                        &c.coupon_code,
                        c.user_id,
                        c.status,
                        CouponStatus::Expired,
                        None,
                        "gift_revoked",
                        now,
                    )
                    .await?;
                }
            }
        }
        _ => {
            sqlx::query("DELETE FROM loyalty_gift_items WHERE gift_id = $1 AND order_no IS NULL")
                .bind(&g.gift_id)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

/// Forfeits a closing account's gifts in the caller's transaction: those not claimed, and
/// those claimed but not delivered (the delivery is called off), become forfeited; free
/// products not yet ordered go.
pub async fn forfeit_all_in(tx: &mut Tx, user_id: i64, now: i64) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE loyalty_gift_outbox SET done_at = $2, last_error = 'account closed' \
         WHERE user_id = $1 AND done_at IS NULL",
    )
    .bind(user_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE loyalty_gifts SET status = 'forfeited' WHERE user_id = $1 AND status IN ('available', 'claimed')",
    )
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM loyalty_gift_items WHERE user_id = $1 AND order_no IS NULL")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
