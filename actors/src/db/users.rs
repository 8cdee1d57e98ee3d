//! Users. A closed account keeps its row as a tombstone (orders will reference it) with the
//! phone, name, email, birthday and password nulled; its addresses and sessions are deleted.

use super::{Db, DbError};
use crate::domain::accounts::phone::Phone;
use sqlx::any::AnyRow;
use sqlx::Row;
use tracing::instrument;

/// A user as stored. No Debug: it holds the phone and the password hash.
#[derive(Clone)]
pub struct UserRow {
    pub id: i64,
    pub phone: Option<String>,
    pub password_hash: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub gender: i64,
    /// "YYYY-MM-DD".
    pub birthday: Option<String>,
    pub user_key: String,
    pub anonymous_flag: i64,
    pub is_loyalty: bool,
    pub loyalty_level: Option<i64>,
    pub points: i64,
    pub personalized_agree: bool,
    pub remind_again: bool,
    pub recommendation: bool,
    pub created_at: i64,
    pub closed_at: Option<i64>,
}

/// The editable profile fields, written together.
pub struct ProfileFields<'a> {
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub gender: i64,
    pub birthday: Option<&'a str>,
}

const COLUMNS: &str = "id, phone, password_hash, name, email, gender, birthday, user_key, \
    anonymous_flag, is_loyalty, loyalty_level, points, personalized_agree, remind_again, \
    recommendation, created_at, closed_at";

#[derive(Clone, Debug)]
pub struct UserRepo {
    db: Db,
}

impl UserRepo {
    pub fn new(db: Db) -> UserRepo {
        UserRepo { db }
    }

    /// A new guest (not a member, anonymousFlag 0). None when the phone already has an account.
    #[instrument(skip_all)]
    pub async fn create(
        &self,
        phone: &Phone,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<Option<i64>, DbError> {
        let result = sqlx::query(
            "INSERT INTO users (phone, password_hash, user_key, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(phone.as_str())
        .bind(password_hash)
        .bind(uuid::Uuid::new_v4().simple().to_string())
        .bind(now)
        .bind(now)
        .fetch_one(self.db.pool())
        .await;
        match result {
            Ok(row) => Ok(Some(row.try_get("id")?)),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The open account holding this phone.
    #[instrument(skip_all)]
    pub async fn find_by_phone(&self, phone: &Phone) -> Result<Option<UserRow>, DbError> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE phone = $1 AND closed_at IS NULL");
        let row = sqlx::query(&sql)
            .bind(phone.as_str())
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.map(|r| user_row(&r)).transpose()?)
    }

    #[instrument(skip(self))]
    pub async fn get(&self, id: i64) -> Result<Option<UserRow>, DbError> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.map(|r| user_row(&r)).transpose()?)
    }

    #[instrument(skip(self, hash))]
    pub async fn set_password(&self, id: i64, hash: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
            .bind(hash)
            .bind(now)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    #[instrument(skip(self, fields))]
    pub async fn set_profile(
        &self,
        id: i64,
        fields: &ProfileFields<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE users SET name = $1, email = $2, gender = $3, birthday = $4, updated_at = $5 \
             WHERE id = $6 AND closed_at IS NULL",
        )
        .bind(fields.name)
        .bind(fields.email)
        .bind(fields.gender)
        .bind(fields.birthday)
        .bind(now)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The SMS-notification dialog answers (spec §4: isPersonalizedAgree, isRemindAgain).
    #[instrument(skip(self))]
    pub async fn set_marketing(
        &self,
        id: i64,
        personalized_agree: bool,
        remind_again: bool,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE users SET personalized_agree = $1, remind_again = $2, updated_at = $3 \
             WHERE id = $4",
        )
        .bind(i64::from(personalized_agree))
        .bind(i64::from(remind_again))
        .bind(now)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The personalised-recommendation switch (recommendationSwitch, shown as personalizedShowTag).
    #[instrument(skip(self))]
    pub async fn set_recommendation(&self, id: i64, on: bool, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET recommendation = $1, updated_at = $2 WHERE id = $3")
            .bind(i64::from(on))
            .bind(now)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Closes the account in one transaction: refused while an order of theirs is still in
    /// progress (it could still take or give back money, points or coupons). Sessions,
    /// addresses, pending codes and failed logins go; what the member held is forfeited (points
    /// in every column, usable coupons, gifts not delivered, the membership); the row stays
    /// with its personal fields nulled. Consents stay: they hold no personal data and are the
    /// record of what was agreed.
    #[instrument(skip(self))]
    pub async fn close(&self, id: i64, now: i64) -> Result<Closure, DbError> {
        let mut tx = self.db.pool().begin().await?;
        // A write first, so SQLite takes its write lock at once (see AddressRepo::insert).
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let open = sqlx::query(&format!(
            "SELECT 1 AS x FROM orders WHERE user_id = $1 AND state NOT IN ({ENDED}) LIMIT 1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if open.is_some() {
            tx.rollback().await?;
            return Ok(Closure::OrdersInProgress);
        }
        let phone: Option<String> = sqlx::query("SELECT phone FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|row| row.try_get::<Option<String>, _>("phone"))
            .transpose()?
            .flatten();
        sqlx::query("DELETE FROM addresses WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if let Some(phone) = phone {
            for table in ["sms_codes", "login_failures"] {
                sqlx::query(&format!("DELETE FROM {table} WHERE phone = $1"))
                    .bind(&phone)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        super::points::PointsRepo::forfeit_all_in(&mut tx, id, now).await?;
        super::coupons::forfeit_all_in(&mut tx, id, now).await?;
        super::gifts::forfeit_all_in(&mut tx, id, now).await?;
        sqlx::query("DELETE FROM loyalty_members WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE users SET phone = NULL, password_hash = NULL, name = NULL, email = NULL, \
             birthday = NULL, gender = 0, is_loyalty = 0, loyalty_level = NULL, closed_at = $1, \
             updated_at = $2 WHERE id = $3",
        )
        .bind(now)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Closure::Closed)
    }
}

/// What closing an account did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closure {
    Closed,
    /// An order of theirs is not completed, cancelled, refused or expired yet: nothing changed.
    OrdersInProgress,
}

/// The states in which an order can no longer move money, points or coupons by itself.
const ENDED: &str = "2, 3, 8, 9";

fn user_row(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        phone: row.try_get("phone")?,
        password_hash: row.try_get("password_hash")?,
        name: row.try_get("name")?,
        email: row.try_get("email")?,
        gender: row.try_get("gender")?,
        birthday: row.try_get("birthday")?,
        user_key: row.try_get("user_key")?,
        anonymous_flag: row.try_get("anonymous_flag")?,
        is_loyalty: row.try_get::<i64, _>("is_loyalty")? != 0,
        loyalty_level: row.try_get("loyalty_level")?,
        points: row.try_get("points")?,
        personalized_agree: row.try_get::<i64, _>("personalized_agree")? != 0,
        remind_again: row.try_get::<i64, _>("remind_again")? != 0,
        recommendation: row.try_get::<i64, _>("recommendation")? != 0,
        created_at: row.try_get("created_at")?,
        closed_at: row.try_get("closed_at")?,
    })
}
