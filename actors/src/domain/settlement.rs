//! One settlement per order (issue 20, point 1): which paid attempt keeps the order's money, and
//! why every other one is given back. The fact that decides is the order's `paid_by`, written
//! once with the order's payment move (a compare-and-set); these rules only read it, together
//! with the order's state, which never moves again once closed. No I/O.

use super::lang::Lang;
use super::order_machine::state as s;

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
}

impl RefundReason {
    pub const ALL: [RefundReason; 5] = [
        RefundReason::Duplicate,
        RefundReason::OrderCancelled,
        RefundReason::OrderRefused,
        RefundReason::OrderExpired,
        RefundReason::OrderClosed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RefundReason::Duplicate => "duplicate",
            RefundReason::OrderCancelled => "order_cancelled",
            RefundReason::OrderRefused => "order_refused",
            RefundReason::OrderExpired => "order_expired",
            RefundReason::OrderClosed => "order_closed",
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

#[cfg(test)]
mod tests {
    use super::*;
    use RefundReason as R;
    use Verdict as V;

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
