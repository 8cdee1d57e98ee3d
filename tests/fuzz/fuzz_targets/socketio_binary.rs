//! Socket.IO binary packets: a `BinaryPacketAssembler` fed a text header and the binary
//! Engine.IO messages after it, plus `binary::reconstruct` on the header's data.
//!
//! Input layout: split on the byte 0xFF (never part of UTF-8). The first piece is the header
//! text; each later piece is one binary message, or, if it starts with 0xFE, another text
//! message (the rest of the piece). Text pieces that are not UTF-8 are skipped.
//!
//! Checks: no panic; an error leaves the assembler idle; `Ok(None)` leaves it pending; a
//! completed binary packet has exactly `attachments` buffers and its data reconstructs;
//! `reconstruct` succeeds exactly when `check_placeholders` does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pizza_order::realtime::socketio::assembler::BinaryPacketAssembler;
use pizza_order::realtime::socketio::binary::{check_placeholders, reconstruct};
use pizza_order::realtime::socketio::Packet;

const SPLIT: u8 = 0xff;
const TEXT: u8 = 0xfe;

fuzz_target!(|data: &[u8]| {
    let mut pieces = data.split(|&b| b == SPLIT);
    let Some(header) = pieces.next() else {
        return;
    };
    let Ok(header) = std::str::from_utf8(header) else {
        return;
    };
    let rest: Vec<&[u8]> = pieces.collect();

    // The assembler, as a connection drives it.
    let mut assembler = BinaryPacketAssembler::default();
    let first = assembler.push_text(header);
    check_state(&assembler, &first);
    let mut results = vec![first];
    for piece in &rest {
        let result = match piece.split_first() {
            Some((&TEXT, text)) => match std::str::from_utf8(text) {
                Ok(text) => assembler.push_text(text),
                Err(_) => continue,
            },
            _ => assembler.push_binary(piece.to_vec()),
        };
        check_state(&assembler, &result);
        results.push(result);
    }
    for result in results.into_iter().flatten().flatten() {
        let packet = &result.packet;
        if packet.kind.is_binary() {
            assert_eq!(result.buffers.len(), packet.attachments, "{packet:?}");
        } else {
            assert!(result.buffers.is_empty());
        }
        if let Err(e) = result.reconstructed_data() {
            panic!("completed packet {packet:?} does not reconstruct: {e}");
        }
    }

    // `reconstruct` directly, with however many buffers the input gave.
    if let Ok(packet) = Packet::parse(header) {
        if let Some(data) = &packet.data {
            let buffers: Vec<Vec<u8>> = rest.iter().map(|p| p.to_vec()).collect();
            let checked = check_placeholders(data, buffers.len());
            let rebuilt = reconstruct(data, &buffers);
            assert_eq!(rebuilt.as_ref().err(), checked.err().as_ref(), "data {data}");
        }
    }
});

/// The assembler's state after a push returned `last`.
fn check_state<T, E>(assembler: &BinaryPacketAssembler, last: &Result<Option<T>, E>) {
    match last {
        Err(_) => assert!(!assembler.is_pending(), "pending after an error"),
        Ok(None) => assert!(assembler.is_pending(), "incomplete but not pending"),
        Ok(Some(_)) => assert!(!assembler.is_pending(), "pending after completion"),
    }
}
