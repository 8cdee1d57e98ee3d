//! Real-time protocol library: Engine.IO v4 and Socket.IO v5 (no application knowledge here).

pub mod engineio;
pub mod gateway;
pub mod setup;
pub mod socketio;

#[cfg(test)]
mod fuzz_tests;
