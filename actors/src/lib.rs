pub mod accounts;
pub mod bus;
pub mod cache;
pub mod catalogue;
pub mod clock;
pub mod db;
pub mod domain;
pub mod providers;
