//! Engine.IO v4: packets and the long-polling payload codec (transport-independent), the
//! transports (long-polling, WebSocket) and sessions, and the server mounted on actix-web
//! ([`serve`] runs the app with WebSocket upgrades going straight to the engines).
//!
//! The layer above sees the engine only through [`EngineHandler`] (called on connect,
//! message, binary message and disconnect) and the [`EngineSocket`] handle it is given.

pub mod base64;
pub mod config;
pub mod echo;
pub mod handler;
mod listen;
pub mod packet;
pub mod payload;
mod polling;
pub mod refusals;
mod request;
pub mod server;
mod session;
mod upgrade;
mod websocket;
mod ws_frame;

pub use config::EngineConfig;
pub use handler::{
    Attached, DisconnectReason, EngineHandler, EngineSocket, Message, RequestInfo, Sid,
    TransportKind,
};
pub use listen::{serve, ListenOptions};
pub use refusals::RenderRefusal;
pub use request::Headers;
pub use server::{configure, EngineIo, RequestError};
pub use upgrade::WebSocketMounts;
