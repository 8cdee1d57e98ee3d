//! One payment attempt's session: an actix actor that runs the attempt's notify, query, expiry,
//! close and refund one at a time (an atomic response holds the mailbox until the work's
//! writes are done), and keeps the attempt's timer. It holds no copy of the row: every turn
//! reads it afresh, so a change made by another node (or a test restoring the database) is
//! seen, and the row's version still guards every write.
//!
//! The timer is armed when the session starts (on create, on first use, at start-up) for the
//! attempt's `expires_at` if the attempt is open and the deadline is still ahead. When it
//! fires ([`Due`]) the attempt is expired if it is still open and due by the service's clock,
//! re-armed for the rest if the clock says it is early, and re-armed [`RETRY_MS`] later if
//! the provider could not answer. A turn that leaves the attempt settled or closed cancels the
//! timer; the session then stops after its idle time. Turns never arm a timer themselves: an
//! attempt found past its deadline by a turn is the sweep's (or the turn's own expiry's), so
//! what happens is decided by messages, never by a timer racing them from behind.

use super::core::PaymentCore;
use super::expiry::{open, CloseReason};
use super::{Outcome, PayFailure, Settled};
use crate::db::payments::PaymentRow;
use crate::domain::money::Fen;
use crate::domain::payments::state::PaymentState;
use crate::providers::payment::NotifyStatus;
use actix::prelude::*;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// After a timer's expiry found the provider unreachable, it asks again this much later (the
/// sweep's period: whichever comes first does it, the other finds it done).
pub const RETRY_MS: i64 = 15_000;

pub struct PaymentSession {
    payment_id: String,
    core: Arc<PaymentCore>,
    idle: Duration,
    last_used: Instant,
    timer: Option<Timer>,
    /// (state, expires_at) when whoever started the session had just written the row.
    known: Option<(PaymentState, i64)>,
}

struct Timer {
    deadline: i64,
    handle: SpawnHandle,
}

impl PaymentSession {
    pub(super) fn new(payment_id: String, core: Arc<PaymentCore>, idle: Duration) -> Self {
        PaymentSession {
            payment_id,
            core,
            idle,
            last_used: Instant::now(),
            timer: None,
            known: None,
        }
    }

    /// A session for an attempt just written: its state and deadline are known, so it arms
    /// its timer without reading the row back.
    pub(super) fn knowing(mut self, state: PaymentState, expires_at: i64) -> Self {
        self.known = Some((state, expires_at));
        self
    }

    /// Fires [`Due`] at `deadline` (epoch ms by the service's clock), replacing any timer.
    fn arm(&mut self, ctx: &mut Context<Self>, deadline: i64) {
        self.disarm(ctx);
        let delay = delay_until(deadline, self.core.clock.now_ms());
        let handle = ctx.run_later(delay, |_, ctx| ctx.notify(Due));
        self.timer = Some(Timer { deadline, handle });
    }

    fn disarm(&mut self, ctx: &mut Context<Self>) {
        if let Some(timer) = self.timer.take() {
            ctx.cancel_future(timer.handle);
        }
    }

    /// One turn: `work`, then, while a timer is armed, the row read back: a row no longer
    /// open needs no timer.
    fn turn<T: 'static>(
        &mut self,
        work: impl Future<Output = Result<T, PayFailure>> + 'static,
    ) -> AtomicResponse<Self, Result<T, PayFailure>> {
        self.turn_knowing(work, |_| false)
    }

    /// [`turn`](Self::turn) for work whose answer can tell that the row is no longer open
    /// (`closed` answers true): then it is not read back.
    fn turn_knowing<T: 'static>(
        &mut self,
        work: impl Future<Output = Result<T, PayFailure>> + 'static,
        closed: impl FnOnce(&Result<T, PayFailure>) -> bool + 'static,
    ) -> AtomicResponse<Self, Result<T, PayFailure>> {
        self.last_used = Instant::now();
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        let timed = self.timer.is_some();
        AtomicResponse::new(Box::pin(
            async move {
                let answer = work.await;
                if !timed {
                    return (answer, true); // no timer to disarm
                }
                if closed(&answer) {
                    return (answer, false);
                }
                let still_open = match core.repo.get(&id).await {
                    Ok(Some(p)) => open(p.state),
                    Ok(None) => false,
                    // Unknown: keep the timer, it reads the row again when it fires.
                    Err(_) => true,
                };
                (answer, still_open)
            }
            .into_actor(self)
            .map(|(answer, still_open), session, ctx| {
                if !still_open {
                    session.disarm(ctx);
                }
                answer
            }),
        ))
    }

    /// The row, fresh; a missing one is [`PayFailure::NotFound`].
    fn row(core: &PaymentCore, id: &str) -> impl Future<Output = Result<PaymentRow, PayFailure>> {
        let (repo, id) = (core.repo.clone(), id.to_string());
        async move { repo.get(&id).await?.ok_or(PayFailure::NotFound) }
    }
}

impl Actor for PaymentSession {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        let check = (self.idle / 5).max(Duration::from_millis(10));
        ctx.run_interval(check, |session, ctx| {
            if session.timer.is_none() && session.last_used.elapsed() >= session.idle {
                ctx.stop();
            }
        });
        if let Some((state, expires_at)) = self.known.take() {
            let now = self.core.clock.now_ms();
            if let Some(deadline) = arm_at_start(state, expires_at, now) {
                self.arm(ctx, deadline);
            }
            return;
        }
        // Waited for: the first message finds the timer armed.
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        ctx.wait(
            async move { core.repo.get(&id).await }
                .into_actor(self)
                .map(|row, session, ctx| match row {
                    Ok(Some(p)) => {
                        let now = session.core.clock.now_ms();
                        if let Some(deadline) = arm_at_start(p.state, p.expires_at, now) {
                            session.arm(ctx, deadline);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, payment = %session.payment_id,
                            "payment session could not read its attempt; the sweep will expire it")
                    }
                }),
        );
    }
}

/// The provider's notify, its signature verified: settled only as the provider's query confirms.
#[derive(Message, Clone)]
#[rtype(result = "Result<Settled, PayFailure>")]
pub struct Notify {
    pub trade_no: String,
    pub status: NotifyStatus,
    pub amount: Fen,
}

/// The customer's status query: a pending attempt is asked at the provider, a due one expired.
#[derive(Message, Clone)]
#[rtype(result = "Result<PaymentRow, PayFailure>")]
pub struct Query;

/// The provider says paid (reconciliation's missed notify).
#[derive(Message, Clone)]
#[rtype(result = "Result<Settled, PayFailure>")]
pub struct SettlePaid {
    pub trade_no: String,
    pub amount: Fen,
}

/// The sweep's expiry: runs if the attempt is open and due; true when it settled or closed it.
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, PayFailure>")]
pub struct Expire;

/// The order was cancelled or refused: close the attempt if still open (asked first).
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, PayFailure>")]
pub struct Close(pub CloseReason);

/// Keep or refund a paid attempt, finish an owed refund.
#[derive(Message, Clone)]
#[rtype(result = "Result<Outcome, PayFailure>")]
pub struct Decide;

/// Refund the attempt that settled a completed order, in full (the chain's refund).
#[derive(Message, Clone)]
#[rtype(result = "Result<Outcome, PayFailure>")]
pub struct RefundKept;

/// The session's own timer fired (or start-up found the attempt overdue): expire if due.
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, PayFailure>")]
pub struct Due;

/// The deadline the timer is armed for, if any.
#[derive(Message, Clone)]
#[rtype(result = "Result<Option<i64>, PayFailure>")]
pub struct Deadline;

impl Handler<Notify> for PaymentSession {
    type Result = AtomicResponse<Self, Result<Settled, PayFailure>>;

    fn handle(&mut self, msg: Notify, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        let paid = msg.status == NotifyStatus::Paid;
        self.turn_knowing(
            async move {
                core.on_notify(&id, &msg.trade_no, msg.status, msg.amount)
                    .await
            },
            move |answer| paid && settled_paid(answer),
        )
    }
}

impl Handler<Query> for PaymentSession {
    type Result = AtomicResponse<Self, Result<PaymentRow, PayFailure>>;

    fn handle(&mut self, _: Query, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn(async move { core.refresh(&id).await })
    }
}

impl Handler<SettlePaid> for PaymentSession {
    type Result = AtomicResponse<Self, Result<Settled, PayFailure>>;

    fn handle(&mut self, msg: SettlePaid, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn_knowing(
            async move { core.settle_paid(&id, &msg.trade_no, msg.amount).await },
            settled_paid,
        )
    }
}

impl Handler<Expire> for PaymentSession {
    type Result = AtomicResponse<Self, Result<bool, PayFailure>>;

    fn handle(&mut self, _: Expire, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn(async move {
            let p = Self::row(&core, &id).await?;
            if !open(p.state) || p.expires_at > core.clock.now_ms() {
                return Ok(false);
            }
            core.expire_one(&p).await
        })
    }
}

impl Handler<Close> for PaymentSession {
    type Result = AtomicResponse<Self, Result<bool, PayFailure>>;

    fn handle(&mut self, msg: Close, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn(async move {
            let p = Self::row(&core, &id).await?;
            if !open(p.state) {
                return Ok(false);
            }
            core.close_one(&p, msg.0).await
        })
    }
}

impl Handler<Decide> for PaymentSession {
    type Result = AtomicResponse<Self, Result<Outcome, PayFailure>>;

    fn handle(&mut self, _: Decide, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn(async move {
            let p = Self::row(&core, &id).await?;
            core.decide(&p).await
        })
    }
}

impl Handler<RefundKept> for PaymentSession {
    type Result = AtomicResponse<Self, Result<Outcome, PayFailure>>;

    fn handle(&mut self, _: RefundKept, _: &mut Context<Self>) -> Self::Result {
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        self.turn(async move {
            let p = Self::row(&core, &id).await?;
            core.refund_kept(&p).await
        })
    }
}

impl Handler<Due> for PaymentSession {
    type Result = AtomicResponse<Self, Result<bool, PayFailure>>;

    fn handle(&mut self, _: Due, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        self.timer = None;
        let (core, id) = (self.core.clone(), self.payment_id.clone());
        AtomicResponse::new(Box::pin(
            async move {
                let p = match Self::row(&core, &id).await {
                    Ok(p) => p,
                    Err(PayFailure::NotFound) => return (Ok(false), None),
                    Err(e) => return (Err(e), Some(core.clock.now_ms() + RETRY_MS)),
                };
                match on_fire(p.state, p.expires_at, core.clock.now_ms()) {
                    Fire::Nothing => (Ok(false), None),
                    Fire::Wait(deadline) => (Ok(false), Some(deadline)),
                    Fire::Expire => match core.expire_one(&p).await {
                        Ok(done) => (Ok(done), None),
                        Err(e) => {
                            tracing::warn!(error = %e, payment = %id, "payment expiry at its deadline failed; asking again later");
                            (Err(e), Some(core.clock.now_ms() + RETRY_MS))
                        }
                    },
                }
            }
            .into_actor(self)
            .map(|(answer, rearm), session, ctx| {
                if let Some(deadline) = rearm {
                    session.arm(ctx, deadline);
                }
                answer
            }),
        ))
    }
}

impl Handler<Deadline> for PaymentSession {
    type Result = Result<Option<i64>, PayFailure>;

    fn handle(&mut self, _: Deadline, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        Ok(self.timer.as_ref().map(|t| t.deadline))
    }
}

/// Whether a paid settlement's answer says the attempt is no longer open: it is paid (kept,
/// or being refunded, or refunded). A failed attempt stays open until its expiry.
fn settled_paid(answer: &Result<Settled, PayFailure>) -> bool {
    matches!(answer, Ok(Settled::Applied | Settled::AlreadyApplied))
}

/// How long a timer for `deadline` waits at `now` (epoch ms): never negative.
pub fn delay_until(deadline: i64, now: i64) -> Duration {
    Duration::from_millis(u64::try_from(deadline.saturating_sub(now)).unwrap_or(0))
}

/// The deadline a starting session arms: an open attempt's, while it is still ahead (one
/// already past it is expired by whoever started the session, or by the sweep).
pub fn arm_at_start(state: PaymentState, expires_at: i64, now: i64) -> Option<i64> {
    (open(state) && expires_at > now).then_some(expires_at)
}

/// What a fired timer does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fire {
    /// Open and due: expire it.
    Expire,
    /// Open but early by the service's clock: wait until then.
    Wait(i64),
    /// Settled or closed meanwhile.
    Nothing,
}

pub fn on_fire(state: PaymentState, expires_at: i64, now: i64) -> Fire {
    if !open(state) {
        Fire::Nothing
    } else if expires_at > now {
        Fire::Wait(expires_at)
    } else {
        Fire::Expire
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timer_waits_until_its_deadline_and_never_less_than_nothing() {
        for (deadline, now, ms) in [
            (1_800_000, 0, 1_800_000),
            (1_000, 999, 1),
            (1_000, 1_000, 0),
            (1_000, 5_000, 0),
            (i64::MIN, i64::MAX, 0),
        ] {
            assert_eq!(
                delay_until(deadline, now),
                Duration::from_millis(ms),
                "{deadline} at {now}"
            );
        }
    }

    #[test]
    fn a_starting_session_arms_open_attempts_whose_deadline_is_ahead() {
        for (state, expires_at, now, armed) in [
            (PaymentState::Created, 10, 5, Some(10)),
            (PaymentState::Pending, 10, 5, Some(10)),
            (PaymentState::Failed, 10, 5, Some(10)),
            (PaymentState::Pending, 10, 10, None),
            (PaymentState::Pending, 10, 11, None),
            (PaymentState::Paid, 10, 5, None),
            (PaymentState::Refunding, 10, 5, None),
            (PaymentState::Refunded, 10, 5, None),
            (PaymentState::Closed, 10, 5, None),
        ] {
            assert_eq!(
                arm_at_start(state, expires_at, now),
                armed,
                "{state} {expires_at} at {now}"
            );
        }
    }

    #[test]
    fn a_fired_timer_expires_only_open_attempts_that_are_due() {
        for (state, expires_at, now, fire) in [
            (PaymentState::Pending, 10, 10, Fire::Expire),
            (PaymentState::Created, 10, 20, Fire::Expire),
            (PaymentState::Failed, 10, 20, Fire::Expire),
            (PaymentState::Pending, 10, 9, Fire::Wait(10)),
            (PaymentState::Paid, 10, 20, Fire::Nothing),
            (PaymentState::Closed, 10, 20, Fire::Nothing),
            (PaymentState::Refunding, 10, 20, Fire::Nothing),
        ] {
            assert_eq!(
                on_fire(state, expires_at, now),
                fire,
                "{state} {expires_at} at {now}"
            );
        }
    }
}
