//! Carts: one row per cart, the whole cart as a document. `version` is the optimistic check
//! between nodes: a write names the version it read, and loses if another write came first.

use super::{Db, DbError};
use crate::domain::cart::Cart;
use sqlx::{Any, Row, Transaction};

#[derive(Clone, Debug)]
pub struct CartRepo {
    db: Db,
}

/// A cart as read, with the version a write must name. Version 0: never written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StoredCart {
    pub cart: Cart,
    pub version: i64,
}

impl CartRepo {
    pub fn new(db: Db) -> CartRepo {
        CartRepo { db }
    }

    pub async fn load(&self, key: &str) -> Result<StoredCart, DbError> {
        let row = sqlx::query("SELECT doc, version FROM carts WHERE cart_key = $1")
            .bind(key)
            .fetch_optional(self.db.pool())
            .await?;
        match row {
            None => Ok(StoredCart::default()),
            Some(row) => Ok(StoredCart {
                cart: serde_json::from_str(&row.try_get::<String, _>("doc")?)?,
                version: row.try_get("version")?,
            }),
        }
    }

    /// Writes `cart` as version `read_version + 1`; `false` when another write came first.
    pub async fn save(
        &self,
        key: &str,
        user_id: Option<i64>,
        cart: &Cart,
        read_version: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let won = save_in(&mut tx, key, user_id, cart, read_version, now).await?;
        tx.commit().await?;
        Ok(won)
    }

    pub async fn delete(&self, key: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM carts WHERE cart_key = $1")
            .bind(key)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Forgets visitors' carts nobody touched since `before` (housekeeping).
    pub async fn delete_stale_visitor_carts(&self, before: i64) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM carts WHERE user_id IS NULL AND updated_at < $1")
            .bind(before)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }
}

/// The versioned write inside a caller's transaction (submit empties the cart in the order's).
pub async fn save_in(
    tx: &mut Transaction<'static, Any>,
    key: &str,
    user_id: Option<i64>,
    cart: &Cart,
    read_version: i64,
    now: i64,
) -> Result<bool, DbError> {
    let doc = serde_json::to_string(cart)?;
    let done = if read_version == 0 {
        sqlx::query(
            "INSERT INTO carts (cart_key, user_id, doc, version, updated_at) \
             VALUES ($1, $2, $3, 1, $4) ON CONFLICT (cart_key) DO NOTHING",
        )
        .bind(key)
        .bind(user_id)
        .bind(doc)
        .bind(now)
        .execute(&mut **tx)
        .await?
    } else {
        sqlx::query(
            "UPDATE carts SET doc = $1, version = $2, updated_at = $3 \
             WHERE cart_key = $4 AND version = $5",
        )
        .bind(doc)
        .bind(read_version + 1)
        .bind(now)
        .bind(key)
        .bind(read_version)
        .execute(&mut **tx)
        .await?
    };
    Ok(done.rows_affected() == 1)
}
