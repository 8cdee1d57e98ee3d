//! Engine.IO v4 server tests: a real server on a random port, raw HTTP long-polling with
//! reqwest, and the official engine.io-client (Node) for WebSocket, upgrade and heartbeat.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod errors;
mod helpers;
mod node;
mod polling;
mod sessions;
