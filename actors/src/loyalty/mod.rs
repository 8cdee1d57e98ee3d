//! The loyalty programme (issue 23): what happens to points and levels when an order completes,
//! is paid, closes unpaid or is refunded, and the jobs (mature, expire, downgrade, sweep).
//!
//! Every points move is a transaction of [`PointsRepo`] keyed by its business key, so calling
//! any of these twice, from two nodes, from the order's hook and from the sweep at once, moves
//! points once. See docs/loyalty.md.

pub mod privileges;

use crate::clock::Clock;
use crate::db::coupons::CouponRepo;
use crate::db::gifts::GiftRepo;
use crate::db::members::{GiftGrant, LevelRow, MemberRepo, MemberRow};
use crate::db::orders::OrderRepo;
use crate::db::outbox::backoff_ms;
use crate::db::points::{Applied, PointsError, PointsRepo, ReconcileReport};
use crate::db::reversals::{ReversalRepo, ReversalReport};
use crate::db::{Db, DbError};
use crate::domain::loyalty::{
    level_for_spend, lot_expiry, points_earned, LevelRule, DEFAULT_PENDING_MS, GIFT_CLAIM_MS,
    SPEND_WINDOW_MS,
};
use crate::domain::money::Fen;
use crate::domain::ordering::order_machine::state as s;

/// The settings of the programme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoyaltySettings {
    /// The refund window: earned points stay pending this long after completion.
    pub points_pending_ms: i64,
}

impl Default for LoyaltySettings {
    fn default() -> Self {
        LoyaltySettings {
            points_pending_ms: DEFAULT_PENDING_MS,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    #[error("the agreement version is not the current one")]
    WrongAgreement { current: Option<String> },
    #[error("no levels are configured")]
    NoLevels,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// The points ledger checked against itself, and the ended orders against their ledgers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LedgerReconcile {
    pub points: ReconcileReport,
    pub reversals: ReversalReport,
}

/// Orders that ended this recently are still on their way through the hooks and outboxes:
/// the reconcile looks at those that ended before.
pub const RECONCILE_SETTLE_MS: i64 = 10 * 60_000;

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub credited: usize,
    pub matured: usize,
    pub expired: usize,
    pub holds_settled: usize,
    pub gifts_delivered: usize,
    pub refunds_reversed: usize,
}

#[derive(Clone, Debug)]
pub struct Loyalty {
    db: Db,
    clock: Clock,
    settings: LoyaltySettings,
}

impl Loyalty {
    pub fn new(db: Db, clock: Clock, settings: LoyaltySettings) -> Loyalty {
        Loyalty {
            db,
            clock,
            settings,
        }
    }

    pub fn points(&self) -> PointsRepo {
        PointsRepo::new(self.db.clone())
    }

    pub fn members(&self) -> MemberRepo {
        MemberRepo::new(self.db.clone())
    }

    pub fn settings(&self) -> LoyaltySettings {
        self.settings
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Qualifying spend in the rolling window ending now.
    pub async fn qualifying_spend(&self, user_id: i64) -> Result<Fen, DbError> {
        let now = self.clock.now_ms();
        self.members()
            .spend_since(user_id, now - SPEND_WINDOW_MS)
            .await
    }

    /// Joins the programme with the current agreement. Ok(false): already a member (nothing
    /// changes).
    pub async fn join(&self, user_id: i64, agreement_version: &str) -> Result<bool, JoinError> {
        let members = self.members();
        if members.member(user_id).await?.is_some() {
            return Ok(false);
        }
        let current = members.current_agreement().await?.map(|a| a.version);
        if current.as_deref() != Some(agreement_version) {
            return Err(JoinError::WrongAgreement { current });
        }
        let levels = rules(&members.levels().await?);
        let spend = self.qualifying_spend(user_id).await?;
        let level = level_for_spend(spend, &levels).ok_or(JoinError::NoLevels)?;
        let now = self.clock.now_ms();
        let rows = members.levels().await?;
        let gift = self.gift_for(&rows, level.level, "welcome", None, now);
        Ok(members
            .join(
                user_id,
                level.level,
                agreement_version,
                spend,
                gift.as_ref(),
                now,
            )
            .await?)
    }

    /// The gift of reaching `level` now: its options, this cycle (the China calendar year),
    /// claimable for 90 days; `order_no`: the order whose completion reached it.
    fn gift_for(
        &self,
        levels: &[LevelRow],
        level: i64,
        kind: &'static str,
        order_no: Option<&str>,
        now: i64,
    ) -> Option<GiftGrant> {
        use chrono::Datelike;
        let options = levels
            .iter()
            .find(|l| l.level == level)?
            .gift_options
            .clone();
        Some(GiftGrant {
            kind,
            cycle: crate::domain::stores::hours::china_time(now)
                .year()
                .to_string(),
            options,
            expires_at: now + GIFT_CLAIM_MS,
            order_no: order_no.map(str::to_string),
        })
    }

    pub fn gifts(&self) -> GiftRepo {
        GiftRepo::new(self.db.clone())
    }

    /// Delivers claimed gifts from the outbox; a failure waits longer (1 s, 2 s … 1 h).
    pub async fn deliver_gifts(&self) -> Result<usize, DbError> {
        let now = self.clock.now_ms();
        let gifts = self.gifts();
        let mut n = 0;
        for (gift_id, user_id, option, attempts) in gifts.due(now, 200).await? {
            match gifts
                .deliver(&gift_id, user_id, &option, lot_expiry(now), now)
                .await
            {
                Ok(Applied::Now) => n += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, gift_id, "gift delivery failed; retried later");
                    gifts
                        .failed(&gift_id, &e.to_string(), now + backoff_ms(attempts))
                        .await?;
                }
            }
        }
        Ok(n)
    }

    /// An order moved to `state` (the order session's hook; the sweep is its backstop).
    pub async fn order_moved(&self, order_no: &str, state: u8) {
        let result = match state {
            s::COMPLETED => self.order_completed(order_no).await.map(|_| ()),
            s::PAID => self
                .points()
                .capture(order_no, self.clock.now_ms())
                .await
                .map(|_| ()),
            s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE | s::EXPIRED_UNPAID => self
                .points()
                .give_back(order_no, self.clock.now_ms())
                .await
                .map(|_| ()),
            _ => Ok(()),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, order_no, "loyalty: left for the sweep");
        }
    }

    /// A completed order: its qualifying spend, its held points captured (cash on delivery is
    /// paid now), its earned points credited pending (a member's, at their level's rate, on
    /// the amount actually paid), then the member's level checked for an upgrade.
    pub async fn order_completed(&self, order_no: &str) -> Result<Applied, DbError> {
        let Some(order) = OrderRepo::new(self.db.clone()).find(order_no).await? else {
            return Ok(Applied::Nothing);
        };
        if order.state != s::COMPLETED {
            return Ok(Applied::Nothing);
        }
        let now = self.clock.now_ms();
        let paid = if order.paid_amount.0 > 0 {
            order.paid_amount
        } else if order.payment_type == "offline" {
            order.order_amount
        } else {
            Fen::ZERO
        };
        let points = self.points();
        points.capture(order_no, now).await?;
        let members = self.members();
        members
            .record_spend(order.user_id, "order", order_no, paid, order.updated_at)
            .await?;
        let member = members.member(order.user_id).await?;
        let levels = members.levels().await?;
        let earned = match &member {
            Some(m) => levels
                .iter()
                .find(|l| l.level == m.level)
                .map(|l| points_earned(paid, l.points_per_yuan))
                .unwrap_or(0),
            None => 0,
        };
        let matures_at = now + self.settings.points_pending_ms;
        let applied = points
            .credit_pending(
                order.user_id,
                order_no,
                earned,
                matures_at,
                lot_expiry(matures_at),
                now,
            )
            .await?;
        if let Some(m) = member {
            self.review_member(&m, &levels, Review::UpOnly(order_no))
                .await?;
        }
        Ok(applied)
    }

    /// Moves a member to the level their spend in the window reaches now, recorded with its
    /// reason; an upgrade grants that level's gift (naming the order that reached it, if one
    /// did). True when the level changed.
    async fn review_member(
        &self,
        m: &MemberRow,
        levels: &[LevelRow],
        review: Review<'_>,
    ) -> Result<bool, DbError> {
        let spend = self.qualifying_spend(m.user_id).await?;
        let Some(due) = level_for_spend(spend, &rules(levels)) else {
            return Ok(false);
        };
        let (reason, order_no) = match (due.level.cmp(&m.level), review) {
            (std::cmp::Ordering::Greater, Review::UpOnly(order_no)) => ("upgrade", Some(order_no)),
            (std::cmp::Ordering::Greater, _) => ("upgrade", None),
            (std::cmp::Ordering::Less, Review::Refund) => ("refund", None),
            (std::cmp::Ordering::Less, Review::Both) => ("downgrade", None),
            _ => return Ok(false),
        };
        let now = self.clock.now_ms();
        let gift = (reason == "upgrade")
            .then(|| self.gift_for(levels, due.level, "upgrade", order_no, now))
            .flatten();
        self.members()
            .change_level(
                m.user_id,
                m.level,
                due.level,
                reason,
                spend,
                gift.as_ref(),
                now,
            )
            .await
    }

    /// The refund of a completed order gives back everything its completion unlocked: its
    /// qualifying spend taken back, its points reversed (earned and used), the gifts its
    /// spend unlocked revoked, and the member's level set at once to what their spend reaches
    /// now (not at the hourly review).
    pub async fn order_refunded(&self, order_no: &str) -> Result<Applied, DbError> {
        let Some(order) = OrderRepo::new(self.db.clone()).find(order_no).await? else {
            return Ok(Applied::Nothing);
        };
        let now = self.clock.now_ms();
        let paid = if order.paid_amount.0 > 0 {
            order.paid_amount
        } else {
            order.order_amount
        };
        self.members()
            .record_spend(order.user_id, "refund", order_no, Fen(-paid.0), now)
            .await?;
        let reversed = self
            .points()
            .reverse_order(order.user_id, order_no, lot_expiry(now), now)
            .await?;
        self.gifts().revoke_for_order(order_no, now).await?;
        if let Some(m) = self.members().member(order.user_id).await? {
            let levels = self.members().levels().await?;
            self.review_member(&m, &levels, Review::Refund).await?;
        }
        Ok(reversed)
    }

    /// The reconcile: every balance against its ledger, and every order that ended at least
    /// [`RECONCILE_SETTLE_MS`] ago against what its ledgers hold.
    pub async fn reconcile(&self) -> Result<LedgerReconcile, DbError> {
        let settled_before = self.clock.now_ms() - RECONCILE_SETTLE_MS;
        Ok(LedgerReconcile {
            points: self.points().reconcile().await?,
            reversals: ReversalRepo::new(self.db.clone())
                .reconcile(settled_before)
                .await?,
        })
    }

    /// Matures one member's due points now (when they read their points), through the same
    /// compare-and-set as the job.
    pub async fn mature_for(&self, user_id: i64) -> Result<usize, DbError> {
        let now = self.clock.now_ms();
        let points = self.points();
        let mut n = 0;
        for lot in points.due_lots_of(user_id, now).await? {
            if points.mature(lot.id, lot.user_id, now).await? == Applied::Now {
                n += 1;
            }
        }
        Ok(n)
    }

    /// A customer-service adjustment, idempotent by `request_id`.
    pub async fn adjust(
        &self,
        user_id: i64,
        request_id: &str,
        points: i64,
        reason: &str,
    ) -> Result<Applied, PointsError> {
        let now = self.clock.now_ms();
        let repo = self.points();
        let mut tx = repo.begin_for(user_id, now).await?;
        let done = if points >= 0 {
            PointsRepo::credit_available_in(
                &mut tx,
                user_id,
                "adjusted",
                "adjustment",
                request_id,
                "adjust",
                points,
                lot_expiry(now),
                Some(reason),
                now,
            )
            .await?
        } else {
            PointsRepo::debit_available_in(
                &mut tx,
                user_id,
                "adjusted",
                "adjustment",
                request_id,
                "adjust",
                -points,
                Some(reason),
                now,
            )
            .await?
        };
        if done == Applied::Now {
            tx.commit().await.map_err(DbError::from)?;
        }
        Ok(done)
    }

    /// The periodic pass: completed orders not credited yet, holds of orders that were paid or
    /// closed (a captured hold of an order that closed uncompleted is given back), due pending
    /// points, expired lots. Each item is its own transaction; a failure
    /// is logged and left for the next pass.
    pub async fn sweep(&self) -> Result<Swept, DbError> {
        let now = self.clock.now_ms();
        let points = self.points();
        let mut swept = Swept::default();
        for order_no in points
            .uncredited_completed(now - 30 * 24 * 3_600_000, 500)
            .await?
        {
            match self.order_completed(&order_no).await {
                Ok(Applied::Now) => swept.credited += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, order_no, "loyalty credit left for the next pass")
                }
            }
        }
        for (order_no, state) in points.open_holds(500).await? {
            let r = match u8::try_from(state).unwrap_or(0) {
                s::PAID | s::ACCEPTED | s::COMPLETED => points.capture(&order_no, now).await,
                s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE | s::EXPIRED_UNPAID => {
                    points.give_back(&order_no, now).await
                }
                _ => Ok(Applied::Nothing),
            };
            match r {
                Ok(Applied::Now) => swept.holds_settled += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, order_no, "points hold left for the next pass")
                }
            }
        }
        // The chain refunded a completed order and its reversal was lost on the way (the
        // refund's hook failed): reversed now, and its coupons put on the give-back outbox.
        for order_no in ReversalRepo::new(self.db.clone())
            .unreversed_refunds(200)
            .await?
        {
            let reversed = self.order_refunded(&order_no).await;
            let queued = CouponRepo::new(self.db.clone())
                .enqueue_return(&order_no, "refund", now)
                .await;
            match (reversed, queued) {
                (Ok(Applied::Now), Ok(())) => swept.refunds_reversed += 1,
                (Ok(_), Ok(())) => {}
                (Err(e), _) | (_, Err(e)) => {
                    tracing::warn!(error = %e, order_no, "refund reversal left for the next pass")
                }
            }
        }
        for lot in points.due_lots(now, 1000).await? {
            match points.mature(lot.id, lot.user_id, now).await {
                Ok(Applied::Now) => swept.matured += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, lot = lot.id, "maturing left for the next pass")
                }
            }
        }
        for lot in points.expired_lots(now, 1000).await? {
            match points.expire_lot(lot.id, lot.user_id, now).await {
                Ok(Applied::Now) => swept.expired += 1,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, lot = lot.id, "expiry left for the next pass"),
            }
        }
        swept.gifts_delivered = self.deliver_gifts().await?;
        Ok(swept)
    }

    /// The level job: every member whose spend in the window no longer reaches their level
    /// goes down to the level it reaches (recorded as a downgrade); one that reaches higher
    /// goes up.
    pub async fn review_levels(&self) -> Result<usize, DbError> {
        let members = self.members();
        let levels = members.levels().await?;
        let mut changed = 0;
        for m in members.members().await? {
            if self.review_member(&m, &levels, Review::Both).await? {
                changed += 1;
            }
        }
        Ok(changed)
    }
}

/// Which way a review may move a member.
#[derive(Debug, Clone, Copy)]
enum Review<'a> {
    /// On completion of this order: up only (lowering is the job's or a refund's).
    UpOnly(&'a str),
    /// After a refund: down only, recorded as the refund's.
    Refund,
    /// The periodic job: either way.
    Both,
}

pub fn rules(levels: &[LevelRow]) -> Vec<LevelRule> {
    levels.iter().map(LevelRow::rule).collect()
}
