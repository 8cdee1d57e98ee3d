//! One settlement per order (issue 20, point 1): which paid attempt keeps the order's money, and
//! why every other one is given back. The fact that decides is the order's `paid_by`, written
//! once with the order's payment move (a compare-and-set); these rules only read it, together
//! with the order's state, which never moves again once closed. No I/O.

use crate::domain::lang::Lang;
use crate::domain::ordering::order_machine::state as s;

/// Why a paid attempt is refunded; stored as [`RefundReason::as_str`] on the payment row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefundReason {
    /// Another attempt settled the order first.
    Duplicate,
    /// The customer cancelled the order (before or after paying).
    OrderCancelled,
    /// The store refused the order.
    OrderRefused,
    /// The 30-minute payment window ended before this money arrived.
    OrderExpired,
    /// The order takes no online payment any more (completed, cash on delivery, …).
    OrderClosed,
    /// The chain refunded the completed order in full (`POST /chain/orders/{orderNo}/refund`).
    OrderRefunded,
}

impl RefundReason {
    pub const ALL: [RefundReason; 6] = [
        RefundReason::Duplicate,
        RefundReason::OrderCancelled,
        RefundReason::OrderRefused,
        RefundReason::OrderExpired,
        RefundReason::OrderClosed,
        RefundReason::OrderRefunded,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RefundReason::Duplicate => "duplicate",
            RefundReason::OrderCancelled => "order_cancelled",
            RefundReason::OrderRefused => "order_refused",
            RefundReason::OrderExpired => "order_expired",
            RefundReason::OrderClosed => "order_closed",
            RefundReason::OrderRefunded => "order_refunded",
        }
    }

    pub fn parse(text: &str) -> Option<RefundReason> {
        RefundReason::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// What the customer reads next to the refunded (or refunding) attempt.
    pub fn message(self, lang: Lang) -> &'static str {
        let (zh, en) = match self {
            RefundReason::Duplicate => ("重复支付", "Duplicate payment"),
            RefundReason::OrderCancelled => ("订单已取消", "Order cancelled"),
            RefundReason::OrderRefused => ("门店拒单", "Refused by the store"),
            RefundReason::OrderExpired => (
                "订单已超时取消",
                "The order expired before the payment arrived",
            ),
            RefundReason::OrderClosed => ("订单已无法支付", "The order no longer takes payment"),
            RefundReason::OrderRefunded => ("订单已退款", "Order refunded"),
        };
        match lang {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// Why an order in `state`, no longer payable, gives back money it did not keep.
    fn for_closed_order(state: u8) -> RefundReason {
        match state {
            s::CANCELLED_BY_CUSTOMER => RefundReason::OrderCancelled,
            s::REFUSED_BY_STORE => RefundReason::OrderRefused,
            s::EXPIRED_UNPAID => RefundReason::OrderExpired,
            _ => RefundReason::OrderClosed,
        }
    }
}

/// What becomes of a paid attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The order can still be paid and nobody settled it: the attempt must try the payment
    /// move (which claims `paid_by`), then ask again.
    Undecided,
    /// This attempt settled the order, which stands: the money stays.
    Keep,
    Refund(RefundReason),
}

/// The verdict for paid attempt `payment_id` of an order in `order_state` whose settlement is
/// `paid_by`. Both inputs are final once set (`paid_by` is written once, a closed order never
/// moves), so deciding on them is not "read then decide": only `Undecided` leads to a write,
/// and that write is the compare-and-set.
pub fn verdict(payment_id: &str, order_state: u8, paid_by: Option<&str>) -> Verdict {
    let payable = matches!(order_state, s::UNPAID | s::PAYMENT_FAILED);
    let given_back = matches!(order_state, s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE);
    match paid_by {
        Some(id) if id == payment_id && given_back => {
            Verdict::Refund(RefundReason::for_closed_order(order_state))
        }
        Some(id) if id == payment_id => Verdict::Keep,
        Some(_) => Verdict::Refund(RefundReason::Duplicate),
        None if payable => Verdict::Undecided,
        None => Verdict::Refund(RefundReason::for_closed_order(order_state)),
    }
}

/// The wait before an owed refund's first retry; each failure doubles it, up to
/// [`REFUND_RETRY_MAX_MS`]. A provider that is down for a minute gets asked again soon; one
/// that refuses (errCode 01: the trade cannot be refunded as asked) is not asked every 15 s
/// for ever while the staff sort it out.
pub const REFUND_RETRY_FIRST_MS: i64 = 15_000;
pub const REFUND_RETRY_MAX_MS: i64 = 60 * 60_000;

/// Whether the housekeeping job should ask the provider again for an owed refund that failed
/// `failures` times, the last at `last_try_ms`. Never failed (the owing was written but the
/// provider never asked, as after a crash): at once.
pub fn refund_retry_due(failures: i64, last_try_ms: i64, now_ms: i64) -> bool {
    if failures <= 0 {
        return true;
    }
    let doublings = u32::try_from(failures - 1).unwrap_or(u32::MAX).min(20);
    let wait = REFUND_RETRY_FIRST_MS
        .saturating_mul(1_i64 << doublings)
        .min(REFUND_RETRY_MAX_MS);
    now_ms.saturating_sub(last_try_ms) >= wait
}

#[cfg(test)]
mod tests {
    use super::*;
    use RefundReason as R;
    use Verdict as V;

    #[test]
    fn owed_refunds_are_asked_again_later_after_each_failure() {
        let t = 1_000_000;
        let table: &[(i64, i64, bool)] = &[
            // (failures, ms since the last try, due?)
            (0, 0, true),
            (1, 14_999, false),
            (1, 15_000, true),
            (2, 29_999, false),
            (2, 30_000, true),
            (3, 59_999, false),
            (3, 60_000, true),
            (8, 1_919_999, false),
            (8, 1_920_000, true),
            // Capped at an hour, however many failures.
            (9, 3_599_999, false),
            (9, 3_600_000, true),
            (500, 3_600_000, true),
            (i64::MAX, 3_600_000, true),
            (i64::MAX, 3_599_999, false),
        ];
        for &(failures, since, due) in table {
            assert_eq!(
                refund_retry_due(failures, t - since, t),
                due,
                "{failures} failures, {since} ms ago"
            );
        }
        // A clock that went back never makes a retry due early.
        assert!(!refund_retry_due(1, t + 5_000, t));
    }

    #[test]
    fn verdicts() {
        let table: &[(u8, Option<&str>, Verdict)] = &[
            // Nobody settled a payable order: the attempt must try.
            (s::UNPAID, None, V::Undecided),
            (s::PAYMENT_FAILED, None, V::Undecided),
            // Settled by this attempt: kept while the order stands, in production or done.
            (s::PAID, Some("P1"), V::Keep),
            (s::ACCEPTED, Some("P1"), V::Keep),
            (s::COMPLETED, Some("P1"), V::Keep),
            // … and given back when the order was cancelled or refused after payment.
            (
                s::CANCELLED_BY_CUSTOMER,
                Some("P1"),
                V::Refund(R::OrderCancelled),
            ),
            (s::REFUSED_BY_STORE, Some("P1"), V::Refund(R::OrderRefused)),
            // Settled by another attempt: a duplicate, whatever the order did since.
            (s::PAID, Some("P2"), V::Refund(R::Duplicate)),
            (s::ACCEPTED, Some("P2"), V::Refund(R::Duplicate)),
            (
                s::CANCELLED_BY_CUSTOMER,
                Some("P2"),
                V::Refund(R::Duplicate),
            ),
            (s::REFUSED_BY_STORE, Some("P2"), V::Refund(R::Duplicate)),
            // Money for an order that closed unpaid.
            (s::CANCELLED_BY_CUSTOMER, None, V::Refund(R::OrderCancelled)),
            (s::EXPIRED_UNPAID, None, V::Refund(R::OrderExpired)),
            (s::CASH_ON_DELIVERY, None, V::Refund(R::OrderClosed)),
            (s::COMPLETED, None, V::Refund(R::OrderClosed)),
        ];
        for &(state, paid_by, want) in table {
            assert_eq!(verdict("P1", state, paid_by), want, "{state} {paid_by:?}");
        }
    }

    #[test]
    fn reasons_round_trip_and_have_their_own_words() {
        let mut seen = std::collections::HashSet::new();
        for r in RefundReason::ALL {
            assert_eq!(RefundReason::parse(r.as_str()), Some(r));
            for lang in [Lang::Zh, Lang::En] {
                assert!(seen.insert(r.message(lang)), "{r:?} {lang:?}");
            }
        }
        assert_eq!(RefundReason::parse("nope"), None);
        assert_eq!(R::Duplicate.message(Lang::En), "Duplicate payment");
    }
}
