//! Whether a pay request opens a new attempt (issue 34, item 5). Every attempt is a trade at
//! the provider with its own 30-minute timer, so a tap must not open one when an open attempt
//! of the same method can be handed out again, and a script must not open thousands:
//!
//! - an attempt of the same method and amount, pending, with at least [`REUSE_MIN_LEFT_MS`]
//!   to go, is **reused**: the same payment id and instructions, no new trade. Allowed past
//!   every ceiling, since it opens nothing;
//! - one of the same method still being opened (`created`, younger than [`IN_FLIGHT_MS`]) is
//!   **waited for**, then reused;
//! - otherwise a new attempt is opened, unless the order has had [`AttemptLimits::per_order`]
//!   attempts, or the user opened [`AttemptLimits::per_user_minute`] in the last minute.
//!
//! Another method's open attempt stays open: its cashier may be in use this very moment, and
//! if both get paid the later one is refunded as a duplicate (`settlement`). The caller decides
//! under a lock on the user's row, so two nodes cannot both pass a ceiling or both open.

use super::state::PaymentState;
use crate::domain::lang::Lang;
use crate::domain::money::Fen;

/// A pending attempt with less time than this left is not handed out again: the payer would
/// hardly reach the cashier before it expires.
pub const REUSE_MIN_LEFT_MS: i64 = 5 * 60_000;
/// An attempt `created` but not yet `pending` for longer than this is taken for abandoned
/// (its node went away mid-create) and not waited for.
pub const IN_FLIGHT_MS: i64 = 30_000;
/// The window of [`AttemptLimits::per_user_minute`].
pub const USER_WINDOW_MS: i64 = 60_000;

/// The ceilings on new attempts (`[payment] max_attempts_per_order`,
/// `max_attempts_per_user_minute`; docs/payments-and-orders.md "Attempts and their ceilings").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptLimits {
    /// Attempts one order may have in all, whatever became of them.
    pub per_order: u32,
    /// New attempts one user may open in any minute, over all their orders.
    pub per_user_minute: u32,
}

impl Default for AttemptLimits {
    fn default() -> AttemptLimits {
        AttemptLimits {
            per_order: 10,
            per_user_minute: 5,
        }
    }
}

/// What the rule needs of an existing attempt of the order.
#[derive(Debug, Clone, PartialEq)]
pub struct Existing<'a> {
    pub payment_id: &'a str,
    pub method: &'a str,
    pub state: PaymentState,
    pub amount: Fen,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A pay request: its method and amount, when it came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request<'a> {
    pub method: &'a str,
    pub amount: Fen,
    pub now: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission<'a> {
    /// Hand this open attempt out again.
    Reuse(&'a str),
    /// This attempt of the same method is being opened by another request: wait, then ask again.
    InFlight(&'a str),
    /// Open a new attempt.
    Open,
}

/// Why no new attempt is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptRefusal {
    /// The order has had `max` attempts.
    OrderCeiling { max: u32 },
    /// The user opened their minute's worth; the oldest leaves the window in this many seconds.
    TooFrequent { retry_after_seconds: u64 },
}

impl AttemptRefusal {
    pub fn message(self, lang: Lang) -> String {
        match (self, lang) {
            (AttemptRefusal::OrderCeiling { max }, Lang::Zh) => {
                format!("该订单支付次数已达上限（{max}次），请重新下单")
            }
            (AttemptRefusal::OrderCeiling { max }, Lang::En) => format!(
                "This order has reached its limit of {max} payment attempts; please place the order again"
            ),
            (AttemptRefusal::TooFrequent { retry_after_seconds }, Lang::Zh) => {
                format!("支付尝试过于频繁，请{retry_after_seconds}秒后再试")
            }
            (AttemptRefusal::TooFrequent { retry_after_seconds }, Lang::En) => format!(
                "Too many payment attempts; please try again in {retry_after_seconds} s"
            ),
        }
    }
}

/// The decision for `request` given the order's attempts and the creation times of the user's
/// attempts (any order) in the last [`USER_WINDOW_MS`].
pub fn admit<'a>(
    order_attempts: &'a [Existing<'a>],
    user_recent: &[i64],
    request: Request<'_>,
    limits: AttemptLimits,
) -> Result<Admission<'a>, AttemptRefusal> {
    let same = |a: &&Existing<'_>| a.method == request.method && a.amount == request.amount;
    let newest_first = {
        let mut v: Vec<&Existing<'_>> = order_attempts.iter().filter(same).collect();
        v.sort_by_key(|a| std::cmp::Reverse(a.created_at));
        v
    };
    if let Some(open) = newest_first.iter().find(|a| {
        a.state == PaymentState::Pending && a.expires_at - request.now >= REUSE_MIN_LEFT_MS
    }) {
        return Ok(Admission::Reuse(open.payment_id));
    }
    if let Some(opening) = newest_first
        .iter()
        .find(|a| a.state == PaymentState::Created && request.now - a.created_at < IN_FLIGHT_MS)
    {
        return Ok(Admission::InFlight(opening.payment_id));
    }
    // A ceiling of 0 would refuse every payment: at least one attempt is always allowed.
    let (per_order, per_user) = (limits.per_order.max(1), limits.per_user_minute.max(1));
    if order_attempts.len() >= per_order as usize {
        return Err(AttemptRefusal::OrderCeiling { max: per_order });
    }
    let window_start = request.now - USER_WINDOW_MS;
    let mut recent: Vec<i64> = user_recent
        .iter()
        .copied()
        .filter(|at| *at > window_start)
        .collect();
    if recent.len() >= per_user as usize {
        recent.sort_unstable();
        // A place comes free when the oldest of the newest `per_user` leaves the window.
        let frees_at = recent[recent.len() - per_user as usize] + USER_WINDOW_MS;
        let wait_ms = (frees_at - request.now).max(1) as u64;
        return Err(AttemptRefusal::TooFrequent {
            retry_after_seconds: wait_ms.div_ceil(1000),
        });
    }
    Ok(Admission::Open)
}

#[cfg(test)]
#[path = "attempts_tests.rs"]
mod tests;
