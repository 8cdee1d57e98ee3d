//! The HTTP long-polling payload of Engine.IO v4: text packets joined by the record separator
//! `\x1e`, binary packets written as `b<base64>`.
//!
//! ```text
//! 4hello\x1e2\x1e4world\x1ebAQIDBA==
//! ```
//!
//! The protocol assumes the separator never occurs inside a packet; [`encode_payload`] does not
//! check it, so callers must not put `\x1e` in messages sent over polling.

use super::base64;
use super::packet::{Packet, PacketError};

/// The record separator between packets.
pub const SEPARATOR: char = '\x1e';

/// Why a polling payload was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    /// The body is longer than `max_payload` bytes.
    #[error("payload larger than the maximum")]
    TooLarge,
    /// An empty body, or an empty packet between two separators or at either end.
    #[error("empty packet in payload")]
    EmptyPacket,
    /// A packet of the payload (counted from 0) is not valid.
    #[error("invalid packet #{index} in payload: {error}")]
    BadPacket { index: usize, error: PacketError },
}

/// Decodes one packet of a polling payload: a text packet, or `b<base64>` for binary.
pub fn decode_packet(segment: &str) -> Result<Packet, PacketError> {
    match segment.strip_prefix('b') {
        Some(b64) => base64::decode(b64)
            .map(Packet::Binary)
            .map_err(|_| PacketError::BadBase64),
        None => Packet::parse_text(segment),
    }
}

/// Decodes a POSTed polling body of at most `max_payload` bytes.
pub fn decode_payload(body: &str, max_payload: usize) -> Result<Vec<Packet>, PayloadError> {
    if body.len() > max_payload {
        return Err(PayloadError::TooLarge);
    }
    body.split(SEPARATOR)
        .enumerate()
        .map(|(index, segment)| {
            if segment.is_empty() {
                return Err(PayloadError::EmptyPacket);
            }
            decode_packet(segment).map_err(|error| PayloadError::BadPacket { index, error })
        })
        .collect()
}

/// Encodes packets for the body of a polling GET response.
pub fn encode_payload(packets: &[Packet]) -> String {
    let mut out = String::new();
    for (i, packet) in packets.iter().enumerate() {
        if i > 0 {
            out.push(SEPARATOR);
        }
        match packet {
            Packet::Binary(bytes) => {
                out.push('b');
                out.push_str(&base64::encode(bytes));
            }
            // `encode_text` is `None` only for binary packets, handled above.
            other => out.push_str(&other.encode_text().unwrap_or_default()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const MAX: usize = 1_000_000;

    fn msg(s: &str) -> Packet {
        Packet::Message(s.to_owned())
    }

    fn bin(b: &[u8]) -> Packet {
        Packet::Binary(b.to_vec())
    }

    fn bad(index: usize, error: PacketError) -> PayloadError {
        PayloadError::BadPacket { index, error }
    }

    #[test]
    fn decodes_payloads() {
        #[rustfmt::skip]
        let cases: Vec<(&str, Vec<Packet>)> = vec![
            ("4hello", vec![msg("hello")]),
            ("4", vec![msg("")]),
            ("4hello\x1e2\x1e4world", vec![msg("hello"), Packet::Ping(None), msg("world")]),
            ("4hello\x1ebAQIDBA==", vec![msg("hello"), bin(&[1, 2, 3, 4])]),
            ("bAQIDBA==", vec![bin(&[1, 2, 3, 4])]),
            ("bAQIDBA", vec![bin(&[1, 2, 3, 4])]),
            ("b", vec![bin(&[])]),
            ("4€€€\x1e4€", vec![msg("€€€"), msg("€")]),
            ("42[\"hello\"]\x1e42[\"world\"]", vec![msg("2[\"hello\"]"), msg("2[\"world\"]")]),
            ("3\x1e3probe\x1e5\x1e1", vec![Packet::Pong(None), Packet::Pong(Some("probe".into())), Packet::Upgrade, Packet::Close]),
            ("6", vec![Packet::Noop]),
            ("4b", vec![msg("b")]),
            ("4\n\x1e4\r", vec![msg("\n"), msg("\r")]),
        ];
        for (input, expected) in cases {
            assert_eq!(decode_payload(input, MAX), Ok(expected), "input {input:?}");
        }
    }

    #[test]
    fn rejects_bad_payloads() {
        #[rustfmt::skip]
        let cases: &[(&str, usize, PayloadError)] = &[
            ("", MAX, PayloadError::EmptyPacket),
            ("\x1e", MAX, PayloadError::EmptyPacket),
            ("4a\x1e", MAX, PayloadError::EmptyPacket),
            ("\x1e4a", MAX, PayloadError::EmptyPacket),
            ("4a\x1e\x1e4b", MAX, PayloadError::EmptyPacket),
            ("abc", MAX, bad(0, PacketError::UnknownType('a'))),
            ("4a\x1e9", MAX, bad(1, PacketError::UnknownType('9'))),
            ("4a\x1e4b\x1e1x", MAX, bad(2, PacketError::UnexpectedData)),
            ("b!!!!", MAX, bad(0, PacketError::BadBase64)),
            ("bAQIDBA=", MAX, bad(0, PacketError::BadBase64)),
            ("bA", MAX, bad(0, PacketError::BadBase64)),
            ("B", MAX, bad(0, PacketError::UnknownType('B'))),
            ("6:4hello", MAX, bad(0, PacketError::UnexpectedData)),
            ("1:2", MAX, bad(0, PacketError::UnexpectedData)),
            ("0{}", MAX, bad(0, PacketError::BadOpen)),
            ("4hello", 5, PayloadError::TooLarge),
            ("4€", 3, PayloadError::TooLarge),
        ];
        for (input, max, expected) in cases {
            assert_eq!(
                decode_payload(input, *max),
                Err(*expected),
                "input {input:?}"
            );
        }
    }

    #[test]
    fn size_limit_counts_bytes_inclusively() {
        #[rustfmt::skip]
        let cases: &[(&str, usize, bool)] = &[
            ("4hello", 6, true),
            ("4hello", 7, true),
            ("4hello", 5, false),
            ("4€", 4, true),
            ("4€", 3, false),
            ("4a\x1e4b", 5, true),
            ("4a\x1e4b", 4, false),
        ];
        for (input, max, ok) in cases {
            assert_eq!(
                decode_payload(input, *max).is_ok(),
                *ok,
                "input {input:?} max {max}"
            );
        }
    }

    #[test]
    fn encodes_payloads() {
        #[rustfmt::skip]
        let cases: Vec<(Vec<Packet>, &str)> = vec![
            (vec![], ""),
            (vec![msg("hello")], "4hello"),
            (vec![msg("hello"), Packet::Ping(None), msg("world")], "4hello\x1e2\x1e4world"),
            (vec![msg("hello"), bin(&[1, 2, 3, 4])], "4hello\x1ebAQIDBA=="),
            (vec![msg("hello"), bin(&[1, 2, 3])], "4hello\x1ebAQID"),
            (vec![bin(&[])], "b"),
            (vec![msg("€€€"), msg("€")], "4€€€\x1e4€"),
            (vec![Packet::Noop], "6"),
            (vec![Packet::Close, Packet::Noop], "1\x1e6"),
            (vec![Packet::Pong(Some("probe".into()))], "3probe"),
        ];
        for (packets, expected) in cases {
            assert_eq!(encode_payload(&packets), expected, "packets {packets:?}");
        }
    }

    #[test]
    fn payloads_round_trip() {
        let payloads = vec![
            vec![msg("")],
            vec![msg(""), msg("")],
            vec![bin(&[]), bin(&[0]), bin(&[0, 1]), bin(&[0, 1, 2])],
            vec![
                msg("2[\"a\",{\"_placeholder\":true,\"num\":0}]"),
                bin(&[255, 254, 253]),
            ],
            vec![
                Packet::Ping(Some("probe".into())),
                Packet::Upgrade,
                Packet::Noop,
            ],
        ];
        for packets in payloads {
            let body = encode_payload(&packets);
            assert_eq!(
                decode_payload(&body, MAX).unwrap(),
                packets,
                "body {body:?}"
            );
        }
    }
}
