//! Order numbers (spec: the China time to the second and six digits): each submit draws the
//! next value of one counter the whole deployment shares (migration 0018: a sequence in
//! PostgreSQL, a row in SQLite), and [`order_no`] makes the digits of it. Drawn outside the
//! submit's transaction, so the row or sequence is held for one statement, not for a submit; a
//! submit that fails afterwards leaves a gap, which nothing minds.

use super::{Backend, Db, DbError};
use crate::domain::ordering::checkout::order_no;
use sqlx::Row;

#[derive(Clone, Debug)]
pub struct OrderNumbers {
    db: Db,
}

impl OrderNumbers {
    pub fn new(db: Db) -> OrderNumbers {
        OrderNumbers { db }
    }

    /// A number for an order submitted at `now`.
    pub async fn next(&self, now: i64) -> Result<String, DbError> {
        Ok(order_no(now, self.draw().await?))
    }

    /// The counter's next value: each value is answered once, whichever node asks.
    pub async fn draw(&self) -> Result<u64, DbError> {
        let sql = match self.db.backend() {
            Backend::Postgres => "SELECT nextval('order_numbers') AS value",
            Backend::Sqlite => {
                "UPDATE order_numbers SET last = last + 1 WHERE id = 1 RETURNING last AS value"
            }
        };
        let row = sqlx::query(sql).fetch_one(self.db.pool()).await?;
        Ok(row.try_get::<i64, _>("value")?.max(0) as u64)
    }
}
