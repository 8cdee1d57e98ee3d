//! Privacy-policy decisions, append-only: every agree and refuse is kept with the policy
//! version it answered, so what a user agreed to and when can always be shown.

use super::{Db, DbError};
use crate::domain::accounts::Decision;
use sqlx::Row;
use tracing::instrument;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsentRow {
    pub decision: Decision,
    pub policy_version: i64,
    pub decided_at: i64,
}

#[derive(Clone, Debug)]
pub struct ConsentRepo {
    db: Db,
}

impl ConsentRepo {
    pub fn new(db: Db) -> ConsentRepo {
        ConsentRepo { db }
    }

    #[instrument(skip(self))]
    pub async fn record(
        &self,
        user_id: i64,
        decision: Decision,
        policy_version: i64,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO privacy_consents (user_id, decision, policy_version, decided_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(user_id)
        .bind(decision.as_str())
        .bind(policy_version)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The latest decision, or the latest of one kind.
    #[instrument(skip(self))]
    pub async fn latest(
        &self,
        user_id: i64,
        only: Option<Decision>,
    ) -> Result<Option<ConsentRow>, DbError> {
        const COLUMNS: &str = "SELECT decision, policy_version, decided_at FROM privacy_consents";
        let row = match only {
            None => {
                sqlx::query(&format!(
                    "{COLUMNS} WHERE user_id = $1 ORDER BY id DESC LIMIT 1"
                ))
                .bind(user_id)
                .fetch_optional(self.db.pool())
                .await?
            }
            Some(decision) => {
                sqlx::query(&format!(
                    "{COLUMNS} WHERE user_id = $1 AND decision = $2 ORDER BY id DESC LIMIT 1"
                ))
                .bind(user_id)
                .bind(decision.as_str())
                .fetch_optional(self.db.pool())
                .await?
            }
        };
        let Some(row) = row else {
            return Ok(None);
        };
        let text: String = row.try_get("decision")?;
        // Only this code writes the column; another word means a hand edit, read as no decision.
        let Some(decision) = Decision::parse(&text) else {
            return Ok(None);
        };
        Ok(Some(ConsentRow {
            decision,
            policy_version: row.try_get("policy_version")?,
            decided_at: row.try_get("decided_at")?,
        }))
    }
}
