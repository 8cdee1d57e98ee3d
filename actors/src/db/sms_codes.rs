//! SMS codes: one row per code sent, holding only a salted sha256 of the code. The rows are
//! also the counters of the send limits, so every node sees the same counts.

use super::{locks, Db, DbError};
use crate::domain::accounts::phone::Phone;
use crate::domain::accounts::Scene;
use sqlx::{Any, Row, Transaction};
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

    /// Opens the transaction a send runs in, holding the phone's and the client address's
    /// locks (phone first, always, so two sends cannot wait on each other), so the limits are
    /// counted and the new code written with no other send for either in between.
    #[instrument(skip_all)]
    pub async fn begin_send(&self, phone: &Phone, client_ip: &str) -> Result<SendTx, DbError> {
        let mut tx = self.db.pool().begin().await?;
        locks::lock_key(&mut tx, &format!("sms-phone:{}", phone.as_str())).await?;
        locks::lock_key(&mut tx, &format!("sms-ip:{client_ip}")).await?;
        Ok(SendTx { tx })
    }

    /// Housekeeping: codes dead for longer than `grace` (past every limit window that
    /// counts them) are deleted. Answers how many went.
    #[instrument(skip(self))]
    pub async fn delete_dead(&self, now: i64, grace: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM sms_codes WHERE expires_at < $1")
            .bind(now - grace)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
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

/// A send in progress, holding its locks: the counts it reads stay true until it commits.
/// Dropped without `commit`, it rolls back.
pub struct SendTx {
    tx: Transaction<'static, Any>,
}

impl SendTx {
    /// When the last code for this phone and scene was sent.
    pub async fn last_sent_at(
        &mut self,
        phone: &Phone,
        scene: Scene,
    ) -> Result<Option<i64>, DbError> {
        let row = sqlx::query(
            "SELECT MAX(created_at) AS at FROM sms_codes WHERE phone = $1 AND scene = $2",
        )
        .bind(phone.as_str())
        .bind(scene.as_str())
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(row.try_get("at")?)
    }

    pub async fn count_for_phone_since(
        &mut self,
        phone: &Phone,
        since: i64,
    ) -> Result<i64, DbError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM sms_codes WHERE phone = $1 AND created_at >= $2",
        )
        .bind(phone.as_str())
        .bind(since)
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn count_for_ip_since(
        &mut self,
        client_ip: &str,
        since: i64,
    ) -> Result<i64, DbError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM sms_codes WHERE client_ip = $1 AND created_at >= $2",
        )
        .bind(client_ip)
        .bind(since)
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Stores a new code, retires the older ones of the same phone and scene (only the latest
    /// code sent works), and commits.
    pub async fn insert_and_commit(mut self, code: &NewCode<'_>) -> Result<i64, DbError> {
        sqlx::query(
            "UPDATE sms_codes SET spent_at = $1 WHERE phone = $2 AND scene = $3 AND spent_at IS NULL",
        )
        .bind(code.now)
        .bind(code.phone.as_str())
        .bind(code.scene.as_str())
        .execute(&mut *self.tx)
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
        .fetch_one(&mut *self.tx)
        .await?;
        self.tx.commit().await?;
        Ok(row.try_get("id")?)
    }
}
