//! Failed password logins, for the throttle: each with its account (a customer's phone, or a
//! tablet's store and staff code), the client address it came from and its scope (the phone,
//! or the store), so locks can count per account and address and per scope.

use super::{locks, Db, DbError};
use sqlx::Row;
use tracing::instrument;

/// What a failure is counted against.
#[derive(Debug, Clone, Copy)]
pub struct FailureKey<'a> {
    pub account: &'a str,
    pub client_ip: &'a str,
    pub scope: &'a str,
}

#[derive(Clone, Debug)]
pub struct LoginFailureRepo {
    db: Db,
}

impl LoginFailureRepo {
    pub fn new(db: Db) -> LoginFailureRepo {
        LoginFailureRepo { db }
    }

    /// Records a failure up front, before the password is checked, unless `locked` (given
    /// this account and address's failure times, then the whole scope's, since `since`, newest
    /// first) says the try is locked: then answers `Err(retry_after_ms)` and records nothing.
    /// Read and write happen under the scope's lock, so concurrent guesses, from one address
    /// or many, cannot slip in below either limit. `Ok` holds the row id, to forget it when the
    /// password turns out right.
    #[instrument(skip_all)]
    pub async fn record_unless_locked(
        &self,
        key: &FailureKey<'_>,
        since: i64,
        now: i64,
        locked: impl FnOnce(&[i64], &[i64]) -> Option<i64>,
    ) -> Result<Result<i64, i64>, DbError> {
        let mut tx = self.db.pool().begin().await?;
        locks::lock_key(&mut tx, &format!("login:{}", key.scope)).await?;
        let rows = sqlx::query(
            "SELECT phone, client_ip, failed_at FROM login_failures \
             WHERE scope_key = $1 AND failed_at > $2 ORDER BY failed_at DESC",
        )
        .bind(key.scope)
        .bind(since)
        .fetch_all(&mut *tx)
        .await?;
        let mut scope = Vec::with_capacity(rows.len());
        let mut pair = Vec::new();
        for row in &rows {
            let at: i64 = row.try_get("failed_at")?;
            let account: String = row.try_get("phone")?;
            let ip: String = row.try_get("client_ip")?;
            if account == key.account && ip == key.client_ip {
                pair.push(at);
            }
            scope.push(at);
        }
        if let Some(retry_after_ms) = locked(&pair, &scope) {
            return Ok(Err(retry_after_ms));
        }
        let row = sqlx::query(
            "INSERT INTO login_failures (phone, client_ip, scope_key, failed_at) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(key.account)
        .bind(key.client_ip)
        .bind(key.scope)
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

    /// A successful login forgives the earlier mistakes made from its address; those made
    /// elsewhere (perhaps by someone else) still count towards the scope's ceiling.
    #[instrument(skip_all)]
    pub async fn clear_pair(&self, key: &FailureKey<'_>) -> Result<(), DbError> {
        sqlx::query("DELETE FROM login_failures WHERE phone = $1 AND client_ip = $2")
            .bind(key.account)
            .bind(key.client_ip)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Forgets every failure of an account (its password was just reset with an SMS code:
    /// whatever was guessed no longer matters).
    #[instrument(skip_all)]
    pub async fn clear_account(&self, account: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM login_failures WHERE phone = $1")
            .bind(account)
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
