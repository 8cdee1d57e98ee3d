//! Idempotency-Key records: the first answer to a (scope, key), kept 24 hours. A replay with
//! the same body gets that answer again; another body under the same key is refused.

use super::{Db, DbError};
use sqlx::{Any, Row, Transaction};

pub const KEEP_MS: i64 = 24 * 3_600_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub body_hash: String,
    pub status: u16,
    pub response: serde_json::Value,
}

#[derive(Clone, Debug)]
pub struct IdempotencyRepo {
    db: Db,
}

impl IdempotencyRepo {
    pub fn new(db: Db) -> IdempotencyRepo {
        IdempotencyRepo { db }
    }

    /// The answer recorded for the key within the last 24 hours.
    pub async fn find(
        &self,
        scope: &str,
        key: &str,
        now: i64,
    ) -> Result<Option<Recorded>, DbError> {
        let row = sqlx::query(
            "SELECT body_hash, status, response FROM idempotency_keys \
             WHERE scope = $1 AND idem_key = $2 AND created_at > $3",
        )
        .bind(scope)
        .bind(key)
        .bind(now - KEEP_MS)
        .fetch_optional(self.db.pool())
        .await?;
        row.map(|row| {
            Ok(Recorded {
                body_hash: row.try_get("body_hash")?,
                status: row.try_get::<i64, _>("status")? as u16,
                response: serde_json::from_str(&row.try_get::<String, _>("response")?)?,
            })
        })
        .transpose()
    }

    pub async fn delete_older_than(&self, before: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
            .bind(before)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }
}

/// Records the answer inside the transaction that did the work, so the two commit together.
/// An expired record of the same key is replaced.
pub async fn record_in(
    tx: &mut Transaction<'static, Any>,
    scope: &str,
    key: &str,
    recorded: &Recorded,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND created_at <= $3",
    )
    .bind(scope)
    .bind(key)
    .bind(now - KEEP_MS)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO idempotency_keys (scope, idem_key, body_hash, status, response, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(scope)
    .bind(key)
    .bind(&recorded.body_hash)
    .bind(i64::from(recorded.status))
    .bind(serde_json::to_string(&recorded.response)?)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
