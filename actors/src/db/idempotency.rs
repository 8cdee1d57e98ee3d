//! Idempotency-Key records: the first answer to a (scope, key), kept 24 hours. A replay with
//! the same body gets that answer again; another body under the same key is refused.
//!
//! A key may also be **claimed** before its work starts ([`IdempotencyRepo::claim`], payment
//! create): the row is inserted in progress (status 0, the claimant's token in `claim`), so a
//! second request with the key, on any node, finds it and waits for the answer instead of doing
//! the work again; the database's primary key decides who holds it. The answer replaces the
//! claim; a request that fails deletes its claim so a retry can work; a claim older than
//! [`CLAIM_LEASE_MS`] (its node went away) is taken over.

use super::{Db, DbError};
use sqlx::{Any, Row, Transaction};

pub const KEEP_MS: i64 = 24 * 3_600_000;
/// A claim not answered for this long is taken for abandoned (its node died mid-request) and
/// may be taken over. Longer than any work a claim covers (a payment create asks the provider
/// once, with its own timeout).
pub const CLAIM_LEASE_MS: i64 = 2 * 60_000;
/// `status` of a claimed key whose answer is not written yet.
const IN_PROGRESS: i64 = 0;

/// Where a key stands for a request that wants to claim it.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// The request holds the key: it does the work, then answers or releases the claim.
    Held,
    /// The key was answered within 24 hours.
    Answered(Recorded),
    /// Another request holds the key and is working; `body_hash` is its body's (None: the
    /// key kept changing between our statements, look again).
    Busy { body_hash: Option<String> },
}

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
             WHERE scope = $1 AND idem_key = $2 AND created_at > $3 AND status <> 0",
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

    /// Claims the key for a request whose body hashes to `body_hash`, with its own `token`:
    /// [`Claim::Held`] when it was free (or its answer older than 24 hours, or its claim older
    /// than [`CLAIM_LEASE_MS`]), else what holds it.
    pub async fn claim(
        &self,
        scope: &str,
        key: &str,
        body_hash: &str,
        token: &str,
        now: i64,
    ) -> Result<Claim, DbError> {
        // A few rounds: the row may be released or taken over between our statements.
        for _ in 0..3 {
            let inserted = sqlx::query(
                "INSERT INTO idempotency_keys \
                 (scope, idem_key, body_hash, status, response, created_at, claim) \
                 VALUES ($1, $2, $3, 0, '', $4, $5) ON CONFLICT (scope, idem_key) DO NOTHING",
            )
            .bind(scope)
            .bind(key)
            .bind(body_hash)
            .bind(now)
            .bind(token)
            .execute(self.db.pool())
            .await?;
            if inserted.rows_affected() == 1 {
                return Ok(Claim::Held);
            }
            let Some(row) = sqlx::query(
                "SELECT body_hash, status, response, created_at FROM idempotency_keys \
                 WHERE scope = $1 AND idem_key = $2",
            )
            .bind(scope)
            .bind(key)
            .fetch_optional(self.db.pool())
            .await?
            else {
                continue;
            };
            let status: i64 = row.try_get("status")?;
            let created_at: i64 = row.try_get("created_at")?;
            let held_for = if status == IN_PROGRESS {
                CLAIM_LEASE_MS
            } else {
                KEEP_MS
            };
            if created_at > now - held_for {
                let body_hash: String = row.try_get("body_hash")?;
                return Ok(if status == IN_PROGRESS {
                    Claim::Busy {
                        body_hash: Some(body_hash),
                    }
                } else {
                    Claim::Answered(Recorded {
                        body_hash,
                        status: status as u16,
                        response: serde_json::from_str(&row.try_get::<String, _>("response")?)?,
                    })
                });
            }
            // Abandoned or out of date: ours, unless someone else took it first.
            let took = sqlx::query(
                "UPDATE idempotency_keys SET body_hash = $1, status = 0, response = '', \
                 created_at = $2, claim = $3 \
                 WHERE scope = $4 AND idem_key = $5 AND status = $6 AND created_at = $7",
            )
            .bind(body_hash)
            .bind(now)
            .bind(token)
            .bind(scope)
            .bind(key)
            .bind(status)
            .bind(created_at)
            .execute(self.db.pool())
            .await?;
            if took.rows_affected() == 1 {
                return Ok(Claim::Held);
            }
        }
        Ok(Claim::Busy { body_hash: None })
    }

    /// Writes the answer of the claim `token` holds. False when the claim was taken over
    /// meanwhile (the request outlived its lease): the other request's answer stands.
    pub async fn answer_claim(
        &self,
        scope: &str,
        key: &str,
        token: &str,
        recorded: &Recorded,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE idempotency_keys SET body_hash = $1, status = $2, response = $3, \
             created_at = $4, claim = NULL WHERE scope = $5 AND idem_key = $6 AND claim = $7",
        )
        .bind(&recorded.body_hash)
        .bind(i64::from(recorded.status))
        .bind(serde_json::to_string(&recorded.response)?)
        .bind(now)
        .bind(scope)
        .bind(key)
        .bind(token)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives the key up (the work failed, nothing to replay): the next request with it works.
    pub async fn release_claim(&self, scope: &str, key: &str, token: &str) -> Result<(), DbError> {
        sqlx::query(
            "DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND claim = $3",
        )
        .bind(scope)
        .bind(key)
        .bind(token)
        .execute(self.db.pool())
        .await?;
        Ok(())
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
    // One statement: a new key, or one whose record is past its 24 hours, takes this answer;
    // a live record (a twin that answered first) is left alone and this transaction fails.
    let written = sqlx::query(
        "INSERT INTO idempotency_keys (scope, idem_key, body_hash, status, response, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (scope, idem_key) DO UPDATE SET body_hash = excluded.body_hash, \
           status = excluded.status, response = excluded.response, \
           created_at = excluded.created_at, claim = NULL \
         WHERE idempotency_keys.created_at <= $7",
    )
    .bind(scope)
    .bind(key)
    .bind(&recorded.body_hash)
    .bind(i64::from(recorded.status))
    .bind(serde_json::to_string(&recorded.response)?)
    .bind(now)
    .bind(now - KEEP_MS)
    .execute(&mut **tx)
    .await?;
    if written.rows_affected() == 0 {
        return Err(DbError::Conflict(format!("idempotency key {scope}/{key}")));
    }
    Ok(())
}
