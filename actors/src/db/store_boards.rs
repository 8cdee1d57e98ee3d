//! The live state staff set on a store's tablet: its status and notice, and its sold-out
//! products. Each change is one statement, so concurrent tablets (on any node) lose nothing.

use super::{Db, DbError};
use crate::domain::catalog::StoreStatus;
use crate::domain::store_board::{parse_status, status_name, StoreLive};
use sqlx::Row;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct StoreBoardRepo {
    db: Db,
}

impl StoreBoardRepo {
    pub fn new(db: Db) -> StoreBoardRepo {
        StoreBoardRepo { db }
    }

    pub async fn get(&self, store_code: &str) -> Result<StoreLive, DbError> {
        let row = sqlx::query("SELECT status, notice FROM store_states WHERE store_code = $1")
            .bind(store_code)
            .fetch_optional(self.db.pool())
            .await?;
        let (status, notice) = match row {
            Some(r) => {
                let status: String = r.try_get("status")?;
                (parse_status(&status), r.try_get("notice")?)
            }
            None => (None, None),
        };
        let sold_out = sqlx::query(
            "SELECT product_code FROM store_sold_out WHERE store_code = $1 ORDER BY product_code",
        )
        .bind(store_code)
        .fetch_all(self.db.pool())
        .await?
        .iter()
        .map(|r| r.try_get("product_code"))
        .collect::<Result<Vec<String>, _>>()?;
        Ok(StoreLive {
            status,
            notice,
            sold_out,
        })
    }

    /// Every store's status and notice the staff set (stores never set are absent).
    pub async fn statuses(&self) -> Result<HashMap<String, StoreLive>, DbError> {
        let rows = sqlx::query("SELECT store_code, status, notice FROM store_states")
            .fetch_all(self.db.pool())
            .await?;
        rows.iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                Ok((
                    r.try_get("store_code")?,
                    StoreLive {
                        status: parse_status(&status),
                        notice: r.try_get("notice")?,
                        sold_out: Vec::new(),
                    },
                ))
            })
            .collect()
    }

    pub async fn set_status(
        &self,
        store_code: &str,
        status: StoreStatus,
        notice: Option<&str>,
        by: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO store_states (store_code, status, notice, updated_at, updated_by) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (store_code) DO UPDATE SET \
             status = excluded.status, notice = excluded.notice, \
             updated_at = excluded.updated_at, updated_by = excluded.updated_by",
        )
        .bind(store_code)
        .bind(status_name(status))
        .bind(notice)
        .bind(now)
        .bind(by)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Marks a product sold out, or available again. Answers whether anything changed.
    pub async fn set_sold_out(
        &self,
        store_code: &str,
        product_code: &str,
        sold_out: bool,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = if sold_out {
            sqlx::query(
                "INSERT INTO store_sold_out (store_code, product_code, since) VALUES ($1, $2, $3) \
                 ON CONFLICT (store_code, product_code) DO NOTHING",
            )
            .bind(store_code)
            .bind(product_code)
            .bind(now)
            .execute(self.db.pool())
            .await?
        } else {
            sqlx::query("DELETE FROM store_sold_out WHERE store_code = $1 AND product_code = $2")
                .bind(store_code)
                .bind(product_code)
                .execute(self.db.pool())
                .await?
        };
        Ok(done.rows_affected() > 0)
    }
}
