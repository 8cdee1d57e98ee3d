//! Paying for an order: which attempt keeps the money, and where the browser goes back to.

pub mod return_path;
pub mod settlement;
