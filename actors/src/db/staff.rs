//! Store staff and their tablet sessions. A tablet logs in with store code, staff code and PIN;
//! its token works only for that store, and slides forward while the tablet is in use.

use super::{Db, DbError};
use sqlx::Row;

/// A tablet stays logged in this long after its last use (a shift pattern, not a session).
pub const STAFF_SESSION_MS: i64 = 7 * 24 * 3_600_000;

#[derive(Debug, Clone, PartialEq)]
pub struct StaffRow {
    pub id: i64,
    pub store_code: String,
    pub staff_code: String,
    pub name: String,
    pub pin_hash: String,
}

/// Who a staff token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffSession {
    pub staff_id: i64,
    pub store_code: String,
    pub name: String,
    pub expires_at: i64,
}

#[derive(Clone, Debug)]
pub struct StaffRepo {
    db: Db,
}

impl StaffRepo {
    pub fn new(db: Db) -> StaffRepo {
        StaffRepo { db }
    }

    pub async fn find(
        &self,
        store_code: &str,
        staff_code: &str,
    ) -> Result<Option<StaffRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, store_code, staff_code, name, pin_hash FROM staff \
             WHERE store_code = $1 AND staff_code = $2",
        )
        .bind(store_code)
        .bind(staff_code)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(staff_row).transpose()
    }

    pub async fn get(&self, id: i64) -> Result<Option<StaffRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, store_code, staff_code, name, pin_hash FROM staff WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(staff_row).transpose()
    }

    /// Adds a staff member unless the store already has one with that code (seeding twice, or
    /// a PIN changed since, keeps what is there).
    pub async fn insert_if_missing(
        &self,
        store_code: &str,
        staff_code: &str,
        name: &str,
        pin_hash: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO staff (store_code, staff_code, name, pin_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (store_code, staff_code) DO NOTHING",
        )
        .bind(store_code)
        .bind(staff_code)
        .bind(name)
        .bind(pin_hash)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn stores_with_staff(&self) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query("SELECT DISTINCT store_code FROM staff")
            .fetch_all(self.db.pool())
            .await?;
        rows.iter().map(|r| Ok(r.try_get("store_code")?)).collect()
    }

    pub async fn create_session(
        &self,
        token_hash: &str,
        staff: &StaffRow,
        now: i64,
    ) -> Result<i64, DbError> {
        let expires_at = now + STAFF_SESSION_MS;
        sqlx::query(
            "INSERT INTO staff_sessions (token_hash, staff_id, store_code, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(staff.id)
        .bind(&staff.store_code)
        .bind(now)
        .bind(expires_at)
        .execute(self.db.pool())
        .await?;
        Ok(expires_at)
    }

    /// The live session of a token, its expiry pushed forward; None when unknown or expired.
    pub async fn resolve(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<StaffSession>, DbError> {
        let row = sqlx::query(
            "SELECT s.staff_id, s.store_code, s.expires_at, t.name FROM staff_sessions s \
             JOIN staff t ON t.id = s.staff_id WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(self.db.pool())
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let expires_at: i64 = row.try_get("expires_at")?;
        if expires_at <= now {
            return Ok(None);
        }
        let renewed = now + STAFF_SESSION_MS;
        // Renewing on every call would write on every tablet poll; once an hour is plenty.
        if renewed - expires_at > 3_600_000 {
            sqlx::query("UPDATE staff_sessions SET expires_at = $1 WHERE token_hash = $2")
                .bind(renewed)
                .bind(token_hash)
                .execute(self.db.pool())
                .await?;
        }
        Ok(Some(StaffSession {
            staff_id: row.try_get("staff_id")?,
            store_code: row.try_get("store_code")?,
            name: row.try_get("name")?,
            expires_at: renewed.max(expires_at),
        }))
    }

    /// A new PIN (its hash) for the staff member; every tablet session of theirs but `keep`
    /// ends with the old one, in the same transaction.
    pub async fn set_pin(&self, staff_id: i64, pin_hash: &str, keep: &str) -> Result<(), DbError> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE staff SET pin_hash = $1 WHERE id = $2")
            .bind(pin_hash)
            .bind(staff_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM staff_sessions WHERE staff_id = $1 AND token_hash <> $2")
            .bind(staff_id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM staff_sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    pub async fn delete_expired_sessions(&self, now: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM staff_sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }
}

fn staff_row(r: &sqlx::any::AnyRow) -> Result<StaffRow, DbError> {
    Ok(StaffRow {
        id: r.try_get("id")?,
        store_code: r.try_get("store_code")?,
        staff_code: r.try_get("staff_code")?,
        name: r.try_get("name")?,
        pin_hash: r.try_get("pin_hash")?,
    })
}
