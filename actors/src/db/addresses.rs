//! The address book. Every query is scoped by the owner, so another user's address is simply
//! not found: it cannot be read, changed, deleted or made default.

use super::{locks, Db, DbError};
use crate::domain::geo::address::NewAddress;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};
use tracing::instrument;

#[derive(Debug, Clone, PartialEq)]
pub struct AddressRow {
    pub id: i64,
    pub name: String,
    pub phone: String,
    pub base_address: String,
    pub house_number: String,
    pub lat: String,
    pub lng: String,
    pub city_name: Option<String>,
    pub province_name: Option<String>,
    pub county_name: Option<String>,
    pub is_default: bool,
    pub updated_at: i64,
    /// `male` or `female`; null: not said.
    pub sex: Option<String>,
    /// `home`, `company` or `school`; null: none.
    pub tag: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insert {
    Created(i64),
    /// The book already holds the maximum.
    Full,
}

const COLUMNS: &str = "id, name, phone, base_address, house_number, lat, lng, city_name, \
    province_name, county_name, is_default, updated_at, sex, tag";

#[derive(Clone, Debug)]
pub struct AddressRepo {
    db: Db,
}

impl AddressRepo {
    pub fn new(db: Db) -> AddressRepo {
        AddressRepo { db }
    }

    /// The default first, then the most recently changed.
    #[instrument(skip(self))]
    pub async fn list(&self, user_id: i64) -> Result<Vec<AddressRow>, DbError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM addresses WHERE user_id = $1 \
             ORDER BY is_default DESC, updated_at DESC, id DESC"
        );
        let rows = sqlx::query(&sql)
            .bind(user_id)
            .fetch_all(self.db.pool())
            .await?;
        Ok(rows.iter().map(address_row).collect::<Result<_, _>>()?)
    }

    #[instrument(skip(self))]
    pub async fn get(&self, user_id: i64, id: i64) -> Result<Option<AddressRow>, DbError> {
        let sql = format!("SELECT {COLUMNS} FROM addresses WHERE id = $1 AND user_id = $2");
        let row = sqlx::query(&sql)
            .bind(id)
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.as_ref().map(address_row).transpose()?)
    }

    #[instrument(skip(self))]
    pub async fn default_id(&self, user_id: i64) -> Result<Option<i64>, DbError> {
        let row = sqlx::query("SELECT id FROM addresses WHERE user_id = $1 AND is_default = 1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// Adds an address unless the book holds `max` already. The user's row is locked first,
    /// so concurrent adds for one user count one after the other (the cap holds on PostgreSQL
    /// too), and SQLite takes its write lock up front instead of failing to upgrade a read
    /// lock under a concurrent writer. Each other transaction here also writes first.
    #[instrument(skip(self, address))]
    pub async fn insert(
        &self,
        user_id: i64,
        address: &NewAddress,
        max: i64,
        now: i64,
    ) -> Result<Insert, DbError> {
        let mut tx = self.db.pool().begin().await?;
        locks::lock_user(&mut tx, user_id).await?;
        let count: i64 = sqlx::query("SELECT COUNT(*) AS n FROM addresses WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
        if count >= max {
            // Dropping the transaction rolls it back, releasing the lock.
            return Ok(Insert::Full);
        }
        if address.is_default {
            clear_default(&mut tx, user_id, None, now).await?;
        }
        let row = sqlx::query(
            "INSERT INTO addresses (user_id, name, phone, base_address, house_number, lat, lng, \
             city_name, province_name, county_name, is_default, created_at, updated_at, sex, tag) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id",
        )
        .bind(user_id)
        .bind(address.name.as_str())
        .bind(address.phone.as_str())
        .bind(address.base_address.as_str())
        .bind(address.house_number.as_str())
        .bind(address.point.lat())
        .bind(address.point.lng())
        .bind(address.city_name.as_deref())
        .bind(address.province_name.as_deref())
        .bind(address.county_name.as_deref())
        .bind(i64::from(address.is_default))
        .bind(now)
        .bind(now)
        .bind(address.sex.map(|s| s.as_str()))
        .bind(address.tag.map(|t| t.as_str()))
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Insert::Created(row.try_get("id")?))
    }

    /// Replaces the fields of the owner's address; `is_default` None keeps the flag as it was.
    /// False (and nothing changed) when the owner has no such address.
    #[instrument(skip(self, address))]
    pub async fn update(
        &self,
        user_id: i64,
        id: i64,
        address: &NewAddress,
        is_default: Option<bool>,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        if is_default == Some(true) {
            clear_default(&mut tx, user_id, Some(id), now).await?;
        }
        // -1 keeps the flag: the column is 0 or 1, so the CASE picks the stored value.
        let flag = is_default.map_or(-1, i64::from);
        let done = sqlx::query(
            "UPDATE addresses SET name = $1, phone = $2, base_address = $3, house_number = $4, \
             lat = $5, lng = $6, city_name = $7, province_name = $8, county_name = $9, \
             is_default = CASE WHEN $10 < 0 THEN is_default ELSE $11 END, updated_at = $12, \
             sex = $13, tag = $14 WHERE id = $15 AND user_id = $16",
        )
        .bind(address.name.as_str())
        .bind(address.phone.as_str())
        .bind(address.base_address.as_str())
        .bind(address.house_number.as_str())
        .bind(address.point.lat())
        .bind(address.point.lng())
        .bind(address.city_name.as_deref())
        .bind(address.province_name.as_deref())
        .bind(address.county_name.as_deref())
        .bind(flag)
        .bind(flag)
        .bind(now)
        .bind(address.sex.map(|s| s.as_str()))
        .bind(address.tag.map(|t| t.as_str()))
        .bind(id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Makes the owner's address the default. False (and nothing changed) when the owner has
    /// no such address.
    #[instrument(skip(self))]
    pub async fn set_default(&self, user_id: i64, id: i64, now: i64) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        clear_default(&mut tx, user_id, Some(id), now).await?;
        let done = sqlx::query(
            "UPDATE addresses SET is_default = 1, updated_at = $1 WHERE id = $2 AND user_id = $3",
        )
        .bind(now)
        .bind(id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes the owner's address; the caller checks the deletion rules first.
    #[instrument(skip(self))]
    pub async fn delete(&self, user_id: i64, id: i64) -> Result<bool, DbError> {
        let done = sqlx::query("DELETE FROM addresses WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// Clears the user's default flag, except on `keep` (the address becoming the default).
async fn clear_default(
    tx: &mut Transaction<'static, Any>,
    user_id: i64,
    keep: Option<i64>,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE addresses SET is_default = 0, updated_at = $1 \
         WHERE user_id = $2 AND is_default = 1 AND id <> $3",
    )
    .bind(now)
    .bind(user_id)
    .bind(keep.unwrap_or(-1))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn address_row(row: &AnyRow) -> Result<AddressRow, sqlx::Error> {
    Ok(AddressRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        phone: row.try_get("phone")?,
        base_address: row.try_get("base_address")?,
        house_number: row.try_get("house_number")?,
        lat: row.try_get("lat")?,
        lng: row.try_get("lng")?,
        city_name: row.try_get("city_name")?,
        province_name: row.try_get("province_name")?,
        county_name: row.try_get("county_name")?,
        is_default: row.try_get::<i64, _>("is_default")? != 0,
        updated_at: row.try_get("updated_at")?,
        sex: row.try_get("sex")?,
        tag: row.try_get("tag")?,
    })
}
