//! Coupons (issue 24): collecting, exchanging, transferring, issuing by operations, and what
//! happens to an order's coupons as the order moves (used at payment, given back when it
//! closes or is refunded), plus the sweep that backs every hook up.
//!
//! Every move is a compare-and-set of [`CouponRepo`] (with its event), so calling any of these
//! twice, from two nodes, from the order's hook and from the sweep at once, moves a coupon
//! once. See docs/coupons.md.

use crate::clock::Clock;
/// The outbox's wait after a failure: 1 s, doubling, at most an hour.
pub use crate::db::outbox::backoff_ms;

use crate::db::coupons::{
    issue_in, CouponRepo, ExchangeOutcome, IssueError, IssueSource, Issued, ReturnOutcome,
    TransferError,
};
use crate::db::users::UserRepo;
use crate::db::{Db, DbError};
use crate::domain::accounts::phone::Phone;
use crate::domain::loyalty::coupon::Coupon;
use crate::domain::ordering::order_machine::state as s;

/// Exchange attempts allowed per user and per client address in [`EXCHANGE_WINDOW_MS`].
pub const EXCHANGE_LIMIT: i64 = 10;
pub const EXCHANGE_WINDOW_MS: i64 = 60_000;
/// Codes shorter than this are refused without a lookup (and counted as an attempt).
pub const EXCHANGE_CODE_MIN: usize = 12;
/// No code is longer; longer text is refused without a lookup.
pub const EXCHANGE_CODE_MAX: usize = 64;
/// The most coupons one operations request may issue.
pub const CHAIN_ISSUE_MAX: i64 = 100;

#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    /// No such template, or not offered for collecting.
    #[error("no such offer")]
    NotFound,
    #[error("sold out")]
    SoldOut,
    #[error("already collected")]
    UserLimit,
    #[error("the offer has ended")]
    Ended,
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(Debug, thiserror::Error)]
pub enum ExchangeError {
    /// One answer for every failure: unknown, used, expired, too short.
    #[error("invalid code")]
    Invalid,
    #[error("too many attempts")]
    Throttled { retry_after_ms: i64 },
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(Debug, thiserror::Error)]
pub enum GiveError {
    #[error("no account uses this phone number")]
    NoAccount,
    #[error(transparent)]
    Transfer(#[from] TransferError),
    #[error(transparent)]
    Issue(#[from] IssueError),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Orders put on the give-back outbox by the sweep (their hook did not run).
    pub enqueued: usize,
    pub returned: usize,
    pub used: usize,
    pub expired: usize,
}

#[derive(Clone, Debug)]
pub struct Coupons {
    db: Db,
    clock: Clock,
}

impl Coupons {
    pub fn new(db: Db, clock: Clock) -> Coupons {
        Coupons { db, clock }
    }

    pub fn repo(&self) -> CouponRepo {
        CouponRepo::new(self.db.clone())
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Collects one coupon of a collectable template (collectCoupon/{ruleId}).
    pub async fn collect(&self, user_id: i64, template_code: &str) -> Result<Coupon, CollectError> {
        let repo = self.repo();
        let Some(t) = repo.template(template_code).await? else {
            return Err(CollectError::NotFound);
        };
        if !t.template.collectable {
            return Err(CollectError::NotFound);
        }
        let now = self.clock.now_ms();
        match repo
            .issue(template_code, user_id, IssueSource::Collect, None, now)
            .await
        {
            Ok(issued) => Ok(issued.coupon().clone()),
            Err(IssueError::NoTemplate) => Err(CollectError::NotFound),
            Err(IssueError::SoldOut) => Err(CollectError::SoldOut),
            Err(IssueError::UserLimit) => Err(CollectError::UserLimit),
            Err(IssueError::Ended) => Err(CollectError::Ended),
            Err(IssueError::Db(e)) => Err(e.into()),
        }
    }

    /// Exchanges a code: the attempt counted first (10 a minute per user and per address,
    /// held in the database so it holds across nodes), then the code taken.
    pub async fn exchange(
        &self,
        user_id: i64,
        client_ip: &str,
        code: &str,
    ) -> Result<Coupon, ExchangeError> {
        let repo = self.repo();
        let now = self.clock.now_ms();
        if let Err(retry_after_ms) = repo
            .record_exchange_attempt(user_id, client_ip, EXCHANGE_LIMIT, EXCHANGE_WINDOW_MS, now)
            .await?
        {
            return Err(ExchangeError::Throttled { retry_after_ms });
        }
        let len = code.trim().chars().count();
        if !(EXCHANGE_CODE_MIN..=EXCHANGE_CODE_MAX).contains(&len) {
            return Err(ExchangeError::Invalid);
        }
        match repo.exchange(user_id, code, now).await? {
            ExchangeOutcome::Issued(c) => Ok(c),
            ExchangeOutcome::Invalid => Err(ExchangeError::Invalid),
        }
    }

    /// Transfers a coupon to the account of `phone`: a new coupon for the recipient linked to
    /// the original, which becomes TRANSFERRED.
    pub async fn transfer(
        &self,
        user_id: i64,
        coupon_code: &str,
        phone: &Phone,
    ) -> Result<Coupon, GiveError> {
        let Some(to) = UserRepo::new(self.db.clone()).find_by_phone(phone).await? else {
            return Err(GiveError::NoAccount);
        };
        let repo = self.repo();
        let original = repo
            .get(coupon_code)
            .await?
            .filter(|c| c.user_id == user_id)
            .ok_or(TransferError::NotFound)?;
        let transferable = repo
            .template(&original.template_code)
            .await?
            .is_some_and(|t| t.template.transferable);
        let now = self.clock.now_ms();
        Ok(repo
            .transfer(coupon_code, user_id, to.id, transferable, now)
            .await?)
    }

    /// Operations issue `count` coupons to the account of `phone`, all or none, idempotent by
    /// `request_id` (each coupon's key is requestId:index). Answers the coupons and whether
    /// they were issued now.
    pub async fn chain_issue(
        &self,
        template_code: &str,
        phone: &Phone,
        count: i64,
        request_id: &str,
    ) -> Result<(Vec<Coupon>, bool), GiveError> {
        let Some(user) = UserRepo::new(self.db.clone()).find_by_phone(phone).await? else {
            return Err(GiveError::NoAccount);
        };
        let now = self.clock.now_ms();
        let mut tx = self.db.pool().begin().await.map_err(DbError::from)?;
        let mut coupons = Vec::new();
        let mut fresh = false;
        for i in 0..count.clamp(0, CHAIN_ISSUE_MAX) {
            let key = format!("{request_id}:{i}");
            match issue_in(
                &mut tx,
                template_code,
                user.id,
                IssueSource::Chain,
                Some(&key),
                now,
            )
            .await?
            {
                Issued::Now(c) => {
                    fresh = true;
                    coupons.push(c);
                }
                Issued::Already(c) => coupons.push(c),
            }
        }
        if fresh {
            tx.commit().await.map_err(DbError::from)?;
        }
        Ok((coupons, fresh))
    }

    /// An order moved to `state` (the order session's hook; the sweep is its backstop).
    pub async fn order_moved(&self, order_no: &str, state: u8) {
        let now = self.clock.now_ms();
        let result = match state {
            s::PAID | s::COMPLETED => self.repo().use_for_order(order_no, now).await.map(|_| ()),
            s::CANCELLED_BY_CUSTOMER => self.give_back(order_no, "cancelled").await.map(|_| ()),
            s::REFUSED_BY_STORE => self.give_back(order_no, "refused").await.map(|_| ()),
            s::EXPIRED_UNPAID => self.give_back(order_no, "expired_unpaid").await.map(|_| ()),
            _ => Ok(()),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, order_no, "coupons: left for the sweep");
        }
    }

    /// Gives an order's coupons back now through the outbox: the order is put on it (once),
    /// then its step is run. A failure is recorded on the row (retried with backoff by the
    /// sweep) and answered, so the customer who asked hears 退券失败.
    pub async fn give_back(&self, order_no: &str, reason: &str) -> Result<ReturnOutcome, DbError> {
        let repo = self.repo();
        let now = self.clock.now_ms();
        repo.enqueue_return(order_no, reason, now).await?;
        match repo.process_return(order_no, now).await {
            Ok(out) => Ok(out),
            Err(e) => {
                let _ = repo
                    .return_failed(order_no, &e.to_string(), now + backoff_ms(0))
                    .await;
                Err(e)
            }
        }
    }

    /// The periodic pass: due outbox rows (backoff 1 s, 2 s … 1 h), LOCKED coupons whose order
    /// was paid or closed without the hook running, and expiry of coupons past their window.
    pub async fn sweep(&self) -> Result<Swept, DbError> {
        let repo = self.repo();
        let now = self.clock.now_ms();
        let mut swept = Swept::default();
        for (order_no, state, payment_type) in repo.stale_locks(500).await? {
            let state = u8::try_from(state).unwrap_or(0);
            let r = match state {
                s::PAID | s::COMPLETED => repo.use_for_order(&order_no, now).await.map(|n| {
                    swept.used += n;
                }),
                // An accepted online order was paid first; cash on delivery pays at the door.
                s::ACCEPTED if payment_type == "online" => repo
                    .use_for_order(&order_no, now)
                    .await
                    .map(|n| swept.used += n),
                s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE | s::EXPIRED_UNPAID => repo
                    .enqueue_return(&order_no, "sweep", now)
                    .await
                    .map(|_| swept.enqueued += 1),
                _ => Ok(()),
            };
            if let Err(e) = r {
                tracing::warn!(error = %e, order_no, "coupon lock left for the next pass");
            }
        }
        for due in repo.due_returns(now, 500).await? {
            match repo.process_return(&due.order_no, now).await {
                Ok(out) => swept.returned += out.returned + out.expired,
                Err(e) => {
                    tracing::warn!(error = %e, order_no = due.order_no, "coupon give-back retried later");
                    repo.return_failed(
                        &due.order_no,
                        &e.to_string(),
                        now + backoff_ms(due.attempts + 1),
                    )
                    .await?;
                }
            }
        }
        swept.expired = repo.expire_due(now, 1000).await?;
        Ok(swept)
    }
}
