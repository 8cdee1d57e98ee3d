//! Engine.IO v4 packets: `<type digit>[<data>]` in text, raw bytes in binary WebSocket frames.
//!
//! | type | id | data |
//! |---|---|---|
//! | open | 0 | the handshake, JSON ([`OpenPayload`]) |
//! | close | 1 | none |
//! | ping | 2 | optional, e.g. `probe` |
//! | pong | 3 | optional, e.g. `probe` |
//! | message | 4 | any text (possibly empty) |
//! | upgrade | 5 | none |
//! | noop | 6 | none |
//!
//! A binary message has no type digit in v4: it is a binary WebSocket frame as is, or `b<base64>`
//! inside a long-polling payload (see [`super::payload`]).

use serde::{Deserialize, Serialize};

/// The handshake data of the `open` packet, serialised in camelCase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenPayload {
    pub sid: String,
    pub upgrades: Vec<String>,
    /// Milliseconds between two server pings.
    pub ping_interval: u64,
    /// Milliseconds the client has to answer a ping.
    pub ping_timeout: u64,
    /// Bytes per long-polling payload the client may send.
    pub max_payload: u64,
}

/// One Engine.IO packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Packet {
    Open(OpenPayload),
    Close,
    Ping(Option<String>),
    Pong(Option<String>),
    Message(String),
    Binary(Vec<u8>),
    Upgrade,
    Noop,
}

/// Why a text packet could not be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    #[error("empty packet")]
    Empty,
    #[error("unknown packet type {0:?}")]
    UnknownType(char),
    #[error("invalid open packet")]
    BadOpen,
    #[error("unexpected data after a close, upgrade or noop packet")]
    UnexpectedData,
    #[error("invalid base64 in a binary packet")]
    BadBase64,
}

impl Packet {
    /// Parses a text packet (a WebSocket text frame, or one segment of a polling payload).
    ///
    /// `b<base64>` is not accepted here: it only exists inside polling payloads, where
    /// [`super::payload::decode_payload`] handles it.
    pub fn parse_text(text: &str) -> Result<Packet, PacketError> {
        let mut chars = text.chars();
        let kind = chars.next().ok_or(PacketError::Empty)?;
        let data = chars.as_str();
        let optional = |data: &str| (!data.is_empty()).then(|| data.to_owned());
        let no_data = |packet: Packet| {
            if data.is_empty() {
                Ok(packet)
            } else {
                Err(PacketError::UnexpectedData)
            }
        };
        match kind {
            '0' => serde_json::from_str(data)
                .map(Packet::Open)
                .map_err(|_| PacketError::BadOpen),
            '1' => no_data(Packet::Close),
            '2' => Ok(Packet::Ping(optional(data))),
            '3' => Ok(Packet::Pong(optional(data))),
            '4' => Ok(Packet::Message(data.to_owned())),
            '5' => no_data(Packet::Upgrade),
            '6' => no_data(Packet::Noop),
            other => Err(PacketError::UnknownType(other)),
        }
    }

    /// A binary WebSocket frame: in v4 it is a binary message, with no type byte.
    pub fn from_binary_frame(bytes: Vec<u8>) -> Packet {
        Packet::Binary(bytes)
    }

    /// The text form of the packet; `None` for [`Packet::Binary`], which is sent as a binary
    /// frame (WebSocket) or as `b<base64>` (polling payload).
    pub fn encode_text(&self) -> Option<String> {
        let text = match self {
            Packet::Open(open) => format!("0{}", open_json(open)),
            Packet::Close => "1".to_owned(),
            Packet::Ping(data) => format!("2{}", data.as_deref().unwrap_or_default()),
            Packet::Pong(data) => format!("3{}", data.as_deref().unwrap_or_default()),
            Packet::Message(data) => format!("4{data}"),
            Packet::Upgrade => "5".to_owned(),
            Packet::Noop => "6".to_owned(),
            Packet::Binary(_) => return None,
        };
        Some(text)
    }
}

/// Serialises the handshake in the spec's key order. Serialising strings and integers cannot
/// fail, so the empty fallback is never used.
fn open_json(open: &OpenPayload) -> String {
    serde_json::to_string(open).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn msg(s: &str) -> Packet {
        Packet::Message(s.to_owned())
    }

    fn some(s: &str) -> Option<String> {
        Some(s.to_owned())
    }

    fn open() -> OpenPayload {
        OpenPayload {
            sid: "lv_VI97HAXpY6yYWAAAC".to_owned(),
            upgrades: vec!["websocket".to_owned()],
            ping_interval: 25000,
            ping_timeout: 20000,
            max_payload: 1_000_000,
        }
    }

    const OPEN_TEXT: &str = r#"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#;

    #[test]
    fn parses_text_packets() {
        #[rustfmt::skip]
        let cases: Vec<(&str, Packet)> = vec![
            (OPEN_TEXT, Packet::Open(open())),
            ("1", Packet::Close),
            ("2", Packet::Ping(None)),
            ("2probe", Packet::Ping(some("probe"))),
            ("3", Packet::Pong(None)),
            ("3probe", Packet::Pong(some("probe"))),
            ("4", msg("")),
            ("4hello", msg("hello")),
            ("4€€€", msg("€€€")),
            ("44", msg("4")),
            ("40", msg("0")),
            ("42[\"foo\"]", msg("2[\"foo\"]")),
            ("4 \n\t", msg(" \n\t")),
            ("4b", msg("b")),
            ("5", Packet::Upgrade),
            ("6", Packet::Noop),
        ];
        for (input, expected) in cases {
            assert_eq!(Packet::parse_text(input), Ok(expected), "input {input:?}");
        }
    }

    #[test]
    fn rejects_bad_text_packets() {
        #[rustfmt::skip]
        let cases: &[(&str, PacketError)] = &[
            ("", PacketError::Empty),
            ("7", PacketError::UnknownType('7')),
            ("9hello", PacketError::UnknownType('9')),
            ("abc", PacketError::UnknownType('a')),
            ("bAQIDBA==", PacketError::UnknownType('b')),
            ("€4", PacketError::UnknownType('€')),
            (" 4hello", PacketError::UnknownType(' ')),
            ("\u{1e}4", PacketError::UnknownType('\u{1e}')),
            ("0", PacketError::BadOpen),
            ("0{}", PacketError::BadOpen),
            ("0{\"sid\":\"x\"}", PacketError::BadOpen),
            ("0[]", PacketError::BadOpen),
            ("0null", PacketError::BadOpen),
            (r#"0{"sid":"a","upgrades":[],"pingInterval":-1,"pingTimeout":1,"maxPayload":1}"#, PacketError::BadOpen),
            (r#"0{"sid":"a","upgrades":[],"pingInterval":1,"pingTimeout":1,"maxPayload":1}x"#, PacketError::BadOpen),
            ("1x", PacketError::UnexpectedData),
            ("5probe", PacketError::UnexpectedData),
            ("6 ", PacketError::UnexpectedData),
        ];
        for (input, expected) in cases {
            assert_eq!(Packet::parse_text(input), Err(*expected), "input {input:?}");
        }
    }

    #[test]
    fn encodes_text_packets() {
        #[rustfmt::skip]
        let cases: Vec<(Packet, Option<&str>)> = vec![
            (Packet::Open(open()), Some(OPEN_TEXT)),
            (Packet::Close, Some("1")),
            (Packet::Ping(None), Some("2")),
            (Packet::Ping(some("probe")), Some("2probe")),
            (Packet::Pong(None), Some("3")),
            (Packet::Pong(some("probe")), Some("3probe")),
            (msg(""), Some("4")),
            (msg("hello"), Some("4hello")),
            (msg("€€€"), Some("4€€€")),
            (Packet::Upgrade, Some("5")),
            (Packet::Noop, Some("6")),
            (Packet::Binary(vec![1, 2, 3]), None),
            (Packet::Binary(vec![]), None),
        ];
        for (packet, expected) in cases {
            assert_eq!(
                packet.encode_text().as_deref(),
                expected,
                "packet {packet:?}"
            );
        }
    }

    #[test]
    fn text_packets_round_trip() {
        let packets = vec![
            Packet::Open(open()),
            Packet::Open(OpenPayload {
                upgrades: vec![],
                ..open()
            }),
            Packet::Close,
            Packet::Ping(None),
            Packet::Ping(some("probe")),
            Packet::Pong(some("probe")),
            msg(""),
            msg("{\"a\":[1,2]}"),
            msg("\u{1f355} 披萨"),
            Packet::Upgrade,
            Packet::Noop,
        ];
        for packet in packets {
            let text = packet.encode_text().unwrap();
            assert_eq!(Packet::parse_text(&text), Ok(packet), "text {text:?}");
        }
    }

    #[test]
    fn binary_frames_are_binary_messages() {
        #[rustfmt::skip]
        let cases: &[&[u8]] = &[&[], &[1, 2, 3, 4], &[4, 1, 2], b"4hello", &[0xff; 300]];
        for bytes in cases {
            assert_eq!(
                Packet::from_binary_frame(bytes.to_vec()),
                Packet::Binary(bytes.to_vec())
            );
        }
    }

    #[test]
    fn open_payload_is_camel_case() {
        let value = serde_json::to_value(open()).unwrap();
        assert_eq!(
            value,
            serde_json::from_str::<serde_json::Value>(&OPEN_TEXT[1..]).unwrap()
        );
    }
}
