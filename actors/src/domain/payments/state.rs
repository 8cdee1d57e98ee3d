//! Where a payment attempt stands: `created` → `pending` (the provider has it) → `paid` /
//! `failed` / `closed`; a paid attempt that does not keep the order's money goes `refunding`
//! (the refund is owed) → `refunded`. Stored in `payments.state` as [`PaymentState::as_str`],
//! parsed once when the row is read ([`crate::db::payments`]); the API answers the same text.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentState {
    /// Written before the provider is asked.
    Created,
    /// The provider has it: the payer may pay.
    Pending,
    Paid,
    /// The provider failed or the payer cancelled: the order may be paid again.
    Failed,
    /// Expired, or its order cancelled: closed at the provider.
    Closed,
    /// A paid attempt whose money is owed back (retried until the provider makes the refund).
    Refunding,
    Refunded,
}

impl PaymentState {
    pub const ALL: [PaymentState; 7] = [
        PaymentState::Created,
        PaymentState::Pending,
        PaymentState::Paid,
        PaymentState::Failed,
        PaymentState::Closed,
        PaymentState::Refunding,
        PaymentState::Refunded,
    ];

    /// Attempts that can still be paid or whose expiry has not run yet.
    pub const OPEN: [PaymentState; 3] = [
        PaymentState::Created,
        PaymentState::Pending,
        PaymentState::Failed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentState::Created => "created",
            PaymentState::Pending => "pending",
            PaymentState::Paid => "paid",
            PaymentState::Failed => "failed",
            PaymentState::Closed => "closed",
            PaymentState::Refunding => "refunding",
            PaymentState::Refunded => "refunded",
        }
    }

    pub fn parse(text: &str) -> Option<PaymentState> {
        PaymentState::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// One of [`PaymentState::OPEN`].
    pub fn is_open(self) -> bool {
        PaymentState::OPEN.contains(&self)
    }
}

impl fmt::Display for PaymentState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::PaymentState;

    #[test]
    fn every_state_reads_back_and_serialises_as_stored() {
        for state in PaymentState::ALL {
            assert_eq!(PaymentState::parse(state.as_str()), Some(state));
            assert_eq!(state.to_string(), state.as_str());
            let json = serde_json::to_string(&state).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", state.as_str()));
        }
        assert_eq!(PaymentState::parse("Paid"), None);
        assert_eq!(PaymentState::parse("refund_owed"), None);
    }
}
