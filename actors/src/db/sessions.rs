//! Sessions: the sha256 of each opaque token, its user and its expiry. Logging out deletes
//! the row, so a token that is not found is one that expired, was logged out or never existed.

use super::{Db, DbError};
use sqlx::Row;
use tracing::instrument;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRow {
    pub user_id: i64,
    pub expires_at: i64,
}

#[derive(Clone, Debug)]
pub struct SessionRepo {
    db: Db,
}

impl SessionRepo {
    pub fn new(db: Db) -> SessionRepo {
        SessionRepo { db }
    }

    #[instrument(skip(self, token_hash))]
    pub async fn create(
        &self,
        token_hash: &str,
        user_id: i64,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .bind(expires_at)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The session of an open account; expiry is the caller's to judge.
    #[instrument(skip_all)]
    pub async fn find(&self, token_hash: &str) -> Result<Option<SessionRow>, DbError> {
        let row = sqlx::query(
            "SELECT s.user_id, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND u.closed_at IS NULL",
        )
        .bind(token_hash)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>(SessionRow {
                    user_id: r.try_get("user_id")?,
                    expires_at: r.try_get("expires_at")?,
                })
            })
            .transpose()?)
    }

    #[instrument(skip_all)]
    pub async fn extend(&self, token_hash: &str, expires_at: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE sessions SET expires_at = $1 WHERE token_hash = $2")
            .bind(expires_at)
            .bind(token_hash)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    #[instrument(skip_all)]
    pub async fn delete(&self, token_hash: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Every session of a user except the one given (a password change keeps the device
    /// that made it logged in; a reset keeps none).
    #[instrument(skip(self, keep))]
    pub async fn delete_for_user(&self, user_id: i64, keep: Option<&str>) -> Result<(), DbError> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
            .bind(user_id)
            .bind(keep.unwrap_or(""))
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Housekeeping: expired rows are dead weight.
    #[instrument(skip(self))]
    pub async fn delete_expired(&self, now: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }
}
