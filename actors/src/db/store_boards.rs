//! The live state staff set on a store's tablet: its status and notice, and its sold-out
//! products, with the board's version. Each change is one transaction: the change itself (one
//! statement, so concurrent tablets on any node lose nothing) and the version bump.
//!
//! Reads take the version first and the rows after: what is read is then at least as new as
//! the version it is labelled with, never older, so a node comparing versions never keeps a
//! board older than the one the database holds.

use super::{Db, DbError};
use crate::domain::catalogue::StoreStatus;
use crate::domain::stores::store_board::{parse_status, status_name, Board, StoreLive};
use sqlx::{Any, Row, Transaction};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct StoreBoardRepo {
    db: Db,
}

impl StoreBoardRepo {
    pub fn new(db: Db) -> StoreBoardRepo {
        StoreBoardRepo { db }
    }

    /// The board's version now (0: never changed). One indexed read.
    pub async fn version(&self, store_code: &str) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT version FROM store_board_versions WHERE store_code = $1")
            .bind(store_code)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(match row {
            Some(r) => r.try_get("version")?,
            None => 0,
        })
    }

    /// One store's board as stored now.
    pub async fn load(&self, store_code: &str) -> Result<Board, DbError> {
        let version = self.version(store_code).await?;
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
        Ok(Board {
            version,
            live: StoreLive {
                status,
                notice,
                sold_out,
            },
        })
    }

    /// Every store's board that was ever changed (the others are `Board::default()`): three
    /// reads for the whole chain, to activate many stores at once (store lists).
    pub async fn load_all(&self) -> Result<HashMap<String, Board>, DbError> {
        let mut boards: HashMap<String, Board> = HashMap::new();
        for r in sqlx::query("SELECT store_code, version FROM store_board_versions")
            .fetch_all(self.db.pool())
            .await?
        {
            boards.entry(r.try_get("store_code")?).or_default().version = r.try_get("version")?;
        }
        for r in sqlx::query("SELECT store_code, status, notice FROM store_states")
            .fetch_all(self.db.pool())
            .await?
        {
            let status: String = r.try_get("status")?;
            let live = &mut boards.entry(r.try_get("store_code")?).or_default().live;
            live.status = parse_status(&status);
            live.notice = r.try_get("notice")?;
        }
        for r in sqlx::query(
            "SELECT store_code, product_code FROM store_sold_out ORDER BY store_code, product_code",
        )
        .fetch_all(self.db.pool())
        .await?
        {
            let board = boards.entry(r.try_get("store_code")?).or_default();
            board.live.sold_out.push(r.try_get("product_code")?);
        }
        Ok(boards)
    }

    /// Sets the status and notice; answers the board's new version.
    pub async fn set_status(
        &self,
        store_code: &str,
        status: StoreStatus,
        notice: Option<&str>,
        by: &str,
        now: i64,
    ) -> Result<i64, DbError> {
        let mut tx = self.db.pool().begin().await?;
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
        .execute(&mut *tx)
        .await?;
        let version = bump(&mut tx, store_code).await?;
        tx.commit().await?;
        Ok(version)
    }

    /// Marks a product sold out, or available again. Answers the board's new version, or None
    /// when nothing changed (a repeat: the version stays).
    pub async fn set_sold_out(
        &self,
        store_code: &str,
        product_code: &str,
        sold_out: bool,
        now: i64,
    ) -> Result<Option<i64>, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let done = if sold_out {
            sqlx::query(
                "INSERT INTO store_sold_out (store_code, product_code, since) VALUES ($1, $2, $3) \
                 ON CONFLICT (store_code, product_code) DO NOTHING",
            )
            .bind(store_code)
            .bind(product_code)
            .bind(now)
            .execute(&mut *tx)
            .await?
        } else {
            sqlx::query("DELETE FROM store_sold_out WHERE store_code = $1 AND product_code = $2")
                .bind(store_code)
                .bind(product_code)
                .execute(&mut *tx)
                .await?
        };
        if done.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        let version = bump(&mut tx, store_code).await?;
        tx.commit().await?;
        Ok(Some(version))
    }
}

/// One more version for the store's board, inside the change's transaction: an increment in
/// the database, so two nodes changing the board at once each get their own number.
async fn bump(tx: &mut Transaction<'static, Any>, store_code: &str) -> Result<i64, DbError> {
    let row = sqlx::query(
        "INSERT INTO store_board_versions (store_code, version) VALUES ($1, 1) \
         ON CONFLICT (store_code) DO UPDATE SET version = store_board_versions.version + 1 \
         RETURNING version",
    )
    .bind(store_code)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.try_get("version")?)
}
