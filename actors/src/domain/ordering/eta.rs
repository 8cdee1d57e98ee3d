//! The ETA projection (spec ordering §4): from what the store promised for an order (its time,
//! the store's delivery and making times) and where the order stands on the kitchen's line,
//! when it will be ready or arrive. [`crate::domain::ordering::arrival`] turns it into the one
//! time every screen shows.

use crate::domain::catalogue::{Store, DELIVERY};
use crate::domain::ordering::order_machine::{progress as p, MIN_RIDE_MIN};

/// What the store promised for one order: the inputs of [`eta`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Promise {
    pub order_type: u8,
    pub is_book: bool,
    /// The order's time: delivery at, or ready at (pickup, dine-in).
    pub order_time_ms: i64,
    /// The store's deliveryTime, minutes.
    pub delivery_min: u32,
    /// The store's estimateTime, minutes.
    pub estimate_min: u32,
}

const MINUTE_MS: i64 = 60_000;

/// The line the ETA walks, with each kitchen stage's share of estimateTime in tenths.
const KITCHEN_TENTHS: [(u8, i64); 5] = [
    (p::AWAITING_ACCEPTANCE, 1),
    (p::ACCEPTED, 1),
    (p::MAKING, 3),
    (p::OVEN, 4),
    (p::QUALITY_CHECK, 1),
];
const LINE: [u8; 6] = [
    p::AWAITING_ACCEPTANCE,
    p::ACCEPTED,
    p::MAKING,
    p::OVEN,
    p::QUALITY_CHECK,
    p::DISPATCH,
];

/// 4 and 10 are one stage.
fn stage_of(progress: u8) -> u8 {
    if progress == p::IN_PRODUCTION {
        p::MAKING
    } else {
        progress
    }
}

impl Promise {
    pub fn for_store(store: &Store, order_type: u8, is_book: bool, order_time_ms: i64) -> Promise {
        Promise {
            order_type,
            is_book,
            order_time_ms,
            delivery_min: store.delivery_time,
            estimate_min: store.estimate_time,
        }
    }

    /// The stage the ETA aims at: delivered (50) for delivery, ready (40) for anything else.
    fn target(&self) -> u8 {
        if self.order_type == DELIVERY {
            p::DONE
        } else {
            p::DISPATCH
        }
    }

    /// The nominal duration of the stage at `progress` (module table), in ms; None for a code
    /// that is not a stage of this order's way to its target (2, 3, 50, 99, dispatch for a
    /// pickup order, unknown codes).
    pub fn nominal_ms(&self, progress: u8) -> Option<i64> {
        let stage = stage_of(progress);
        if stage >= self.target() {
            return None;
        }
        if stage == p::DISPATCH {
            let ride = self
                .delivery_min
                .saturating_sub(self.estimate_min)
                .max(MIN_RIDE_MIN);
            return Some(i64::from(ride) * MINUTE_MS);
        }
        let (_, tenths) = KITCHEN_TENTHS.iter().find(|(at, _)| *at == stage)?;
        Some(i64::from(self.estimate_min) * MINUTE_MS * tenths / 10)
    }

    fn not_before_booking(&self, at: i64) -> i64 {
        if self.is_book {
            at.max(self.order_time_ms)
        } else {
            at
        }
    }
}

/// When the order is expected delivered (delivery) or ready (pickup, dine-in), epoch ms.
///
/// `history` is the order's `(progress, at_ms)` rows in the order written; a stage is taken to
/// have started at the first row that entered it (so an undone-and-redone step keeps its real
/// start; the error is at most the undo window). With no row for the current stage it started
/// now. Projection: `now + max(nominal(current) − elapsed, 0) + Σ nominal(later stages)`, and for
/// a booked order never before its booked time. A pickup or dine-in order at 40 answers the time
/// it became ready. None when there is nothing to wait for: not paid (99), refused, cancelled,
/// completed, or an unknown code.
pub fn eta(promise: &Promise, progress: u8, history: &[(u8, i64)], now_ms: i64) -> Option<i64> {
    let stage = stage_of(progress);
    let started = history
        .iter()
        .find(|(at, _)| stage_of(*at) == stage)
        .map_or(now_ms, |(_, at_ms)| *at_ms)
        .min(now_ms);
    if stage == promise.target() && stage != p::DONE {
        return Some(promise.not_before_booking(started));
    }
    let index = LINE.iter().position(|at| *at == stage)?;
    let current = promise.nominal_ms(stage)?;
    let left_here = current
        .saturating_sub(now_ms.saturating_sub(started))
        .max(0);
    let later: i64 = LINE[index + 1..]
        .iter()
        .filter_map(|at| promise.nominal_ms(*at))
        .sum();
    let projected = now_ms.saturating_add(left_here).saturating_add(later);
    Some(promise.not_before_booking(projected))
}

#[cfg(test)]
#[path = "eta_tests.rs"]
mod tests;
