//! Order comments: one per order (the table's key), written once.

use crate::db::{Db, DbError};
use crate::domain::ordering::comment::Comment;
use sqlx::Row;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentRow {
    pub rating: u8,
    pub text: String,
    pub at: i64,
}

pub struct CommentRepo {
    db: Db,
}

impl CommentRepo {
    pub fn new(db: Db) -> CommentRepo {
        CommentRepo { db }
    }

    pub async fn find(&self, order_no: &str) -> Result<Option<CommentRow>, DbError> {
        let row =
            sqlx::query("SELECT rating, body, created_at FROM order_comments WHERE order_no = $1")
                .bind(order_no)
                .fetch_optional(self.db.pool())
                .await?;
        Ok(row.map(|r| CommentRow {
            rating: r.try_get::<i64, _>("rating").unwrap_or(0) as u8,
            text: r.try_get("body").unwrap_or_default(),
            at: r.try_get("created_at").unwrap_or(0),
        }))
    }

    /// Keeps the order's comment; false when it has one already (nothing changes).
    pub async fn add(
        &self,
        order_no: &str,
        user_id: i64,
        comment: &Comment,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO order_comments (order_no, user_id, rating, body, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (order_no) DO NOTHING",
        )
        .bind(order_no)
        .bind(user_id)
        .bind(i64::from(comment.rating))
        .bind(&comment.text)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
