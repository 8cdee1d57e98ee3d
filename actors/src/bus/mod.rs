//! The event bus: how a persisted state change reaches every node's real-time gateway.
//!
//! An actor writes its change first, then publishes the event; every node (this one included)
//! receives it from `subscribe` and the gateway emits it to the rooms it concerns. In-process
//! (`LocalBus`) is the embedded default; `RedisBus` carries events between nodes.
//!
//! Delivery is at most once per subscriber: a receiver that falls behind by more than the
//! channel capacity loses the oldest events (`RecvError::Lagged`). Clients never depend on
//! that: every order event carries a per-order `seq`, and a gap makes the app take a snapshot.

mod events;
mod local;
mod redis_bus;

pub use events::{Event, PaymentOutcome};
pub use local::LocalBus;
pub use redis_bus::RedisBus;

use async_trait::async_trait;
use tokio::sync::broadcast;

/// How many events a slow subscriber may fall behind before it loses some.
pub const CHANNEL_CAPACITY: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("event encoding: {0}")]
    Encoding(#[from] serde_json::Error),
}

#[async_trait]
pub trait Bus: Send + Sync {
    /// Sends the event to every subscriber on every node. Call it only after the change it
    /// announces is persisted.
    async fn publish(&self, event: &Event) -> Result<(), BusError>;

    /// A receiver of every event published from now on, on any node.
    fn subscribe(&self) -> broadcast::Receiver<Event>;

    /// A round trip to whatever carries the events, for the readiness check.
    async fn ping(&self) -> Result<(), BusError>;
}
