//! Order states and progress codes as the customer sees them (spec §4). The full state machine
//! (who may move an order where) comes with payments and the tablet; these are the codes an
//! order is created with and the labels every list shows.

use crate::domain::lang::Lang;

/// Order list display states (spec §4 "Order list display labels").
pub mod state {
    pub const UNCONFIRMED: u8 = 0;
    pub const ACCEPTED: u8 = 1;
    pub const CANCELLED: u8 = 2;
    pub const PAYMENT_FAILED: u8 = 4;
    pub const UNPAID: u8 = 5;
    pub const PAID: u8 = 6;
    pub const CASH_ON_DELIVERY: u8 = 7;
    pub const COMPLETED: u8 = 8;
}

/// Progress codes (spec §4 "Order progress codes").
pub mod progress {
    pub const AWAITING_ACCEPTANCE: u8 = 0;
    pub const UNKNOWN: u8 = 99;
}

/// How the customer pays: online through a provider, or cash on delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentType {
    Online,
    Offline,
}

impl PaymentType {
    pub fn parse(s: &str) -> Option<PaymentType> {
        match s {
            "online" => Some(PaymentType::Online),
            "offline" => Some(PaymentType::Offline),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentType::Online => "online",
            PaymentType::Offline => "offline",
        }
    }

    /// The state a new order starts in: unpaid until the provider confirms, or cash on
    /// delivery, which goes to the store at once.
    pub fn initial_state(self) -> u8 {
        match self {
            PaymentType::Online => state::UNPAID,
            PaymentType::Offline => state::CASH_ON_DELIVERY,
        }
    }

    /// An unpaid order is not in any store's queue yet: its progress is unknown (99).
    pub fn initial_progress(self) -> u8 {
        match self {
            PaymentType::Online => progress::UNKNOWN,
            PaymentType::Offline => progress::AWAITING_ACCEPTANCE,
        }
    }
}

/// The order list's label for a state: 0 unconfirmed, 1 accepted, 2/3/9/10/11 cancelled,
/// 4 payment failed, 5 unpaid, 6 paid, 7 cash on delivery, 8 completed.
pub fn state_label(state: u8, lang: Lang) -> &'static str {
    let (zh, en) = match state {
        0 => ("待确认", "Unconfirmed"),
        1 => ("已接单", "Accepted"),
        2 | 3 | 9 | 10 | 11 => ("已取消", "Cancelled"),
        4 => ("支付失败", "Payment failed"),
        5 => ("待支付", "Unpaid"),
        6 => ("已支付", "Paid"),
        7 => ("货到付款", "Cash on delivery"),
        8 => ("已完成", "Completed"),
        _ => ("未知", "Unknown"),
    };
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
}

/// The order list's filters: `all`, `unpaid` (4, 5), `active` (0, 1, 6, 7), `completed` (8),
/// `cancelled` (2, 3, 9, 10, 11), or one state code. None: not a filter. Some(None): all.
pub fn list_filter(name: &str) -> Option<Option<Vec<u8>>> {
    Some(Some(match name {
        "" | "all" => return Some(None),
        "unpaid" => vec![4, 5],
        "active" => vec![0, 1, 6, 7],
        "completed" => vec![8],
        "cancelled" => vec![2, 3, 9, 10, 11],
        code => vec![code.parse::<u8>().ok().filter(|c| *c <= 11)?],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_spec_table() {
        let cases = [
            (0, "待确认"),
            (1, "已接单"),
            (2, "已取消"),
            (3, "已取消"),
            (9, "已取消"),
            (10, "已取消"),
            (11, "已取消"),
            (4, "支付失败"),
            (5, "待支付"),
            (6, "已支付"),
            (7, "货到付款"),
            (8, "已完成"),
            (42, "未知"),
        ];
        for (state, zh) in cases {
            assert_eq!(state_label(state, Lang::Zh), zh, "{state}");
            assert!(!state_label(state, Lang::En).is_empty());
        }
    }

    #[test]
    fn list_filters() {
        assert_eq!(list_filter("all"), Some(None));
        assert_eq!(list_filter(""), Some(None));
        assert_eq!(list_filter("unpaid"), Some(Some(vec![4, 5])));
        assert_eq!(list_filter("cancelled"), Some(Some(vec![2, 3, 9, 10, 11])));
        assert_eq!(list_filter("7"), Some(Some(vec![7])));
        assert_eq!(list_filter("12"), None);
        assert_eq!(list_filter("paid'; --"), None);
    }

    #[test]
    fn payment_types_start_their_orders() {
        assert_eq!(PaymentType::parse("online"), Some(PaymentType::Online));
        assert_eq!(PaymentType::parse("cash"), None);
        assert_eq!(PaymentType::Online.initial_state(), state::UNPAID);
        assert_eq!(
            PaymentType::Offline.initial_state(),
            state::CASH_ON_DELIVERY
        );
        assert_eq!(
            PaymentType::Offline.initial_progress(),
            progress::AWAITING_ACCEPTANCE
        );
    }
}
