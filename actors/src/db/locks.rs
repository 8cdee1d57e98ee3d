//! Per-key locks for check-then-write sequences (send limits, the address cap, the login
//! throttle). Counting rows and then inserting is racy under READ COMMITTED: two requests both
//! count below the limit. Each such transaction first writes a row only it can hold until
//! commit, then counts and inserts; the next request for the same key waits and then sees the
//! first one's rows.

use super::DbError;
use sqlx::{Any, Transaction};

/// Takes the lock on `key` for the rest of the transaction. The upsert takes a row lock in
/// PostgreSQL and, being a write, the database write lock in SQLite.
pub async fn lock_key(tx: &mut Transaction<'static, Any>, key: &str) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO throttle_locks (lock_key) VALUES ($1) \
         ON CONFLICT (lock_key) DO UPDATE SET lock_key = excluded.lock_key",
    )
    .bind(key)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Locks the user's row: the address book's cap is per user.
pub async fn lock_user(tx: &mut Transaction<'static, Any>, user_id: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
