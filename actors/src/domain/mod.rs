//! Pure rules: plain types and functions, no I/O, unit-tested in place.

pub mod catalog;
pub mod money;
