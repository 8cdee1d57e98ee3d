//! Pure rules: plain types and functions, no I/O, unit-tested in place.

pub mod catalog;
pub mod channel;
pub mod effective;
pub mod geo;
pub mod hours;
pub mod lang;
pub mod menu;
pub mod money;
pub mod seed;
pub mod store_rules;
