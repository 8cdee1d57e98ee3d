//! Socket.IO packets in text form: `Packet::parse`.
//!
//! Checks: no panic; a packet that parses encodes to text that parses to the same packet,
//! and that encoding is stable (encoding the re-parsed packet gives the same text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pizza_order::realtime::socketio::Packet;

fuzz_target!(|data: &[u8]| {
    // The text arrives inside an Engine.IO message, so it is always UTF-8.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(packet) = Packet::parse(text) else {
        return;
    };
    let _ = packet.event_name();

    let encoded = packet.encode();
    let reparsed = Packet::parse(&encoded);
    assert_eq!(
        reparsed.as_ref(),
        Ok(&packet),
        "input {text:?} encoded as {encoded:?}"
    );
    if let Ok(reparsed) = reparsed {
        assert_eq!(reparsed.encode(), encoded, "input {text:?}");
    }
});
