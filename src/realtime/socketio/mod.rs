//! Socket.IO v5: packets and binary attachments, independent of Engine.IO transports.

pub mod assembler;
pub mod binary;
pub mod packet;
pub mod parse;

pub use assembler::{AssembledPacket, BinaryPacketAssembler};
pub use packet::{Packet, PacketKind, ParseError};
