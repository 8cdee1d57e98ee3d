//! Failed password logins per key (a customer's phone, or a tablet's store and staff code),
//! for the throttle (spec: 5 in 15 minutes).

use super::{locks, Db, DbError};
use sqlx::Row;
use tracing::instrument;

#[derive(Clone, Debug)]
pub struct LoginFailureRepo {
    db: Db,
}

impl LoginFailureRepo {
    pub fn new(db: Db) -> LoginFailureRepo {
        LoginFailureRepo { db }
    }

    /// Records a failure up front, before the password is checked, unless `locked` (given the
    /// failure times since `since`, newest first) says the phone is locked: then answers
    /// `Err(retry_after_ms)` and records nothing. Read and write happen under the phone's lock,
    /// so concurrent guesses cannot all slip in below the limit. `Ok` holds the row id, to
    /// forget it when the password turns out right.
    #[instrument(skip_all)]
    pub async fn record_unless_locked(
        &self,
        key: &str,
        since: i64,
        now: i64,
        locked: impl FnOnce(&[i64]) -> Option<i64>,
    ) -> Result<Result<i64, i64>, DbError> {
        let mut tx = self.db.pool().begin().await?;
        locks::lock_key(&mut tx, &format!("login:{key}")).await?;
        let failures: Vec<i64> = sqlx::query(
            "SELECT failed_at FROM login_failures WHERE phone = $1 AND failed_at > $2 \
             ORDER BY failed_at DESC",
        )
        .bind(key)
        .bind(since)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get("failed_at"))
        .collect::<Result<_, _>>()?;
        if let Some(retry_after_ms) = locked(&failures) {
            return Ok(Err(retry_after_ms));
        }
        let row = sqlx::query(
            "INSERT INTO login_failures (phone, failed_at) VALUES ($1, $2) RETURNING id",
        )
        .bind(key)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(row.try_get("id")?))
    }

    /// Takes back one failure recorded up front: the password was right after all.
    #[instrument(skip(self))]
    pub async fn forget(&self, id: i64) -> Result<(), DbError> {
        sqlx::query("DELETE FROM login_failures WHERE id = $1")
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// A successful login forgives earlier mistakes, and old rows are dropped on the way.
    #[instrument(skip_all)]
    pub async fn clear(&self, key: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM login_failures WHERE phone = $1")
            .bind(key)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Housekeeping: failures at or before `before` no longer count towards any lock.
    #[instrument(skip(self))]
    pub async fn delete_older_than(&self, before: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM login_failures WHERE failed_at <= $1")
            .bind(before)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }
}
