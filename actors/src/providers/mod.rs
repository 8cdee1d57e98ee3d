//! Outside systems the domain talks to, as traits; implementations live in the server.

pub mod maps;
pub mod payment;
pub mod sms;
