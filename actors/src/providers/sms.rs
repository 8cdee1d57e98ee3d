//! The SMS gateway (spec account §7 sendRandomNum). Implemented in the server: the sandbox
//! (an in-memory outbox, the embedded default) and, later, a real gateway client.
//!
//! The text carries a login secret: implementations must never log it.

use crate::domain::accounts::phone::Phone;
use async_trait::async_trait;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SmsError {
    /// The gateway could not take the message (network, quota, refused number).
    #[error("sms gateway unavailable: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait SmsProvider: Send + Sync {
    async fn send(&self, phone: &Phone, text: &str) -> Result<(), SmsError>;
}
