//! Issuing coupons: the template's guarded counter, the user's guarded counter and the coupon
//! row (unique on its business key) in one transaction, never read-then-insert; exchange codes
//! and their throttle.

use super::{coupon, event, CouponRepo, COUPON_COLUMNS};
use crate::db::locks;
use crate::db::points::Tx;
use crate::db::DbError;
use crate::domain::loyalty::coupon::{Coupon, CouponStatus, CouponTemplate};
use rand::Rng;
use sqlx::Row;

/// Who asked for a coupon; with its key, the business key of the issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueSource {
    /// The customer collected an offer (key: template, user and the user's count).
    Collect,
    /// Operations issued it (key: requestId and index).
    Chain,
    /// An exchange code (key: the code).
    Exchange,
    /// A member gift (key: the gift id).
    Gift,
    /// A level's privilege for a period (key: e.g. `birthday:<user>:<year>`).
    Privilege,
}

impl IssueSource {
    pub fn as_str(self) -> &'static str {
        match self {
            IssueSource::Collect => "collect",
            IssueSource::Chain => "chain",
            IssueSource::Exchange => "exchange",
            IssueSource::Gift => "gift",
            IssueSource::Privilege => "privilege",
        }
    }
}

/// What issuing did.
#[derive(Debug, Clone, PartialEq)]
pub enum Issued {
    Now(Coupon),
    /// The business key had issued this coupon before: nothing new.
    Already(Coupon),
}

impl Issued {
    pub fn coupon(&self) -> &Coupon {
        match self {
            Issued::Now(c) | Issued::Already(c) => c,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    #[error("no such coupon template")]
    NoTemplate,
    /// The total limit is reached.
    #[error("all coupons of this template are issued")]
    SoldOut,
    /// The user's limit is reached.
    #[error("the user has collected the limit")]
    UserLimit,
    /// A fixed validity window that has already closed.
    #[error("the coupon's validity has ended")]
    Ended,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<sqlx::Error> for IssueError {
    fn from(e: sqlx::Error) -> Self {
        IssueError::Db(e.into())
    }
}

/// What an exchange attempt gave.
#[derive(Debug, Clone, PartialEq)]
pub enum ExchangeOutcome {
    Issued(Coupon),
    /// Unknown, used by someone else, expired, or its template cannot issue: one answer for all.
    Invalid,
}

/// A new coupon code: "C" and 15 characters without look-alikes (0/O, 1/I/L).
pub fn new_coupon_code() -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
    let mut rng = rand::thread_rng();
    let mut code = String::with_capacity(16);
    code.push('C');
    for _ in 0..15 {
        code.push(char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]));
    }
    code
}

/// The coupon a business key issued, if any.
pub async fn by_source_in(
    tx: &mut Tx,
    source: IssueSource,
    key: &str,
) -> Result<Option<Coupon>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COUPON_COLUMNS} FROM coupons c WHERE c.source = $1 AND c.source_key = $2"
    ))
    .bind(source.as_str())
    .bind(key)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(coupon).transpose()
}

/// Issues one coupon of `template_code` to `user_id` in the caller's transaction, under the
/// business key (source, key). The counters move first, each a guarded update that a reached
/// limit turns into zero rows; then the coupon row, whose unique key turns a duplicate into
/// `Already` (the caller must then roll back: the counters moved for nothing).
/// `key: None` (collect) makes the key from the user's new count.
pub async fn issue_in(
    tx: &mut Tx,
    template_code: &str,
    user_id: i64,
    source: IssueSource,
    key: Option<&str>,
    now: i64,
) -> Result<Issued, IssueError> {
    // A write first: PostgreSQL locks the template's row (issues of one template run one at a
    // time on every node) and SQLite takes its write lock before anything is read, so no read
    // below is stale by the time this transaction writes.
    let found = sqlx::query("UPDATE coupon_templates SET issued = issued WHERE template_code = $1")
        .bind(template_code)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if found != 1 {
        return Err(IssueError::NoTemplate);
    }
    if let Some(key) = key {
        if let Some(c) = by_source_in(tx, source, key).await? {
            return Ok(Issued::Already(c));
        }
    }
    let row = sqlx::query("SELECT body FROM coupon_templates WHERE template_code = $1")
        .bind(template_code)
        .fetch_one(&mut **tx)
        .await?;
    let template: CouponTemplate =
        serde_json::from_str(&row.try_get::<String, _>("body")?).map_err(DbError::from)?;
    if !template.validity.issuable(now) {
        return Err(IssueError::Ended);
    }
    // The guarded total: a sold-out template updates no row, whatever races.
    let bumped = sqlx::query(
        "UPDATE coupon_templates SET issued = issued + 1 \
         WHERE template_code = $1 AND (total_limit IS NULL OR issued < total_limit)",
    )
    .bind(template_code)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if bumped != 1 {
        return Err(IssueError::SoldOut);
    }
    sqlx::query(
        "INSERT INTO coupon_user_counts (template_code, user_id, issued) VALUES ($1, $2, 0) \
         ON CONFLICT (template_code, user_id) DO NOTHING",
    )
    .bind(template_code)
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    // The guarded per-user count (-1: no limit), returning the new count for the collect key.
    let count = sqlx::query(
        "UPDATE coupon_user_counts SET issued = issued + 1 \
         WHERE template_code = $1 AND user_id = $2 AND ($3 < 0 OR issued < $3) RETURNING issued",
    )
    .bind(template_code)
    .bind(user_id)
    .bind(template.per_user_limit.unwrap_or(-1))
    .fetch_optional(&mut **tx)
    .await?;
    let Some(count) = count else {
        return Err(IssueError::UserLimit);
    };
    let count: i64 = count.try_get("issued")?;
    let key = match key {
        Some(k) => k.to_string(),
        None => format!("{template_code}:{user_id}:{count}"),
    };
    let (valid_from, valid_to) = template.validity.window(now);
    let code = new_coupon_code();
    let inserted = sqlx::query(
        "INSERT INTO coupons (coupon_code, template_code, user_id, status, valid_from, valid_to, \
         source, source_key, issued_at, updated_at) VALUES ($1, $2, $3, 'ISSUED', $4, $5, $6, $7, $8, $8) \
         ON CONFLICT (source, source_key) DO NOTHING RETURNING coupon_code",
    )
    .bind(&code)
    .bind(template_code)
    .bind(user_id)
    .bind(valid_from)
    .bind(valid_to)
    .bind(source.as_str())
    .bind(&key)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if inserted.is_none() {
        let existing = by_source_in(tx, source, &key).await?;
        return existing
            .map(Issued::Already)
            .ok_or_else(|| IssueError::Db(DbError::Conflict(format!("coupon key {key}"))));
    }
    event(
        tx,
        &code,
        user_id,
        None,
        CouponStatus::Issued,
        None,
        source.as_str(),
        now,
    )
    .await?;
    Ok(Issued::Now(Coupon {
        coupon_code: code,
        template_code: template_code.to_string(),
        user_id,
        status: CouponStatus::Issued,
        valid_from,
        valid_to,
        order_no: None,
        parent_code: None,
        issued_at: now,
    }))
}

impl CouponRepo {
    /// Issues one coupon in its own transaction (committed only when new).
    pub async fn issue(
        &self,
        template_code: &str,
        user_id: i64,
        source: IssueSource,
        key: Option<&str>,
        now: i64,
    ) -> Result<Issued, IssueError> {
        let mut tx = self.db.pool().begin().await.map_err(DbError::from)?;
        let issued = issue_in(&mut tx, template_code, user_id, source, key, now).await?;
        if matches!(issued, Issued::Now(_)) {
            tx.commit().await.map_err(DbError::from)?;
        }
        Ok(issued)
    }

    /// Adds an exchange code (seeding, operations); an existing code is left as it is.
    pub async fn add_exchange_code(
        &self,
        code: &str,
        template_code: &str,
        valid_to: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO coupon_exchange_codes (code, template_code, valid_to, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (code) DO NOTHING",
        )
        .bind(normalise_code(code))
        .bind(template_code)
        .bind(valid_to)
        .bind(now)
        .execute(self.db.pool())
        .await?
        .rows_affected();
        Ok(done == 1)
    }

    /// Exchanges a code for its coupon: the code is taken by a compare-and-set (unused and
    /// unexpired) and the coupon issued under the code as business key, in one transaction.
    /// The same user asking again for a code they used gets that coupon back (a retried
    /// request); anything else that fails is `Invalid`, whatever the cause.
    pub async fn exchange(
        &self,
        user_id: i64,
        code: &str,
        now: i64,
    ) -> Result<ExchangeOutcome, DbError> {
        let code = normalise_code(code);
        let mut tx = self.db.pool().begin().await?;
        let taken = sqlx::query(
            "UPDATE coupon_exchange_codes SET used_by = $2, used_at = $3 \
             WHERE code = $1 AND used_by IS NULL AND valid_to > $3 RETURNING template_code",
        )
        .bind(&code)
        .bind(user_id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(taken) = taken else {
            drop(tx);
            return self.exchanged_before(user_id, &code).await;
        };
        let template_code: String = taken.try_get("template_code")?;
        let issued = match issue_in(
            &mut tx,
            &template_code,
            user_id,
            IssueSource::Exchange,
            Some(&code),
            now,
        )
        .await
        {
            Ok(i) => i,
            Err(IssueError::Db(e)) => return Err(e),
            Err(_) => return Ok(ExchangeOutcome::Invalid),
        };
        sqlx::query("UPDATE coupon_exchange_codes SET coupon_code = $2 WHERE code = $1")
            .bind(&code)
            .bind(&issued.coupon().coupon_code)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ExchangeOutcome::Issued(issued.coupon().clone()))
    }

    async fn exchanged_before(&self, user_id: i64, code: &str) -> Result<ExchangeOutcome, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {COUPON_COLUMNS} FROM coupon_exchange_codes x \
             JOIN coupons c ON c.coupon_code = x.coupon_code \
             WHERE x.code = $1 AND x.used_by = $2"
        ))
        .bind(code)
        .bind(user_id)
        .fetch_optional(self.db.pool())
        .await?;
        Ok(match row {
            Some(r) => ExchangeOutcome::Issued(coupon(&r)?),
            None => ExchangeOutcome::Invalid,
        })
    }

    /// Records an exchange attempt unless this user or this client address already made
    /// `limit` attempts within `window_ms`: then `Err(retry_after_ms)` and nothing recorded.
    /// Counted under per-user and per-address locks in the database, so the limit holds across
    /// nodes and concurrent requests.
    pub async fn record_exchange_attempt(
        &self,
        user_id: i64,
        client_ip: &str,
        limit: i64,
        window_ms: i64,
        now: i64,
    ) -> Result<Result<(), i64>, DbError> {
        let mut tx = self.db.pool().begin().await?;
        // Always user first, then address: one order for every transaction, no deadlock.
        locks::lock_key(&mut tx, &format!("coupon-exchange:user:{user_id}")).await?;
        locks::lock_key(&mut tx, &format!("coupon-exchange:ip:{client_ip}")).await?;
        let since = now - window_ms;
        let by_user = sqlx::query(
            "SELECT at FROM coupon_exchange_attempts WHERE user_id = $1 AND at > $2 \
             ORDER BY at DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(since)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        let by_address = sqlx::query(
            "SELECT at FROM coupon_exchange_attempts WHERE client_ip = $1 AND at > $2 \
             ORDER BY at DESC LIMIT $3",
        )
        .bind(client_ip)
        .bind(since)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        let mut retry_after: Option<i64> = None;
        for rows in [by_user, by_address] {
            if rows.len() as i64 >= limit {
                // The oldest of the last `limit` attempts leaving the window frees a slot.
                let oldest: i64 = match rows.last() {
                    Some(r) => r.try_get("at")?,
                    None => now,
                };
                let wait = (oldest + window_ms - now).max(1);
                retry_after = Some(retry_after.map_or(wait, |w| w.max(wait)));
            }
        }
        if let Some(wait) = retry_after {
            return Ok(Err(wait));
        }
        sqlx::query(
            "INSERT INTO coupon_exchange_attempts (user_id, client_ip, at) VALUES ($1, $2, $3)",
        )
        .bind(user_id)
        .bind(client_ip)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Forgets attempts older than `before` (housekeeping).
    pub async fn prune_exchange_attempts(&self, before: i64) -> Result<u64, DbError> {
        Ok(
            sqlx::query("DELETE FROM coupon_exchange_attempts WHERE at < $1")
                .bind(before)
                .execute(self.db.pool())
                .await?
                .rows_affected(),
        )
    }
}

/// Codes are compared upper-case without surrounding blanks.
pub fn normalise_code(code: &str) -> String {
    code.trim().to_uppercase()
}
