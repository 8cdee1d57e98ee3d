//! Engine.IO v4 and Socket.IO v5 server tests: a real server on a random port, raw HTTP
//! long-polling with reqwest, and the official engine.io-client and socket.io-client (Node) for
//! WebSocket, upgrade, heartbeat, namespaces, rooms, acks and connection state recovery.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bench;
mod errors;
mod gateway;
mod helpers;
mod node;
mod polling;
mod redis_adapter;
mod sessions;
mod sio_client;
mod sio_helpers;
mod sio_polling;
mod websocket;
