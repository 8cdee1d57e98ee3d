//! The due outbox: work owed, one row per business key, written in the transaction that makes
//! it owed and retried until done. The gift deliveries (`loyalty_gift_outbox`) and the coupon
//! give-backs (`coupon_returns`) are two tables of this shape: `attempts`, `next_at`,
//! `last_error`, `done_at`.
//!
//! A worker lists the rows [`Outbox::due`], then for each one runs its work in one
//! transaction that starts with [`Outbox::claim_in`]: the row marked done, only while it is
//! not (a compare-and-set). Of two nodes at the same row, the second waits on the first's row
//! lock (PostgreSQL) or write lock (SQLite) and then finds it done, so only one does the work;
//! a crash before the commit undoes the mark with the work, and the row is due again. A failure
//! is recorded with [`Outbox::failed`], which puts the row off to a later `next_at`
//! ([`backoff_ms`]).

use super::{Db, DbError, Tx};
use sqlx::any::AnyRow;

/// One outbox table. The names are fixed strings of this crate, never input.
#[derive(Debug, Clone, Copy)]
pub struct Outbox {
    pub table: &'static str,
    /// The primary key: one row per business key.
    pub key: &'static str,
    /// The columns the work needs besides the key (`due` reads them with `attempts`, the claim
    /// answers them), comma-separated.
    pub payload: &'static str,
    /// Whether marking a row done also counts an attempt (the gift outbox's does).
    pub done_counts_attempt: bool,
}

impl Outbox {
    /// Rows not done whose `next_at` has come, soonest first, at most `limit`; each row has the
    /// key, the payload and `attempts`.
    pub async fn due<T>(
        &self,
        db: &Db,
        now: i64,
        limit: i64,
        read: impl Fn(&AnyRow) -> Result<T, DbError>,
    ) -> Result<Vec<T>, DbError> {
        let Outbox {
            table,
            key,
            payload,
            ..
        } = self;
        let rows = sqlx::query(&format!(
            "SELECT {key}, {payload}, attempts FROM {table} \
             WHERE done_at IS NULL AND next_at <= $1 ORDER BY next_at, {key} LIMIT $2"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(db.pool())
        .await?;
        rows.iter().map(read).collect()
    }

    /// Claims row `key` in the caller's transaction, which then does its work: the row marked
    /// done at `now` only if it is not yet. Answers the row's key and payload, or None when it
    /// was done before (by another node, or an earlier run): then there is nothing to do.
    pub async fn claim_in(
        &self,
        tx: &mut Tx,
        key: &str,
        now: i64,
    ) -> Result<Option<AnyRow>, DbError> {
        let Outbox {
            table,
            key: key_column,
            payload,
            done_counts_attempt,
        } = self;
        let attempt = if *done_counts_attempt {
            ", attempts = attempts + 1"
        } else {
            ""
        };
        Ok(sqlx::query(&format!(
            "UPDATE {table} SET done_at = $2{attempt} \
             WHERE {key_column} = $1 AND done_at IS NULL RETURNING {key_column}, {payload}"
        ))
        .bind(key)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?)
    }

    /// Records a failed attempt on row `key` (not done): its error, and due again at `next_at`.
    pub async fn failed(
        &self,
        db: &Db,
        key: &str,
        error: &str,
        next_at: i64,
    ) -> Result<(), DbError> {
        let Outbox {
            table,
            key: key_column,
            ..
        } = self;
        sqlx::query(&format!(
            "UPDATE {table} SET attempts = attempts + 1, last_error = $2, next_at = $3 \
             WHERE {key_column} = $1 AND done_at IS NULL"
        ))
        .bind(key)
        .bind(error)
        .bind(next_at)
        .execute(db.pool())
        .await?;
        Ok(())
    }
}

/// How long a row waits after a failure, by how many attempts failed before it: 1 s, doubling,
/// at most an hour.
pub fn backoff_ms(attempts: i64) -> i64 {
    (1000i64 << attempts.clamp(0, 12)).min(3_600_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_a_second_to_at_most_an_hour() {
        let waits: Vec<i64> = [-1, 0, 1, 2, 11, 12, 13, 100]
            .into_iter()
            .map(backoff_ms)
            .collect();
        assert_eq!(
            waits,
            [1000, 1000, 2000, 4000, 2_048_000, 3_600_000, 3_600_000, 3_600_000]
        );
    }
}
