//! Membership: levels, the member agreement, members, their level changes (append-only) and
//! their qualifying spend (append-only).

use super::{Db, DbError};
use crate::domain::loyalty::LevelRule;
use crate::domain::money::Fen;
use sqlx::Row;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Privilege {
    pub code: String,
    pub name_zh: String,
    pub name_en: String,
    pub description_zh: String,
    pub description_en: String,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftOption {
    pub option_id: String,
    /// "points", "product" or "coupon".
    #[serde(rename = "type")]
    pub kind: String,
    pub points: Option<i64>,
    pub product_code: Option<String>,
    /// A "coupon" option's template: delivering it issues one coupon (key: the gift id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_code: Option<String>,
    pub name_zh: String,
    pub name_en: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelRow {
    pub level: i64,
    pub name_zh: String,
    pub name_en: String,
    pub threshold: Fen,
    pub points_per_yuan: i64,
    pub privileges: Vec<Privilege>,
    pub gift_options: Vec<GiftOption>,
}

impl LevelRow {
    pub fn rule(&self) -> LevelRule {
        LevelRule {
            level: self.level,
            threshold: self.threshold,
            points_per_yuan: self.points_per_yuan,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgreementRow {
    pub version: String,
    pub title_zh: String,
    pub title_en: String,
    pub content_zh: String,
    pub content_en: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRow {
    pub user_id: i64,
    pub level: i64,
    pub agreement_version: String,
    pub joined_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelChange {
    pub from_level: Option<i64>,
    pub to_level: i64,
    pub reason: String,
    pub at: i64,
}

/// A gift to grant with a join or an upgrade, in the same transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftGrant {
    /// "welcome" or "upgrade".
    pub kind: &'static str,
    pub cycle: String,
    pub options: Vec<GiftOption>,
    pub expires_at: i64,
    /// The order whose completion unlocked it (an upgrade on completion): its refund takes
    /// the gift back.
    pub order_no: Option<String>,
}

#[derive(Clone, Debug)]
pub struct MemberRepo {
    db: Db,
}

impl MemberRepo {
    pub fn new(db: Db) -> MemberRepo {
        MemberRepo { db }
    }

    pub async fn levels(&self) -> Result<Vec<LevelRow>, DbError> {
        let rows = sqlx::query(
            "SELECT level, name_zh, name_en, threshold, points_per_yuan, privileges, gift_options \
             FROM loyalty_levels ORDER BY level",
        )
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            out.push(LevelRow {
                level: r.try_get("level")?,
                name_zh: r.try_get("name_zh")?,
                name_en: r.try_get("name_en")?,
                threshold: Fen(r.try_get("threshold")?),
                points_per_yuan: r.try_get("points_per_yuan")?,
                privileges: serde_json::from_str(&r.try_get::<String, _>("privileges")?)?,
                gift_options: serde_json::from_str(&r.try_get::<String, _>("gift_options")?)?,
            });
        }
        Ok(out)
    }

    /// Seeds or updates a level (the demo seed; harmless twice).
    pub async fn upsert_level(&self, l: &LevelRow, now: i64) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO loyalty_levels (level, name_zh, name_en, threshold, points_per_yuan, \
             privileges, gift_options, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (level) DO UPDATE SET name_zh = excluded.name_zh, name_en = excluded.name_en, \
             threshold = excluded.threshold, points_per_yuan = excluded.points_per_yuan, \
             privileges = excluded.privileges, gift_options = excluded.gift_options, \
             updated_at = excluded.updated_at",
        )
        .bind(l.level)
        .bind(&l.name_zh)
        .bind(&l.name_en)
        .bind(l.threshold.0)
        .bind(l.points_per_yuan)
        .bind(serde_json::to_string(&l.privileges)?)
        .bind(serde_json::to_string(&l.gift_options)?)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Seeds an agreement version and makes it the current one.
    pub async fn upsert_agreement(&self, a: &AgreementRow, now: i64) -> Result<(), DbError> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE loyalty_agreements SET is_current = 0 WHERE version <> $1")
            .bind(&a.version)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO loyalty_agreements (version, title_zh, title_en, content_zh, content_en, \
             is_current, created_at) VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (version) DO UPDATE \
             SET title_zh = excluded.title_zh, title_en = excluded.title_en, \
             content_zh = excluded.content_zh, content_en = excluded.content_en, is_current = 1",
        )
        .bind(&a.version)
        .bind(&a.title_zh)
        .bind(&a.title_en)
        .bind(&a.content_zh)
        .bind(&a.content_en)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn current_agreement(&self) -> Result<Option<AgreementRow>, DbError> {
        let row = sqlx::query(
            "SELECT version, title_zh, title_en, content_zh, content_en FROM loyalty_agreements \
             WHERE is_current = 1 ORDER BY created_at DESC LIMIT 1",
        )
        .fetch_optional(self.db.pool())
        .await?;
        Ok(match row {
            Some(r) => Some(AgreementRow {
                version: r.try_get("version")?,
                title_zh: r.try_get("title_zh")?,
                title_en: r.try_get("title_en")?,
                content_zh: r.try_get("content_zh")?,
                content_en: r.try_get("content_en")?,
            }),
            None => None,
        })
    }

    pub async fn member(&self, user_id: i64) -> Result<Option<MemberRow>, DbError> {
        let row = sqlx::query(
            "SELECT user_id, level, agreement_version, joined_at FROM loyalty_members WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(match row {
            Some(r) => Some(MemberRow {
                user_id: r.try_get("user_id")?,
                level: r.try_get("level")?,
                agreement_version: r.try_get("agreement_version")?,
                joined_at: r.try_get("joined_at")?,
            }),
            None => None,
        })
    }

    pub async fn members(&self) -> Result<Vec<MemberRow>, DbError> {
        let rows = sqlx::query(
            "SELECT user_id, level, agreement_version, joined_at FROM loyalty_members ORDER BY user_id",
        )
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MemberRow {
                    user_id: r.try_get("user_id")?,
                    level: r.try_get("level")?,
                    agreement_version: r.try_get("agreement_version")?,
                    joined_at: r.try_get("joined_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Joins: the member row (its primary key makes a second join insert nothing), the level
    /// change (join), and the user's flags. Answers false when already a member.
    pub async fn join(
        &self,
        user_id: i64,
        level: i64,
        agreement_version: &str,
        spend: Fen,
        gift: Option<&GiftGrant>,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO loyalty_members (user_id, level, agreement_version, joined_at, level_since) \
             VALUES ($1, $2, $3, $4, $4) ON CONFLICT (user_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(level)
        .bind(agreement_version)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted != 1 {
            return Ok(false);
        }
        record_change(&mut tx, user_id, None, level, "join", spend, now).await?;
        if let Some(g) = gift {
            super::gifts::grant_in(&mut tx, user_id, level, g, now).await?;
        }
        sqlx::query(
            "UPDATE users SET is_loyalty = 1, loyalty_level = $2, updated_at = $3 WHERE id = $1",
        )
        .bind(user_id)
        .bind(level)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Moves a member from `from` to `to` (a compare-and-set on the level), recording why.
    #[allow(clippy::too_many_arguments)]
    pub async fn change_level(
        &self,
        user_id: i64,
        from: i64,
        to: i64,
        reason: &str,
        spend: Fen,
        gift: Option<&GiftGrant>,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let moved = sqlx::query(
            "UPDATE loyalty_members SET level = $3, level_since = $4 WHERE user_id = $1 AND level = $2",
        )
        .bind(user_id)
        .bind(from)
        .bind(to)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            return Ok(false);
        }
        record_change(&mut tx, user_id, Some(from), to, reason, spend, now).await?;
        if let Some(g) = gift {
            super::gifts::grant_in(&mut tx, user_id, to, g, now).await?;
        }
        sqlx::query("UPDATE users SET loyalty_level = $2, updated_at = $3 WHERE id = $1")
            .bind(user_id)
            .bind(to)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn history(&self, user_id: i64) -> Result<Vec<LevelChange>, DbError> {
        let rows = sqlx::query(
            "SELECT from_level, to_level, reason, at FROM loyalty_level_changes WHERE user_id = $1 \
             ORDER BY at DESC, id DESC",
        )
        .bind(user_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LevelChange {
                    from_level: r.try_get("from_level")?,
                    to_level: r.try_get("to_level")?,
                    reason: r.try_get("reason")?,
                    at: r.try_get("at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Records qualifying spend once per business key (+ a completed order, − its refund).
    pub async fn record_spend(
        &self,
        user_id: i64,
        business_type: &str,
        business_id: &str,
        amount: Fen,
        at: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO loyalty_spend (user_id, business_type, business_id, amount, at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (business_type, business_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(business_type)
        .bind(business_id)
        .bind(amount.0)
        .bind(at)
        .execute(self.db.pool())
        .await?
        .rows_affected();
        Ok(done == 1)
    }

    /// Qualifying spend in the window `(since, ∞)`.
    pub async fn spend_since(&self, user_id: i64, since: i64) -> Result<Fen, DbError> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS s FROM loyalty_spend \
             WHERE user_id = $1 AND at > $2",
        )
        .bind(user_id)
        .bind(since)
        .fetch_one(self.db.pool())
        .await?;
        Ok(Fen(row.try_get("s")?))
    }
}

async fn record_change(
    tx: &mut super::points::Tx,
    user_id: i64,
    from: Option<i64>,
    to: i64,
    reason: &str,
    spend: Fen,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO loyalty_level_changes (user_id, from_level, to_level, reason, qualifying_spend, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(user_id)
    .bind(from)
    .bind(to)
    .bind(reason)
    .bind(spend.0)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
