//! Socket.IO v5 over the Engine.IO v4 server: packets and binary attachments (independent of
//! the transports), then the server: namespaces, sockets, rooms, acks both ways, broadcasts
//! through an adapter, and connection state recovery.
//!
//! ```text
//! let io = SocketIo::new(SocketIoConfig::default());
//! io.of("/store")
//!     .auth(|hs| if hs.auth_str("token").is_some() { Ok(()) } else { Err("no token".into()) })
//!     .on_connection(|socket| {
//!         socket.on("watch", |socket, args, ack| { socket.join("room-1"); /* ... */ });
//!     });
//! let engine = io.engine(EngineConfig::default()); // mount with engineio::configure
//! io.of("/store").to("room-1").emit("update", vec![json!({"n": 1})])?;
//! ```

pub mod ack;
pub mod adapter;
pub mod assembler;
pub mod binary;
pub mod broadcast;
mod client;
pub mod config;
pub mod conformance;
pub mod handshake;
pub mod namespace;
pub mod packet;
pub mod parse;
pub mod redis_adapter;
pub mod redis_wire;
pub mod server;
pub mod socket;

pub use ack::AckError;
pub use adapter::{
    Adapter, AdapterFactory, BroadcastOptions, Clock, LocalAdapter, LocalAdapterFactory, Room,
};
pub use assembler::{AssembledPacket, BinaryPacketAssembler};
pub use broadcast::BroadcastOperator;
pub use config::{RecoveryConfig, SocketIoConfig};
pub use handshake::Handshake;
pub use namespace::Namespace;
pub use packet::{Packet, PacketKind, ParseError};
pub use redis_adapter::{RedisAdapter, RedisAdapterFactory};
pub use server::SocketIo;
pub use socket::{AckSender, DisconnectReason, EmitError, Socket};
