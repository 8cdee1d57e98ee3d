//! What a cart costs: each line, the promotions and coupons chosen for it (one search over
//! both), the delivery fee and the breakdown a person can check.

pub mod breakdown;
pub mod cart_coupons;
pub mod cart_pricing;
pub mod coupon_pricing;
pub mod offer_choice;
mod offer_search;
pub mod promotion;
pub mod promotion_choice;
