//! Pure rules: plain types and functions, no I/O, unit-tested in place.

pub mod account;
pub mod address;
pub mod cart;
pub mod cart_item;
pub mod cart_pricing;
pub mod catalog;
pub mod channel;
pub mod effective;
pub mod geo;
pub mod hours;
pub mod lang;
pub mod menu;
pub mod money;
pub mod order_machine;
pub mod order_status;
pub mod order_time;
pub mod phone;
pub mod profile;
pub mod promotion;
pub mod remark;
pub mod scan_order;
pub mod seed;
pub mod smart_read;
pub mod store_rules;
pub mod validators;
pub mod view_token;
