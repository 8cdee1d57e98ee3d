//! A store as a whole: its business hours in China time, what it offers and where it
//! delivers, and the board its staff set live.

pub mod hours;
pub mod store_board;
pub mod store_rules;
