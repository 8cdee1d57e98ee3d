//! The loyalty programme's endpoints (issue 23): one file per resource.

pub mod chain;
pub mod gifts;
pub mod members;
pub mod points;
