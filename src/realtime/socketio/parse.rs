//! [`Packet::parse`]: the text form of a Socket.IO v5 packet, validated.
//!
//! Follows socket.io-parser's `decodeString` and `isPayloadValid` (the reference server's
//! decoder), minus its JavaScript number coercions: the attachment count and the ack id must be
//! ASCII digits that fit the integer type. One strictness of ours: an ACK needs an ack id.

use serde_json::Value;

use super::packet::{Packet, PacketKind, ParseError, RESERVED_EVENTS};

impl Packet {
    /// Parses the text form (without the Engine.IO `4` prefix).
    pub fn parse(text: &str) -> Result<Packet, ParseError> {
        let bytes = text.as_bytes();
        let first = *bytes.first().ok_or(ParseError::Empty)?;
        let kind = PacketKind::from_byte(first)
            .ok_or_else(|| ParseError::UnknownType(text.chars().next().unwrap_or_default()))?;
        let mut i = 1;

        let mut attachments = 0;
        if kind.is_binary() {
            let dash = find(bytes, i, b'-').ok_or(ParseError::BadAttachments)?;
            attachments = parse_digits(&text[i..dash]).ok_or(ParseError::BadAttachments)?;
            i = dash + 1;
        }

        let mut namespace = "/";
        if bytes.get(i) == Some(&b'/') {
            // Up to the comma, or to the end: `40/admin` is accepted like `40/admin,`.
            let end = find(bytes, i, b',').unwrap_or(bytes.len());
            namespace = &text[i..end];
            i = (end + 1).min(bytes.len());
        }

        let digits_end = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |p| p + i);
        let ack_id = if digits_end > i {
            Some(parse_digits(&text[i..digits_end]).ok_or(ParseError::AckIdOverflow)?)
        } else {
            None
        };

        let rest = &text[digits_end..];
        let data = if rest.is_empty() {
            None
        } else {
            Some(serde_json::from_str::<Value>(rest).map_err(|_| ParseError::BadJson)?)
        };

        let packet = Packet {
            kind,
            namespace: namespace.to_owned(),
            ack_id,
            data,
            attachments,
        };
        packet.validate()?;
        Ok(packet)
    }

    /// Checks the data shape for the kind, as the reference parser's `isPayloadValid`.
    fn validate(&self) -> Result<(), ParseError> {
        let data = self.data.as_ref();
        let valid = match self.kind {
            PacketKind::Connect => data.is_none_or(Value::is_object),
            PacketKind::Disconnect => data.is_none(),
            PacketKind::ConnectError => data.is_none_or(|d| d.is_object() || d.is_string()),
            PacketKind::Event | PacketKind::BinaryEvent => {
                let args = data.ok_or(ParseError::MissingPayload)?.as_array();
                match args.and_then(|a| a.first()) {
                    Some(Value::String(name)) => !RESERVED_EVENTS.contains(&name.as_str()),
                    Some(Value::Number(_)) => true,
                    _ => false,
                }
            }
            PacketKind::Ack | PacketKind::BinaryAck => {
                if self.ack_id.is_none() {
                    return Err(ParseError::MissingAckId);
                }
                data.ok_or(ParseError::MissingPayload)?.is_array()
            }
        };
        if valid {
            Ok(())
        } else {
            Err(ParseError::InvalidPayload)
        }
    }
}

fn find(bytes: &[u8], from: usize, needle: u8) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b == needle)
        .map(|p| p + from)
}

/// One or more ASCII digits that fit `T`.
fn parse_digits<T: std::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
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
    fn parses_valid_packets() {
        let ph = |n: u64| json!({"_placeholder": true, "num": n});
        #[rustfmt::skip]
        let cases: Vec<(&str, Packet)> = vec![
            ("0", p(Connect, "/", None, None, 0)),
            (r#"0{"token":"123"}"#, p(Connect, "/", None, Some(json!({"token":"123"})), 0)),
            (r#"0{"sid":"wZX3oN0bSVIhsaknAAAI"}"#, p(Connect, "/", None, Some(json!({"sid":"wZX3oN0bSVIhsaknAAAI"})), 0)),
            ("0/admin,", p(Connect, "/admin", None, None, 0)),
            ("0/admin", p(Connect, "/admin", None, None, 0)),
            ("0/,", p(Connect, "/", None, None, 0)),
            ("01", p(Connect, "/", Some(1), None, 0)),
            ("44", p(ConnectError, "/", Some(4), None, 0)),
            (r#"0/admin,{"token":"abc"}"#, p(Connect, "/admin", None, Some(json!({"token":"abc"})), 0)),
            (r#"0/a/b c€,{}"#, p(Connect, "/a/b c€", None, Some(json!({})), 0)),
            ("1", p(Disconnect, "/", None, None, 0)),
            ("1/admin,", p(Disconnect, "/admin", None, None, 0)),
            ("1/custom", p(Disconnect, "/custom", None, None, 0)),
            (r#"2["foo"]"#, p(Event, "/", None, Some(json!(["foo"])), 0)),
            (r#"2/admin,["bar"]"#, p(Event, "/admin", None, Some(json!(["bar"])), 0)),
            (r#"2["message",1,"2",{"3":[true]}]"#, p(Event, "/", None, Some(json!(["message",1,"2",{"3":[true]}])), 0)),
            (r#"212["foo"]"#, p(Event, "/", Some(12), Some(json!(["foo"])), 0)),
            (r#"2/admin,13["foo"]"#, p(Event, "/admin", Some(13), Some(json!(["foo"])), 0)),
            (r#"20["foo"]"#, p(Event, "/", Some(0), Some(json!(["foo"])), 0)),
            (r#"2007["foo"]"#, p(Event, "/", Some(7), Some(json!(["foo"])), 0)),
            (r#"218446744073709551615["x"]"#, p(Event, "/", Some(u64::MAX), Some(json!(["x"])), 0)),
            (r#"2[42]"#, p(Event, "/", None, Some(json!([42])), 0)),
            (r#"2["connection"]"#, p(Event, "/", None, Some(json!(["connection"])), 0)),
            (r#"2 ["foo"] "#, p(Event, "/", None, Some(json!(["foo"])), 0)),
            (r#"2["披萨",{"_placeholder":true,"num":0}]"#, p(Event, "/", None, Some(json!(["披萨", ph(0)])), 0)),
            ("312[]", p(Ack, "/", Some(12), Some(json!([])), 0)),
            (r#"3/admin,13["bar"]"#, p(Ack, "/admin", Some(13), Some(json!(["bar"])), 0)),
            (r#"4{"message":"Not authorized"}"#, p(ConnectError, "/", None, Some(json!({"message":"Not authorized"})), 0)),
            (r#"4/random,{"message":"Invalid namespace"}"#, p(ConnectError, "/random", None, Some(json!({"message":"Invalid namespace"})), 0)),
            (r#"4"Not authorized""#, p(ConnectError, "/", None, Some(json!("Not authorized")), 0)),
            ("4", p(ConnectError, "/", None, None, 0)),
            (r#"51-["baz",{"_placeholder":true,"num":0}]"#, p(BinaryEvent, "/", None, Some(json!(["baz", ph(0)])), 1)),
            (r#"52-/admin,["baz",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#, p(BinaryEvent, "/admin", None, Some(json!(["baz", ph(0), ph(1)])), 2)),
            (r#"51-14["foo",{"_placeholder":true,"num":0}]"#, p(BinaryEvent, "/", Some(14), Some(json!(["foo", ph(0)])), 1)),
            (r#"50-["nothing"]"#, p(BinaryEvent, "/", None, Some(json!(["nothing"])), 0)),
            (r#"61-15["bar",{"_placeholder":true,"num":0}]"#, p(BinaryAck, "/", Some(15), Some(json!(["bar", ph(0)])), 1)),
            (r#"61-/admin,1[{"_placeholder":true,"num":0}]"#, p(BinaryAck, "/admin", Some(1), Some(json!([ph(0)])), 1)),
            (r#"6010-2[]"#, p(BinaryAck, "/", Some(2), Some(json!([])), 10)),
        ];
        for (input, expected) in cases {
            assert_eq!(Packet::parse(input), Ok(expected), "input {input:?}");
        }
    }

    #[test]
    fn rejects_invalid_packets() {
        use ParseError::*;
        #[rustfmt::skip]
        let cases: &[(&str, ParseError)] = &[
            ("", Empty),
            ("7", UnknownType('7')),
            ("abc", UnknownType('a')),
            ("€", UnknownType('€')),
            (" 2[\"a\"]", UnknownType(' ')),
            ("-1", UnknownType('-')),
            ("0[]", InvalidPayload),
            ("0\"token\"", InvalidPayload),
            ("0null", InvalidPayload),
            ("0admin,", BadJson),
            ("0{", BadJson),
            ("0{}x", BadJson),
            ("0{}{}", BadJson),
            ("0/admin,{\"a\":1}]", BadJson),
            ("1{}", InvalidPayload),
            ("1[]", InvalidPayload),
            ("1/admin,null", InvalidPayload),
            ("2", MissingPayload),
            ("2/admin,", MissingPayload),
            ("212", MissingPayload),
            ("2[]", InvalidPayload),
            ("2{}", InvalidPayload),
            ("2\"foo\"", InvalidPayload),
            ("2[null]", InvalidPayload),
            ("2[true]", InvalidPayload),
            ("2[[\"a\"]]", InvalidPayload),
            ("2[{\"a\":1}]", InvalidPayload),
            ("2[\"connect\"]", InvalidPayload),
            ("2[\"disconnect\",1]", InvalidPayload),
            ("2[\"newListener\"]", InvalidPayload),
            ("2[\"foo\"]x", BadJson),
            ("2[\"foo\"]]", BadJson),
            ("2[\"foo\"", BadJson),
            ("2[\"foo\"] [1]", BadJson),
            ("2/admin[\"foo\"]", MissingPayload),
            ("21-[\"foo\"]", BadJson),
            ("218446744073709551616[\"x\"]", AckIdOverflow),
            ("299999999999999999999999[\"x\"]", AckIdOverflow),
            ("3", MissingAckId),
            ("3[]", MissingAckId),
            ("31", MissingPayload),
            ("31{}", InvalidPayload),
            ("31\"a\"", InvalidPayload),
            ("4[]", InvalidPayload),
            ("4true", InvalidPayload),
            ("4null", InvalidPayload),
            ("5", BadAttachments),
            ("5[\"a\"]", BadAttachments),
            ("5-[\"a\"]", BadAttachments),
            ("5a-[\"a\"]", BadAttachments),
            ("5 1-[\"a\"]", BadAttachments),
            ("5+1-[\"a\"]", BadAttachments),
            ("5[\"a-b\"]", BadAttachments),
            ("5/admin,1-[\"a\"]", BadAttachments),
            ("599999999999999999999999-[\"a\"]", BadAttachments),
            ("51-", MissingPayload),
            ("51-[]", InvalidPayload),
            ("51-{}", InvalidPayload),
            ("6", BadAttachments),
            ("61-[]", MissingAckId),
            ("61-1{}", InvalidPayload),
        ];
        for (input, expected) in cases {
            assert_eq!(Packet::parse(input), Err(*expected), "input {input:?}");
        }
    }
}
