//! Pure rules: plain types and functions, no I/O, unit-tested in place. The vocabulary every
//! concept uses (money, language, channel) sits here; each concept has its folder.

pub mod accounts;
pub mod cart;
pub mod catalogue;
pub mod channel;
pub mod geo;
pub mod lang;
pub mod loyalty;
pub mod money;
pub mod ordering;
pub mod payments;
pub mod pricing;
pub mod stores;
