//! Paying for an order: where an attempt stands, which attempt keeps the money, and where the
//! browser goes back to.

pub mod attempts;
pub mod return_path;
pub mod settlement;
pub mod state;
