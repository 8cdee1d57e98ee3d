//! SMS codes: one row per code sent, holding only a salted sha256 of the code. The rows are
//! also the counters of the send limits, so every node sees the same counts.

use super::{Db, DbError};
use crate::domain::account::Scene;
use crate::domain::phone::Phone;
use sqlx::Row;
use tracing::instrument;

/// A code still usable: not spent, not expired, not worn out by wrong tries.
#[derive(Clone)]
pub struct LiveCode {
    pub id: i64,
    pub salt: String,
    pub code_hash: String,
}

pub struct NewCode<'a> {
    pub phone: &'a Phone,
    pub scene: Scene,
    pub client_ip: &'a str,
    pub salt: &'a str,
    pub code_hash: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

#[derive(Clone, Debug)]
pub struct SmsCodeRepo {
    db: Db,
}

impl SmsCodeRepo {
    pub fn new(db: Db) -> SmsCodeRepo {
        SmsCodeRepo { db }
    }

    /// When the last code for this phone and scene was sent.
    #[instrument(skip_all)]
    pub async fn last_sent_at(&self, phone: &Phone, scene: Scene) -> Result<Option<i64>, DbError> {
        let row = sqlx::query(
            "SELECT MAX(created_at) AS at FROM sms_codes WHERE phone = $1 AND scene = $2",
        )
        .bind(phone.as_str())
        .bind(scene.as_str())
        .fetch_one(self.db.pool())
        .await?;
        Ok(row.try_get("at")?)
    }

    #[instrument(skip_all)]
    pub async fn count_for_phone_since(&self, phone: &Phone, since: i64) -> Result<i64, DbError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM sms_codes WHERE phone = $1 AND created_at >= $2",
        )
        .bind(phone.as_str())
        .bind(since)
        .fetch_one(self.db.pool())
        .await?;
        Ok(row.try_get("n")?)
    }

    #[instrument(skip(self))]
    pub async fn count_for_ip_since(&self, client_ip: &str, since: i64) -> Result<i64, DbError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM sms_codes WHERE client_ip = $1 AND created_at >= $2",
        )
        .bind(client_ip)
        .bind(since)
        .fetch_one(self.db.pool())
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Stores a new code and retires the older ones of the same phone and scene: only the
    /// latest code sent works.
    #[instrument(skip_all)]
    pub async fn insert(&self, code: &NewCode<'_>) -> Result<i64, DbError> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query(
            "UPDATE sms_codes SET spent_at = $1 WHERE phone = $2 AND scene = $3 AND spent_at IS NULL",
        )
        .bind(code.now)
        .bind(code.phone.as_str())
        .bind(code.scene.as_str())
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "INSERT INTO sms_codes (phone, scene, client_ip, salt, code_hash, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(code.phone.as_str())
        .bind(code.scene.as_str())
        .bind(code.client_ip)
        .bind(code.salt)
        .bind(code.code_hash)
        .bind(code.now)
        .bind(code.expires_at)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row.try_get("id")?)
    }

    #[instrument(skip_all)]
    pub async fn live(
        &self,
        phone: &Phone,
        scene: Scene,
        now: i64,
    ) -> Result<Option<LiveCode>, DbError> {
        let row = sqlx::query(
            "SELECT id, salt, code_hash FROM sms_codes \
             WHERE phone = $1 AND scene = $2 AND spent_at IS NULL AND expires_at > $3 \
             ORDER BY created_at DESC, id DESC LIMIT 1",
        )
        .bind(phone.as_str())
        .bind(scene.as_str())
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>(LiveCode {
                    id: r.try_get("id")?,
                    salt: r.try_get("salt")?,
                    code_hash: r.try_get("code_hash")?,
                })
            })
            .transpose()?)
    }

    /// Counts a wrong try; the try that reaches `max_attempts` spends the code. Answers the
    /// tries used so far (0 when the code was already gone).
    #[instrument(skip(self))]
    pub async fn record_wrong(&self, id: i64, max_attempts: i64, now: i64) -> Result<i64, DbError> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query(
            "UPDATE sms_codes SET attempts = attempts + 1, \
             spent_at = CASE WHEN attempts + 1 >= $1 THEN $2 ELSE NULL END \
             WHERE id = $3 AND spent_at IS NULL",
        )
        .bind(max_attempts)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query("SELECT attempts FROM sms_codes WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row.try_get("attempts")?)
    }

    /// Spends a code once: false when another request spent it first.
    #[instrument(skip(self))]
    pub async fn spend(&self, id: i64, now: i64) -> Result<bool, DbError> {
        let done =
            sqlx::query("UPDATE sms_codes SET spent_at = $1 WHERE id = $2 AND spent_at IS NULL")
                .bind(now)
                .bind(id)
                .execute(self.db.pool())
                .await?;
        Ok(done.rows_affected() == 1)
    }
}
