//! Outside systems over HTTP: implementations of the provider traits in `actors::providers`.

pub mod maps;
pub mod payment;
pub mod sms;
