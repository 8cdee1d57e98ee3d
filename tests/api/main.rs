//! Server integration tests: a real server on a random port, a real database (SQLite, or
//! PostgreSQL when TEST_DATABASE_URL is set), real HTTP. One binary, modules by area.

mod account_logs;
mod accounts;
mod addresses;
mod board_nodes;
mod cart;
mod cart_coupons;
mod checkout;
mod cleanup;
mod coupon_races;
mod coupons;
mod envelope;
mod geo;
mod health;
mod helpers;
mod invoice;
mod journey;
mod kitchen;
mod loyalty;
mod menu;
mod metrics;
mod nodes;
mod openapi;
mod payment_model;
mod payment_sessions;
mod payments;
mod queue_nodes;
mod races;
mod reconcile;
mod security;
mod session_store;
mod settlement;
mod sms_codes;
mod store_board;
mod stores;
mod tablet;
