//! Order numbers (spec: the China time to the second and six digits), drawn for each submit.

use super::{Db, DbError};
use crate::domain::ordering::checkout::order_no;

#[derive(Clone, Debug)]
pub struct OrderNumbers {
    #[allow(dead_code)]
    db: Db,
}

impl OrderNumbers {
    pub fn new(db: Db) -> OrderNumbers {
        OrderNumbers { db }
    }

    /// A number for an order submitted at `now`.
    pub async fn next(&self, now: i64) -> Result<String, DbError> {
        let random = uuid::Uuid::new_v4().as_u128() as u32;
        Ok(order_no(now, random))
    }
}
