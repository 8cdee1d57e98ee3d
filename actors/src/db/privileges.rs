//! The member privileges' grants (docs/loyalty.md "Privileges"): which members still lack a
//! period's coupons, and a grant's coupons issued together through the coupon ledger under
//! their period keys (`IssueSource::Privilege`). The coupons' unique (source, key) is the
//! compare-and-set: a grant run twice, from the job on every node and from the member's own
//! reads at once, issues once. There is no table of its own: the ledger is the record.

use super::coupons::{issue_in, IssueError, IssueSource, Issued, COUPON_COLUMNS};
use super::{Db, DbError};
use crate::domain::loyalty::coupon::Coupon;
use crate::domain::loyalty::privileges::KeyShape;
use sqlx::Row;

/// A member as the privileges see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub user_id: i64,
    pub level: i64,
    /// "YYYY-MM-DD" as the profile stores it.
    pub birthday: Option<String>,
}

/// What a grant did.
#[derive(Debug, Clone, PartialEq)]
pub enum Granted {
    Now(Vec<Coupon>),
    /// Its keys had issued before: nothing new.
    Already,
}

#[derive(Clone, Debug)]
pub struct PrivilegeRepo {
    db: Db,
}

impl PrivilegeRepo {
    pub fn new(db: Db) -> PrivilegeRepo {
        PrivilegeRepo { db }
    }

    /// The member's level and birthday; None for a non-member or a closed account.
    pub async fn holder(&self, user_id: i64) -> Result<Option<Holder>, DbError> {
        let row = sqlx::query(
            "SELECT m.user_id, m.level, u.birthday FROM loyalty_members m \
             JOIN users u ON u.id = m.user_id WHERE m.user_id = $1 AND u.closed_at IS NULL",
        )
        .bind(user_id)
        .fetch_optional(self.db.pool())
        .await?;
        row.map(|r| holder(&r)).transpose()
    }

    /// Members at one of `levels` whose key of `shape` has issued nothing, at most `limit`;
    /// with `born_in` (1–12), only those whose birthday falls in that month.
    pub async fn lacking(
        &self,
        levels: &[i64],
        shape: &KeyShape,
        born_in: Option<u32>,
        limit: i64,
    ) -> Result<Vec<Holder>, DbError> {
        if levels.is_empty() {
            return Ok(Vec::new());
        }
        // Levels are integers from the level table: written into the text, not bound.
        let levels: Vec<String> = levels.iter().map(i64::to_string).collect();
        let rows = sqlx::query(&format!(
            "SELECT m.user_id, m.level, u.birthday FROM loyalty_members m \
             JOIN users u ON u.id = m.user_id \
             WHERE m.level IN ({}) AND u.closed_at IS NULL \
             AND ($4 = '' OR substr(u.birthday, 6, 2) = $4) \
             AND NOT EXISTS (SELECT 1 FROM coupons c WHERE c.source = 'privilege' \
                 AND c.source_key = $1 || CAST(m.user_id AS TEXT) || $2) \
             ORDER BY m.user_id LIMIT $3",
            levels.join(", ")
        ))
        .bind(shape.prefix)
        .bind(&shape.suffix)
        .bind(limit)
        .bind(born_in.map_or_else(String::new, |m| format!("{m:02}")))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(holder).collect()
    }

    /// The coupons issued under these privilege keys.
    pub async fn issued(&self, keys: &[String]) -> Result<Vec<Coupon>, DbError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.source = 'privilege' \
             AND c.source_key IN ({}) ORDER BY c.source_key",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for key in keys {
            query = query.bind(key);
        }
        let rows = query.fetch_all(self.db.pool()).await?;
        rows.iter().map(super::coupons::coupon).collect()
    }

    /// Issues one coupon of `template_code` per key to `user_id`, in one transaction: all of
    /// them, or (a key issued before: another run was first) none.
    pub async fn grant(
        &self,
        template_code: &str,
        user_id: i64,
        keys: &[String],
        now: i64,
    ) -> Result<Granted, IssueError> {
        let mut tx = self.db.pool().begin().await.map_err(DbError::from)?;
        let mut coupons = Vec::with_capacity(keys.len());
        for key in keys {
            match issue_in(
                &mut tx,
                template_code,
                user_id,
                IssueSource::Privilege,
                Some(key),
                now,
            )
            .await?
            {
                Issued::Now(c) => coupons.push(c),
                // Dropping the transaction undoes whatever this run had issued.
                Issued::Already(_) => return Ok(Granted::Already),
            }
        }
        tx.commit().await.map_err(DbError::from)?;
        Ok(Granted::Now(coupons))
    }
}

fn holder(r: &sqlx::any::AnyRow) -> Result<Holder, DbError> {
    Ok(Holder {
        user_id: r.try_get("user_id")?,
        level: r.try_get("level")?,
        birthday: r.try_get("birthday")?,
    })
}
