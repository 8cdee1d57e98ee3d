//! The loyalty programme's endpoints (issues 23 and 24): one file per resource.

pub mod coupons_dto;
pub mod dto;

pub mod chain;
pub mod coupons;
pub mod gifts;
pub mod members;
pub mod points;
