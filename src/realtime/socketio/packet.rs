//! Socket.IO v5 packets, carried in Engine.IO `message` packets:
//!
//! ```text
//! <type>[<#attachments>-][<namespace>,][<ack id>][<JSON data>]
//! ```
//!
//! The namespace is written only when it is not `/`. Binary attachments of BINARY_EVENT and
//! BINARY_ACK travel as separate Engine.IO binary messages after the header, referenced in the
//! data by `{"_placeholder":true,"num":n}` (see [`super::binary`]).
//!
//! Parsing ([`Packet::parse`]) is in [`super::parse`].

use serde_json::Value;

use super::binary;

/// The packet type, by its digit on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PacketKind {
    Connect,
    Disconnect,
    Event,
    Ack,
    ConnectError,
    BinaryEvent,
    BinaryAck,
}

impl PacketKind {
    /// The kind for a type digit (`b'0'`..=`b'6'`).
    pub fn from_byte(byte: u8) -> Option<PacketKind> {
        Some(match byte {
            b'0' => PacketKind::Connect,
            b'1' => PacketKind::Disconnect,
            b'2' => PacketKind::Event,
            b'3' => PacketKind::Ack,
            b'4' => PacketKind::ConnectError,
            b'5' => PacketKind::BinaryEvent,
            b'6' => PacketKind::BinaryAck,
            _ => return None,
        })
    }

    /// The type digit on the wire.
    pub fn digit(self) -> char {
        match self {
            PacketKind::Connect => '0',
            PacketKind::Disconnect => '1',
            PacketKind::Event => '2',
            PacketKind::Ack => '3',
            PacketKind::ConnectError => '4',
            PacketKind::BinaryEvent => '5',
            PacketKind::BinaryAck => '6',
        }
    }

    /// BINARY_EVENT or BINARY_ACK: the packet has an attachment count and is followed by buffers.
    pub fn is_binary(self) -> bool {
        matches!(self, PacketKind::BinaryEvent | PacketKind::BinaryAck)
    }
}

/// Event names the reference server refuses to receive (they are its own lifecycle events).
pub const RESERVED_EVENTS: [&str; 6] = [
    "connect",
    "connect_error",
    "disconnect",
    "disconnecting",
    "newListener",
    "removeListener",
];

/// One Socket.IO packet (for binary kinds: the header, with placeholders in `data`).
#[derive(Debug, Clone, PartialEq)]
pub struct Packet {
    pub kind: PacketKind,
    /// Always starts with `/`; the main namespace is `/`.
    pub namespace: String,
    pub ack_id: Option<u64>,
    pub data: Option<Value>,
    /// Number of binary buffers that follow (binary kinds only, 0 otherwise).
    pub attachments: usize,
}

/// Why a packet (or its binary attachments) was refused. Any of these closes the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("empty packet")]
    Empty,
    #[error("unknown packet type {0:?}")]
    UnknownType(char),
    #[error("invalid attachment count")]
    BadAttachments,
    #[error("ack id too large")]
    AckIdOverflow,
    #[error("ack packet without an ack id")]
    MissingAckId,
    #[error("data is not valid JSON, or has trailing garbage")]
    BadJson,
    #[error("missing data")]
    MissingPayload,
    #[error("data of the wrong shape for the packet type")]
    InvalidPayload,
    #[error("placeholder without a valid attachment index")]
    IllegalAttachments,
    #[error("more attachments than allowed")]
    TooManyAttachments,
    #[error("text packet while waiting for binary attachments")]
    UnexpectedText,
    #[error("binary buffer while no binary packet is being assembled")]
    UnexpectedBuffer,
}

impl Packet {
    fn new(kind: PacketKind, namespace: &str, ack_id: Option<u64>, data: Option<Value>) -> Packet {
        Packet {
            kind,
            namespace: namespace.to_owned(),
            ack_id,
            data,
            attachments: 0,
        }
    }

    /// CONNECT: from a client with optional auth data, from the server with `{"sid": …}`.
    pub fn connect(namespace: &str, data: Option<Value>) -> Packet {
        Packet::new(PacketKind::Connect, namespace, None, data)
    }

    pub fn disconnect(namespace: &str) -> Packet {
        Packet::new(PacketKind::Disconnect, namespace, None, None)
    }

    /// CONNECT_ERROR with `{"message": message}`.
    pub fn connect_error(namespace: &str, message: &str) -> Packet {
        let data = serde_json::json!({ "message": message });
        Packet::new(PacketKind::ConnectError, namespace, None, Some(data))
    }

    /// EVENT with data `[event, ...args]`.
    pub fn event(namespace: &str, event: &str, args: Vec<Value>, ack_id: Option<u64>) -> Packet {
        let mut data = Vec::with_capacity(args.len() + 1);
        data.push(Value::String(event.to_owned()));
        data.extend(args);
        Packet::new(
            PacketKind::Event,
            namespace,
            ack_id,
            Some(Value::Array(data)),
        )
    }

    /// ACK with data `[...args]`.
    pub fn ack(namespace: &str, ack_id: u64, args: Vec<Value>) -> Packet {
        Packet::new(
            PacketKind::Ack,
            namespace,
            Some(ack_id),
            Some(Value::Array(args)),
        )
    }

    /// The event name of an EVENT/BINARY_EVENT (a number name is given in decimal, as a
    /// JavaScript emitter would key it).
    pub fn event_name(&self) -> Option<String> {
        match self.data.as_ref()?.as_array()?.first()? {
            Value::String(name) => Some(name.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// The text form, exactly as the struct says (binary kinds keep their `attachments`).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        out.push(self.kind.digit());
        if self.kind.is_binary() {
            out.push_str(&self.attachments.to_string());
            out.push('-');
        }
        if !self.namespace.is_empty() && self.namespace != "/" {
            out.push_str(&self.namespace);
            out.push(',');
        }
        if let Some(id) = self.ack_id {
            out.push_str(&id.to_string());
        }
        if let Some(data) = &self.data {
            out.push_str(&data.to_string());
        }
        out
    }

    /// Encodes an EVENT or ACK whose data holds binary values ([`binary::binary_value`]) as a
    /// BINARY_EVENT/BINARY_ACK header plus its buffers, in order; other packets encode as is.
    pub fn encode_with_binary(&self) -> (String, Vec<Vec<u8>>) {
        let binary_kind = match self.kind {
            PacketKind::Event | PacketKind::BinaryEvent => PacketKind::BinaryEvent,
            PacketKind::Ack | PacketKind::BinaryAck => PacketKind::BinaryAck,
            _ => return (self.encode(), Vec::new()),
        };
        match &self.data {
            Some(data) if binary::has_binary(data) => {
                let (data, buffers) = binary::deconstruct(data);
                let header = Packet {
                    kind: binary_kind,
                    data: Some(data),
                    attachments: buffers.len(),
                    ..self.clone()
                };
                (header.encode(), buffers)
            }
            _ => (self.encode(), Vec::new()),
        }
    }
}

impl From<&Packet> for String {
    fn from(packet: &Packet) -> String {
        packet.encode()
    }
}

impl From<Packet> for String {
    fn from(packet: Packet) -> String {
        packet.encode()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;
    use PacketKind::*;

    fn p(kind: PacketKind, ns: &str, id: Option<u64>, data: Option<Value>, att: usize) -> Packet {
        Packet {
            kind,
            namespace: ns.to_owned(),
            ack_id: id,
            data,
            attachments: att,
        }
    }

    #[test]
    fn encodes_packets() {
        #[rustfmt::skip]
        let cases: Vec<(Packet, &str)> = vec![
            (Packet::connect("/", None), "0"),
            (Packet::connect("/", Some(json!({"sid":"wZX3oN0bSVIhsaknAAAI"}))), r#"0{"sid":"wZX3oN0bSVIhsaknAAAI"}"#),
            (Packet::connect("/admin", None), "0/admin,"),
            (Packet::connect("/admin", Some(json!({"sid":"oSO0"}))), r#"0/admin,{"sid":"oSO0"}"#),
            (Packet::connect("", None), "0"),
            (Packet::connect_error("/", "Not authorized"), r#"4{"message":"Not authorized"}"#),
            (Packet::connect_error("/random", "Invalid namespace"), r#"4/random,{"message":"Invalid namespace"}"#),
            (Packet::disconnect("/"), "1"),
            (Packet::disconnect("/admin"), "1/admin,"),
            (Packet::event("/", "foo", vec![], None), r#"2["foo"]"#),
            (Packet::event("/admin", "bar", vec![], None), r#"2/admin,["bar"]"#),
            (Packet::event("/", "hey", vec![json!("Jude")], None), r#"2["hey","Jude"]"#),
            (Packet::event("/", "foo", vec![], Some(12)), r#"212["foo"]"#),
            (Packet::event("/admin", "foo", vec![], Some(13)), r#"2/admin,13["foo"]"#),
            (Packet::event("/", "auth", vec![json!({})], None), r#"2["auth",{}]"#),
            (Packet::ack("/", 12, vec![]), "312[]"),
            (Packet::ack("/admin", 13, vec![json!("bar")]), r#"3/admin,13["bar"]"#),
            (Packet::ack("/", 0, vec![json!(null), json!(1.5)]), "30[null,1.5]"),
            (p(BinaryEvent, "/", None, Some(json!(["baz", {"_placeholder":true,"num":0}])), 1), r#"51-["baz",{"_placeholder":true,"num":0}]"#),
            (p(BinaryEvent, "/admin", Some(14), Some(json!(["x"])), 2), r#"52-/admin,14["x"]"#),
            (p(BinaryAck, "/admin", Some(1), Some(json!([{"_placeholder":true,"num":0}])), 1), r#"61-/admin,1[{"_placeholder":true,"num":0}]"#),
            (p(Event, "/", None, Some(json!(["a\"b\n€"])), 0), r#"2["a\"b\n€"]"#),
        ];
        for (packet, expected) in cases {
            assert_eq!(packet.encode(), expected, "packet {packet:?}");
            assert_eq!(String::from(&packet), expected);
        }
    }

    /// Found by the fuzzer: without serde_json's float_roundtrip, some floats read one ULP off,
    /// so a server relaying an event altered the numbers in it.
    #[test]
    fn numbers_survive_parse_and_encode_exactly() {
        let cases = [
            r#"2["f",1e-190]"#,
            r#"2["f",1.5,-0.0,1e300]"#,
            r#"2["f",-12345678902376841590]"#,
            r#"2["f",0.1,0.2,0.30000000000000004]"#,
        ];
        for text in cases {
            let once = Packet::parse(text).unwrap();
            let again = Packet::parse(&once.encode()).unwrap();
            assert_eq!(again, once, "{text} became {}", once.encode());
        }
    }

    #[test]
    fn encoded_packets_parse_back() {
        let packets = vec![
            Packet::connect("/", None),
            Packet::connect("/ünïcode", Some(json!({"k":[1,2,{"x":null}]}))),
            Packet::connect_error("/x", "nope"),
            Packet::disconnect("/admin"),
            Packet::event(
                "/",
                "e",
                vec![json!(1), json!("two"), json!({"3":[true]})],
                Some(u64::MAX),
            ),
            Packet::ack("/n", 7, vec![json!([[[]]])]),
            p(
                BinaryEvent,
                "/",
                Some(3),
                Some(json!(["b", {"_placeholder":true,"num":0}])),
                1,
            ),
            p(BinaryAck, "/z", Some(4), Some(json!([])), 0),
        ];
        for packet in packets {
            assert_eq!(
                Packet::parse(&packet.encode()),
                Ok(packet.clone()),
                "packet {packet:?}"
            );
        }
    }

    #[test]
    fn event_names() {
        #[rustfmt::skip]
        let cases: Vec<(&str, Option<&str>)> = vec![
            (r#"2["foo",1]"#, Some("foo")),
            (r#"2[42]"#, Some("42")),
            (r#"2[1.5]"#, Some("1.5")),
            (r#"51-["bin",{"_placeholder":true,"num":0}]"#, Some("bin")),
            ("312[]", None),
            ("0", None),
        ];
        for (input, expected) in cases {
            assert_eq!(
                Packet::parse(input).unwrap().event_name().as_deref(),
                expected,
                "input {input:?}"
            );
        }
    }

    #[test]
    fn kinds_round_trip_through_digits() {
        for byte in 0..=255u8 {
            if let Some(kind) = PacketKind::from_byte(byte) {
                assert_eq!(kind.digit() as u32, u32::from(byte));
                assert_eq!(kind.is_binary(), byte == b'5' || byte == b'6');
            } else {
                assert!(!(b'0'..=b'6').contains(&byte));
            }
        }
    }
}
