//! Engine.IO v4: packets and the long-polling payload codec, transport-independent.

pub mod base64;
pub mod packet;
pub mod payload;
