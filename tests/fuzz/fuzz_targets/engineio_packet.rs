//! Engine.IO packets as they arrive on a WebSocket: a text frame goes to
//! `Packet::parse_text`, a binary frame to `Packet::from_binary_frame`.
//!
//! Checks: no panic; a binary frame is a binary message holding exactly its bytes; a text
//! packet that parses encodes back to text that parses to the same packet.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pizza_order::realtime::engineio::packet::Packet;

fuzz_target!(|data: &[u8]| {
    assert_eq!(
        Packet::from_binary_frame(data.to_vec()),
        Packet::Binary(data.to_vec())
    );

    // A WebSocket text frame is UTF-8 by the time it reaches the parser.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(packet) = Packet::parse_text(text) else {
        return;
    };
    let encoded = packet
        .encode_text()
        .unwrap_or_else(|| panic!("parsed text packet {packet:?} has no text form"));
    assert_eq!(
        Packet::parse_text(&encoded).as_ref(),
        Ok(&packet),
        "input {text:?} encoded as {encoded:?}"
    );
});
