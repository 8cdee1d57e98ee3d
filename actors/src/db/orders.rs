//! Orders: the row with the columns that are queried or change, its lines, and its history.
//! An order is created in the transaction that empties the cart it came from (checkout).

use super::{Db, DbError};
use crate::domain::money::Fen;
use sqlx::{Any, Row, Transaction};

#[derive(Clone, Debug)]
pub struct OrderRepo {
    db: Db,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewOrderLine {
    pub product_code: String,
    pub quantity: u32,
    pub unit_price: Fen,
    pub count_price: Fen,
    pub discount: Fen,
    /// The line as priced and shown (names, options, rules), frozen.
    pub doc: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewOrder {
    pub order_no: String,
    pub user_id: i64,
    pub store_code: String,
    pub order_type: u8,
    pub state: u8,
    pub progress: u8,
    pub payment_type: String,
    pub is_book: bool,
    pub order_time: i64,
    pub product_amount: Fen,
    pub discount_amount: Fen,
    pub delivery_fee: Fen,
    pub order_amount: Fen,
    /// Address, receiver, notes, rules applied: what was agreed at submit.
    pub doc: serde_json::Value,
    pub lines: Vec<NewOrderLine>,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OrderRow {
    pub id: i64,
    pub order_no: String,
    pub user_id: i64,
    pub store_code: String,
    pub order_type: u8,
    pub state: u8,
    pub progress: u8,
    pub payment_type: String,
    pub is_book: bool,
    pub order_time: i64,
    pub product_amount: Fen,
    pub discount_amount: Fen,
    pub delivery_fee: Fen,
    pub order_amount: Fen,
    pub paid_amount: Fen,
    /// The payment that keeps the order's money, set once with the payment move.
    pub paid_by: Option<String>,
    pub doc: serde_json::Value,
    pub lines: Vec<NewOrderLine>,
    /// The number of the last transition (1: created); `order:progress` carries it.
    pub seq: i64,
    /// The optimistic-concurrency check of order writes.
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

impl OrderRepo {
    pub fn new(db: Db) -> OrderRepo {
        OrderRepo { db }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// What decides a payment's fate: the order's state and the payment that keeps its money
    /// (one row, no lines: the payment sessions ask this on every settlement).
    pub async fn settlement(
        &self,
        order_no: &str,
    ) -> Result<Option<(u8, Option<String>)>, DbError> {
        let row = sqlx::query("SELECT state, paid_by FROM orders WHERE order_no = $1")
            .bind(order_no)
            .fetch_optional(self.db.pool())
            .await?;
        row.map(|r| Ok((r.try_get::<i64, _>("state")? as u8, r.try_get("paid_by")?)))
            .transpose()
    }

    pub async fn find(&self, order_no: &str) -> Result<Option<OrderRow>, DbError> {
        let Some(mut order) = self.find_head(order_no).await? else {
            return Ok(None);
        };
        order.lines = sqlx::query(
            "SELECT product_code, quantity, unit_price, count_price, discount, doc \
             FROM order_lines WHERE order_no = $1 ORDER BY line_no",
        )
        .bind(order_no)
        .fetch_all(self.db.pool())
        .await?
        .into_iter()
        .map(|l| {
            Ok(NewOrderLine {
                product_code: l.try_get("product_code")?,
                quantity: l.try_get::<i64, _>("quantity")? as u32,
                unit_price: Fen(l.try_get("unit_price")?),
                count_price: Fen(l.try_get("count_price")?),
                discount: Fen(l.try_get("discount")?),
                doc: serde_json::from_str(&l.try_get::<String, _>("doc")?)?,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
        Ok(Some(order))
    }

    /// The order's own row without its lines (`lines` is left empty): for the payment
    /// service, which decides on amounts and states only and never reads the lines.
    pub async fn find_head(&self, order_no: &str) -> Result<Option<OrderRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, order_no, user_id, store_code, order_type, state, progress, payment_type, \
             is_book, order_time, product_amount, discount_amount, delivery_fee, order_amount, \
             paid_amount, paid_by, doc, seq, version, created_at, updated_at FROM orders \
             WHERE order_no = $1",
        )
        .bind(order_no)
        .fetch_optional(self.db.pool())
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(OrderRow {
            id: row.try_get("id")?,
            order_no: row.try_get("order_no")?,
            user_id: row.try_get("user_id")?,
            store_code: row.try_get("store_code")?,
            order_type: row.try_get::<i64, _>("order_type")? as u8,
            state: row.try_get::<i64, _>("state")? as u8,
            progress: row.try_get::<i64, _>("progress")? as u8,
            payment_type: row.try_get("payment_type")?,
            is_book: row.try_get::<i64, _>("is_book")? != 0,
            order_time: row.try_get("order_time")?,
            product_amount: Fen(row.try_get("product_amount")?),
            discount_amount: Fen(row.try_get("discount_amount")?),
            delivery_fee: Fen(row.try_get("delivery_fee")?),
            order_amount: Fen(row.try_get("order_amount")?),
            paid_amount: Fen(row.try_get("paid_amount")?),
            paid_by: row.try_get("paid_by")?,
            doc: serde_json::from_str(&row.try_get::<String, _>("doc")?)?,
            lines: Vec::new(),
            seq: row.try_get("seq")?,
            version: row.try_get("version")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
        }))
    }

    /// How many orders a user has (tests and the account page).
    pub async fn count_for_user(&self, user_id: i64) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM orders WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(self.db.pool())
            .await?;
        Ok(row.try_get("n")?)
    }
}

/// Lines written by one INSERT: 8 parameters each, well within SQLite's and PostgreSQL's
/// limits on parameters a statement.
const LINES_PER_INSERT: usize = 100;

/// Inserts the order, its lines and its first history row; answers the order id. A taken
/// order number is a unique-constraint error the caller retries with another number.
pub async fn insert_in(
    tx: &mut Transaction<'static, Any>,
    order: &NewOrder,
) -> Result<i64, DbError> {
    let row = sqlx::query(
        "INSERT INTO orders (order_no, user_id, store_code, order_type, state, progress, \
         payment_type, is_book, order_time, product_amount, discount_amount, delivery_fee, \
         order_amount, doc, seq, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, $15, $16) RETURNING id",
    )
    .bind(&order.order_no)
    .bind(order.user_id)
    .bind(&order.store_code)
    .bind(i64::from(order.order_type))
    .bind(i64::from(order.state))
    .bind(i64::from(order.progress))
    .bind(&order.payment_type)
    .bind(i64::from(order.is_book))
    .bind(order.order_time)
    .bind(order.product_amount.0)
    .bind(order.discount_amount.0)
    .bind(order.delivery_fee.0)
    .bind(order.order_amount.0)
    .bind(serde_json::to_string(&order.doc)?)
    .bind(order.created_at)
    .bind(order.created_at)
    .fetch_one(&mut **tx)
    .await?;
    let id: i64 = row.try_get("id")?;
    // The lines in one statement (a batch of them for a very long order): each is a round trip
    // the order's transaction would otherwise wait for.
    for (batch_no, batch) in order.lines.chunks(LINES_PER_INSERT).enumerate() {
        let values: Vec<String> = (0..batch.len())
            .map(|i| {
                let p = i * 8;
                format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4,
                    p + 5,
                    p + 6,
                    p + 7,
                    p + 8
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO order_lines (order_no, line_no, product_code, quantity, unit_price, \
             count_price, discount, doc) VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for (i, line) in batch.iter().enumerate() {
            let line_no = (batch_no * LINES_PER_INSERT + i) as i64 + 1;
            insert = insert
                .bind(&order.order_no)
                .bind(line_no)
                .bind(&line.product_code)
                .bind(i64::from(line.quantity))
                .bind(line.unit_price.0)
                .bind(line.count_price.0)
                .bind(line.discount.0)
                .bind(serde_json::to_string(&line.doc)?);
        }
        insert.execute(&mut **tx).await?;
    }
    sqlx::query(
        "INSERT INTO order_events (order_no, seq, state, progress, actor, note, at) \
         VALUES ($1, 1, $2, $3, 'customer', 'created', $4)",
    )
    .bind(&order.order_no)
    .bind(i64::from(order.state))
    .bind(i64::from(order.progress))
    .bind(order.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// One row of the customer's order list.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderSummary {
    pub order_no: String,
    pub store_code: String,
    pub order_type: u8,
    pub state: u8,
    pub progress: u8,
    pub order_time: i64,
    pub order_amount: Fen,
    pub doc: serde_json::Value,
    pub created_at: i64,
}

impl OrderRepo {
    /// The user's orders, newest first, optionally only those in `states`.
    pub async fn list_for_user(
        &self,
        user_id: i64,
        states: Option<&[u8]>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<OrderSummary>, i64), DbError> {
        // States are a handful of small integers: inlined as literals, never user text.
        let filter = states
            .map(|s| {
                let list: Vec<String> = s.iter().map(|v| v.to_string()).collect();
                format!(" AND state IN ({})", list.join(", "))
            })
            .unwrap_or_default();
        let total: i64 = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM orders WHERE user_id = $1{filter}"
        ))
        .bind(user_id)
        .fetch_one(self.db.pool())
        .await?
        .try_get("n")?;
        let rows = sqlx::query(&format!(
            "SELECT order_no, store_code, order_type, state, progress, order_time, order_amount, \
             doc, created_at FROM orders WHERE user_id = $1{filter} \
             ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.db.pool())
        .await?;
        let list = rows
            .into_iter()
            .map(|r| {
                Ok(OrderSummary {
                    order_no: r.try_get("order_no")?,
                    store_code: r.try_get("store_code")?,
                    order_type: r.try_get::<i64, _>("order_type")? as u8,
                    state: r.try_get::<i64, _>("state")? as u8,
                    progress: r.try_get::<i64, _>("progress")? as u8,
                    order_time: r.try_get("order_time")?,
                    order_amount: Fen(r.try_get("order_amount")?),
                    doc: serde_json::from_str(&r.try_get::<String, _>("doc")?)?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<Vec<_>, DbError>>()?;
        Ok((list, total))
    }
}

/// One row of an order's history.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderEvent {
    pub seq: i64,
    pub state: u8,
    pub progress: u8,
    pub actor: String,
    pub note: Option<String>,
    pub at: i64,
}

/// A transition to write: the new state and progress, who made it and why.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionRow {
    pub state: u8,
    pub progress: u8,
    pub actor: String,
    pub note: Option<String>,
    pub at: i64,
    /// Money received with this transition (a payment), added to paid_amount.
    pub paid: Fen,
    /// The payment that brings it: recorded as the order's `paid_by`, only while that is empty.
    pub paid_by: Option<String>,
}

impl OrderRepo {
    pub async fn history(&self, order_no: &str) -> Result<Vec<OrderEvent>, DbError> {
        let rows = sqlx::query(
            "SELECT seq, state, progress, actor, note, at FROM order_events \
             WHERE order_no = $1 ORDER BY seq",
        )
        .bind(order_no)
        .fetch_all(self.db.pool())
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(OrderEvent {
                    seq: r.try_get("seq")?,
                    state: r.try_get::<i64, _>("state")? as u8,
                    progress: r.try_get::<i64, _>("progress")? as u8,
                    actor: r.try_get("actor")?,
                    note: r.try_get("note")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Writes a transition and its history row in one transaction, if the order is still at
    /// `read_version`; answers the transition's seq, or None when another write came first.
    pub async fn transition(
        &self,
        order_no: &str,
        read_version: i64,
        t: &TransitionRow,
    ) -> Result<Option<i64>, DbError> {
        let mut tx = self.db.pool().begin().await?;
        let seq = transition_in(&mut tx, order_no, read_version, t).await?;
        if seq.is_some() {
            tx.commit().await?;
        }
        Ok(seq)
    }

    /// A store's orders in the given states, oldest first (the tablet's live queue).
    pub async fn store_queue(
        &self,
        store_code: &str,
        states: &[u8],
    ) -> Result<Vec<String>, DbError> {
        let list: Vec<String> = states.iter().map(|v| v.to_string()).collect();
        let rows = sqlx::query(&format!(
            "SELECT order_no FROM orders WHERE store_code = $1 AND state IN ({}) \
             ORDER BY created_at, id",
            list.join(", ")
        ))
        .bind(store_code)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get("order_no")?)).collect()
    }

    /// [`store_queue`](Self::store_queue) with each order's write version: what a StoreActor
    /// checks its queue in memory against (one indexed read; only orders that moved are read).
    pub async fn store_queue_versions(
        &self,
        store_code: &str,
        states: &[u8],
    ) -> Result<Vec<(String, i64)>, DbError> {
        // States are a handful of small integers: inlined as literals, never user text.
        let list: Vec<String> = states.iter().map(|v| v.to_string()).collect();
        let rows = sqlx::query(&format!(
            "SELECT order_no, version FROM orders WHERE store_code = $1 AND state IN ({}) \
             ORDER BY created_at, id",
            list.join(", ")
        ))
        .bind(store_code)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("order_no")?, r.try_get("version")?)))
            .collect()
    }
}

impl OrderRepo {
    /// A store's orders in `states` last changed at or after `since` that reached the store
    /// (paid, or cash on delivery): the tablet's history. Newest change first, with the doc the
    /// search reads (receiver phone, desk).
    pub async fn store_closed_since(
        &self,
        store_code: &str,
        states: &[u8],
        since: i64,
    ) -> Result<Vec<(String, serde_json::Value)>, DbError> {
        use crate::domain::ordering::order_machine::state as s;
        // States are a handful of small integers: inlined as literals, never user text.
        let list: Vec<String> = states.iter().map(|v| v.to_string()).collect();
        let rows = sqlx::query(&format!(
            "SELECT o.order_no, o.doc FROM orders o WHERE o.store_code = $1 AND o.state IN ({}) \
             AND o.updated_at >= $2 AND EXISTS (SELECT 1 FROM order_events e \
             WHERE e.order_no = o.order_no AND e.progress = 0 AND e.state IN ({}, {})) \
             ORDER BY o.updated_at DESC, o.id DESC",
            list.join(", "),
            s::PAID,
            s::CASH_ON_DELIVERY
        ))
        .bind(store_code)
        .bind(since)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("order_no")?,
                    serde_json::from_str(&r.try_get::<String, _>("doc")?)?,
                ))
            })
            .collect()
    }

    /// Per store: orders that reached it (paid, or cash on delivery) and wait for acceptance,
    /// how many, and since when the oldest has waited (its last change: the payment).
    pub async fn waiting_by_store(&self) -> Result<Vec<(String, u32, i64)>, DbError> {
        use crate::domain::ordering::order_machine::state as s;
        let rows = sqlx::query(&format!(
            "SELECT store_code, COUNT(*) AS n, MIN(updated_at) AS oldest FROM orders \
             WHERE state IN ({}, {}) GROUP BY store_code",
            s::PAID,
            s::CASH_ON_DELIVERY
        ))
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let n: i64 = r.try_get("n")?;
                Ok((r.try_get("store_code")?, n as u32, r.try_get("oldest")?))
            })
            .collect()
    }
}

/// The versioned transition inside a caller's transaction.
pub async fn transition_in(
    tx: &mut Transaction<'static, Any>,
    order_no: &str,
    read_version: i64,
    t: &TransitionRow,
) -> Result<Option<i64>, DbError> {
    // A payment move also claims `paid_by`, and only while it is empty: whatever the version
    // check let through, a second payment can never take an order's settlement. (Placeholders
    // in ascending order: SQLite numbers them by first appearance.)
    let written = match &t.paid_by {
        None => sqlx::query(
            "UPDATE orders SET state = $1, progress = $2, seq = seq + 1, version = version + 1, \
             paid_amount = paid_amount + $3, updated_at = $4 WHERE order_no = $5 AND version = $6 \
             RETURNING seq",
        )
        .bind(i64::from(t.state))
        .bind(i64::from(t.progress))
        .bind(t.paid.0)
        .bind(t.at)
        .bind(order_no)
        .bind(read_version),
        Some(payment_id) => sqlx::query(
            "UPDATE orders SET state = $1, progress = $2, seq = seq + 1, version = version + 1, \
             paid_amount = paid_amount + $3, updated_at = $4, paid_by = $5 \
             WHERE order_no = $6 AND version = $7 AND paid_by IS NULL RETURNING seq",
        )
        .bind(i64::from(t.state))
        .bind(i64::from(t.progress))
        .bind(t.paid.0)
        .bind(t.at)
        .bind(payment_id)
        .bind(order_no)
        .bind(read_version),
    }
    .fetch_optional(&mut **tx)
    .await?;
    let Some(written) = written else {
        return Ok(None);
    };
    let seq: i64 = written.try_get("seq")?;
    sqlx::query(
        "INSERT INTO order_events (order_no, seq, state, progress, actor, note, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(order_no)
    .bind(seq)
    .bind(i64::from(t.state))
    .bind(i64::from(t.progress))
    .bind(&t.actor)
    .bind(&t.note)
    .bind(t.at)
    .execute(&mut **tx)
    .await?;
    Ok(Some(seq))
}
