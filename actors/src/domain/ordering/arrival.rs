//! The one arrival time every screen shows (issue 22): checkout, the order status header, the
//! order detail and the tablet read the [`Arrival`] this module computes, and none computes
//! its own. It is built on the ETA projection ([`eta`]) and says, besides the time, what kind of
//! time it is and from when a countdown makes sense, so a client only formats it:
//!
//! | the order | kind | at | countdown from |
//! |---|---|---|---|
//! | paid or in production, not booked | `estimated` | the projection | at once |
//! | booked, not yet ready or delivered | `booked` | the booked time (later if the kitchen runs late) | [`BOOKED_COUNTDOWN_MS`] before it |
//! | pickup or dine-in, ready (40) | `ready` | when it became ready | never |
//! | delivery, delivered (50) | `delivered` | when it was delivered | never |
//! | pickup or dine-in, completed (50) | `completed` | when it was completed | never |
//! | unpaid, refused, cancelled, unknown | none | | |
//!
//! A booked order two days ahead therefore reads "booked for 25 Nov 19:00", not "32:46:51 left";
//! its countdown appears two hours before. The projection moves on as time passes (an overrun
//! stage is taken to end now), so a screen that reads it again sees the later time.

use crate::domain::catalogue::DELIVERY;
use crate::domain::ordering::eta::{eta, Promise};
use crate::domain::ordering::order_machine::progress as p;
use serde::{Deserialize, Serialize};

/// A booked order shows a countdown only from this long before its time.
pub const BOOKED_COUNTDOWN_MS: i64 = 2 * 3600 * 1000;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ArrivalKind {
    Estimated,
    Booked,
    Ready,
    Delivered,
    Completed,
}

/// When the order arrives (delivery) or is ready (pickup, dine-in), as every screen shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Arrival {
    pub kind: ArrivalKind,
    /// Epoch ms.
    pub at: i64,
    /// Epoch ms from which a countdown to `at` is shown; None: never (a time in the past, or a
    /// fact rather than a promise).
    pub countdown_from: Option<i64>,
}

/// The arrival of an order at `progress` with its `(progress, at_ms)` history (as [`eta`] reads
/// them), at `now_ms`.
pub fn arrival(
    promise: &Promise,
    progress: u8,
    history: &[(u8, i64)],
    now_ms: i64,
) -> Option<Arrival> {
    let delivery = promise.order_type == DELIVERY;
    if progress == p::DONE {
        let at = history.iter().find(|(code, _)| *code == p::DONE)?.1;
        let kind = if delivery {
            ArrivalKind::Delivered
        } else {
            ArrivalKind::Completed
        };
        return Some(Arrival {
            kind,
            at,
            countdown_from: None,
        });
    }
    if !delivery && progress == p::DISPATCH {
        // Ready is a fact: when it became ready, even before a booked time.
        let at = history
            .iter()
            .find(|(code, _)| *code == p::DISPATCH)
            .map_or(now_ms, |(_, at)| *at)
            .min(now_ms);
        return Some(Arrival {
            kind: ArrivalKind::Ready,
            at,
            countdown_from: None,
        });
    }
    let at = eta(promise, progress, history, now_ms)?;
    if promise.is_book {
        return Some(Arrival {
            kind: ArrivalKind::Booked,
            at,
            countdown_from: Some(at.saturating_sub(BOOKED_COUNTDOWN_MS)),
        });
    }
    Some(Arrival {
        kind: ArrivalKind::Estimated,
        at,
        countdown_from: Some(0),
    })
}

/// The arrival checkout shows for a cart about to be ordered: what the order would say the
/// moment it is paid (nothing of it has happened yet).
pub fn cart_arrival(promise: &Promise, now_ms: i64) -> Option<Arrival> {
    arrival(promise, p::AWAITING_ACCEPTANCE, &[], now_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::{DINE_IN, PICKUP};

    const T: i64 = 1_700_000_000_000;
    const MIN: i64 = 60_000;

    fn promise(order_type: u8, is_book: bool, order_time_ms: i64) -> Promise {
        Promise {
            order_type,
            is_book,
            order_time_ms,
            delivery_min: 30,
            estimate_min: 15,
        }
    }

    type Row<'a> = (
        &'a str,
        Promise,
        u8,
        &'a [(u8, i64)],
        i64,
        Option<(ArrivalKind, i64, Option<i64>)>,
    );

    /// Times in minutes after T; `start` as countdown-from means "from the start" (epoch 0).
    #[test]
    fn arrival_table() {
        use ArrivalKind::*;
        let asap = promise(DELIVERY, false, T + 30 * MIN);
        let pickup = promise(PICKUP, false, T + 15 * MIN);
        let dine = promise(DINE_IN, false, T + 15 * MIN);
        // Booked for 32 h 47 min ahead: the "32:46:51 left" of the issue.
        let far = promise(DELIVERY, true, T + (32 * 60 + 47) * MIN);
        let near = promise(DELIVERY, true, T + 90 * MIN);
        let booked_pickup = promise(PICKUP, true, T + 180 * MIN);
        let paid: &[(u8, i64)] = &[(99, -1), (0, 0)];
        let start = i64::MIN / MIN;
        #[rustfmt::skip]
        let cases: Vec<Row> = vec![
            ("paid now, delivery: the promise, counting down", asap, 0, paid, 0, Some((Estimated, 30, Some(start)))),
            ("pickup waiting: ready in 15", pickup, 0, paid, 0, Some((Estimated, 15, Some(start)))),
            ("on the road", asap, 40, &[(40, 15)], 20, Some((Estimated, 30, Some(start)))),
            ("ride overran: moves on with now", asap, 40, &[(40, 15)], 40, Some((Estimated, 40, Some(start)))),
            ("booked far ahead: the booked time, no countdown yet", far, 0, paid, 1, Some((Booked, 32 * 60 + 47, Some(30 * 60 + 47)))),
            ("booked within 2 h: countdown from 2 h before", near, 1, &[(0, 0), (1, 5)], 5, Some((Booked, 90, Some(-30)))),
            ("booked pickup accepted", booked_pickup, 1, &[(1, 10)], 10, Some((Booked, 180, Some(60)))),
            ("pickup ready: since, no countdown", pickup, 40, &[(40, 12)], 14, Some((Ready, 12, None))),
            ("booked pickup ready early: when, not the booking", booked_pickup, 40, &[(40, 12)], 14, Some((Ready, 12, None))),
            ("dine-in ready", dine, 40, &[(40, 13)], 13, Some((Ready, 13, None))),
            ("delivered: when", asap, 50, &[(40, 15), (50, 29)], 40, Some((Delivered, 29, None))),
            ("booked, delivered: when", far, 50, &[(50, 2000)], 2100, Some((Delivered, 2000, None))),
            ("pickup completed: when", pickup, 50, &[(50, 20)], 25, Some((Completed, 20, None))),
            ("completed without a row: nothing to say", asap, 50, &[], 25, None),
            ("unpaid", asap, 99, &[(99, 0)], 0, None),
            ("refused", asap, 2, &[], 0, None),
            ("cancelled", asap, 3, &[], 0, None),
        ];
        let ms = |m: i64| {
            if m == start {
                0
            } else {
                T + m * MIN
            }
        };
        for (name, promise, progress, history, now, want) in cases {
            let history: Vec<(u8, i64)> = history.iter().map(|(c, at)| (*c, ms(*at))).collect();
            let want = want.map(|(kind, at, from)| Arrival {
                kind,
                at: ms(at),
                countdown_from: from.map(ms),
            });
            assert_eq!(
                arrival(&promise, progress, &history, ms(now)),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn checkout_shows_what_the_paid_order_will() {
        let asap = promise(DELIVERY, false, 0);
        let got = cart_arrival(&asap, T).map(|a| (a.kind, a.at));
        assert_eq!(got, Some((ArrivalKind::Estimated, T + 30 * MIN)));
        let booked = promise(PICKUP, true, T + 26 * 60 * MIN);
        let got = cart_arrival(&booked, T).map(|a| (a.kind, a.at));
        assert_eq!(got, Some((ArrivalKind::Booked, T + 26 * 60 * MIN)));
    }
}
