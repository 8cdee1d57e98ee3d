//! Failed password logins per phone, for the throttle (spec: 5 in 15 minutes).

use super::{Db, DbError};
use crate::domain::phone::Phone;
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

    #[instrument(skip_all)]
    pub async fn record(&self, phone: &Phone, now: i64) -> Result<(), DbError> {
        sqlx::query("INSERT INTO login_failures (phone, failed_at) VALUES ($1, $2)")
            .bind(phone.as_str())
            .bind(now)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Failure times since `since`, newest first.
    #[instrument(skip_all)]
    pub async fn since(&self, phone: &Phone, since: i64) -> Result<Vec<i64>, DbError> {
        let rows = sqlx::query(
            "SELECT failed_at FROM login_failures WHERE phone = $1 AND failed_at > $2 \
             ORDER BY failed_at DESC",
        )
        .bind(phone.as_str())
        .bind(since)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("failed_at"))
            .collect::<Result<_, _>>()?)
    }

    /// A successful login forgives earlier mistakes, and old rows are dropped on the way.
    #[instrument(skip_all)]
    pub async fn clear(&self, phone: &Phone) -> Result<(), DbError> {
        sqlx::query("DELETE FROM login_failures WHERE phone = $1")
            .bind(phone.as_str())
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}
