//! Binary attachments of Socket.IO v5.
//!
//! `serde_json::Value` has no bytes type, so inside a value a binary blob is written as the
//! object `{"$binary": "<base64>"}` ([`binary_value`], [`as_binary`]). On the wire the blob is
//! replaced by `{"_placeholder":true,"num":n}` and sent as the n-th buffer after the header
//! ([`deconstruct`]); [`reconstruct`] puts the blobs back. The assembler that collects a header
//! and its buffers on a connection is in [`super::assembler`].

use serde_json::{Map, Value};

use super::packet::ParseError;
use crate::realtime::engineio::base64;

/// The key of the in-memory binary marker object.
pub const BINARY_KEY: &str = "$binary";

/// The in-memory form of a binary blob: `{"$binary": "<base64>"}`.
pub fn binary_value(bytes: &[u8]) -> Value {
    let mut map = Map::new();
    map.insert(BINARY_KEY.to_owned(), Value::String(base64::encode(bytes)));
    Value::Object(map)
}

/// The bytes of a binary marker (an object with the single key `$binary` holding valid base64).
pub fn as_binary(value: &Value) -> Option<Vec<u8>> {
    let map = value.as_object()?;
    if map.len() != 1 {
        return None;
    }
    base64::decode(map.get(BINARY_KEY)?.as_str()?).ok()
}

/// Whether a value holds a binary marker anywhere.
pub fn has_binary(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(has_binary),
        Value::Object(map) => as_binary(value).is_some() || map.values().any(has_binary),
        _ => false,
    }
}

/// Replaces binary markers by placeholders numbered in depth-first order, returning the buffers.
pub fn deconstruct(value: &Value) -> (Value, Vec<Vec<u8>>) {
    fn walk(value: &Value, buffers: &mut Vec<Vec<u8>>) -> Value {
        if let Some(bytes) = as_binary(value) {
            let placeholder = serde_json::json!({ "_placeholder": true, "num": buffers.len() });
            buffers.push(bytes);
            return placeholder;
        }
        match value {
            Value::Array(items) => Value::Array(items.iter().map(|v| walk(v, buffers)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), walk(v, buffers)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    let mut buffers = Vec::new();
    let value = walk(value, &mut buffers);
    (value, buffers)
}

/// `Some(index)` for a placeholder (an object whose `_placeholder` is `true`), checked against
/// the number of buffers; `None` for any other value.
fn placeholder(value: &Value, count: usize) -> Option<Result<usize, ParseError>> {
    let map = value.as_object()?;
    if map.get("_placeholder") != Some(&Value::Bool(true)) {
        return None;
    }
    let index = map
        .get("num")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok());
    Some(
        index
            .filter(|&n| n < count)
            .ok_or(ParseError::IllegalAttachments),
    )
}

/// Checks that every placeholder refers to one of `count` buffers.
pub fn check_placeholders(value: &Value, count: usize) -> Result<(), ParseError> {
    if let Some(index) = placeholder(value, count) {
        return index.map(|_| ());
    }
    match value {
        Value::Array(items) => items.iter().try_for_each(|v| check_placeholders(v, count)),
        Value::Object(map) => map.values().try_for_each(|v| check_placeholders(v, count)),
        _ => Ok(()),
    }
}

/// Replaces placeholders by binary markers holding the referenced buffers.
pub fn reconstruct(value: &Value, buffers: &[Vec<u8>]) -> Result<Value, ParseError> {
    if let Some(index) = placeholder(value, buffers.len()) {
        return index.map(|n| binary_value(&buffers[n]));
    }
    Ok(match value {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| reconstruct(v, buffers))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), reconstruct(v, buffers)?)))
                .collect::<Result<_, ParseError>>()?,
        ),
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::realtime::socketio::packet::Packet;
    use serde_json::json;

    fn ph(n: u64) -> Value {
        json!({"_placeholder": true, "num": n})
    }

    fn bin(b: &[u8]) -> Value {
        binary_value(b)
    }

    #[test]
    fn binary_markers() {
        #[rustfmt::skip]
        let cases: Vec<(Value, Option<Vec<u8>>)> = vec![
            (bin(&[1, 2, 3, 4]), Some(vec![1, 2, 3, 4])),
            (bin(&[]), Some(vec![])),
            (json!({"$binary": "AQIDBA=="}), Some(vec![1, 2, 3, 4])),
            (json!({"$binary": "AQIDBA==", "x": 1}), None),
            (json!({"$binary": "!!"}), None),
            (json!({"$binary": 5}), None),
            (json!({"binary": "AQID"}), None),
            (json!(["$binary", "AQID"]), None),
            (json!("AQID"), None),
        ];
        for (value, expected) in cases {
            assert_eq!(as_binary(&value), expected, "value {value}");
        }
    }

    #[test]
    fn finds_binary() {
        #[rustfmt::skip]
        let cases: Vec<(Value, bool)> = vec![
            (json!(["a", 1, {"b": [null]}]), false),
            (json!(["a", bin(&[1])]), true),
            (json!(["a", {"deep": [[bin(&[])]]}]), true),
            (json!({"k": bin(&[9])}), true),
            (json!(["a", ph(0)]), false),
            (json!(null), false),
        ];
        for (value, expected) in cases {
            assert_eq!(has_binary(&value), expected, "value {value}");
        }
    }

    #[test]
    fn deconstructs_and_reconstructs() {
        #[rustfmt::skip]
        let cases: Vec<(Value, Value, Vec<Vec<u8>>)> = vec![
            (json!(["baz", bin(&[1, 2, 3, 4])]), json!(["baz", ph(0)]), vec![vec![1, 2, 3, 4]]),
            (json!(["baz", bin(&[1, 2]), bin(&[3, 4])]), json!(["baz", ph(0), ph(1)]), vec![vec![1, 2], vec![3, 4]]),
            (json!(["a", {"x": [bin(&[7])], "y": 2}]), json!(["a", {"x": [ph(0)], "y": 2}]), vec![vec![7]]),
            (json!([bin(&[])]), json!([ph(0)]), vec![vec![]]),
            (json!(["plain", 1, null, {"k": "v"}]), json!(["plain", 1, null, {"k": "v"}]), vec![]),
            (bin(&[5]), ph(0), vec![vec![5]]),
        ];
        for (value, wire, buffers) in cases {
            assert_eq!(
                deconstruct(&value),
                (wire.clone(), buffers.clone()),
                "value {value}"
            );
            assert_eq!(reconstruct(&wire, &buffers), Ok(value), "wire {wire}");
        }
    }

    #[test]
    fn checks_placeholders() {
        #[rustfmt::skip]
        let cases: Vec<(Value, usize, Result<(), ParseError>)> = vec![
            (json!(["a", ph(0)]), 1, Ok(())),
            (json!(["a", ph(1), ph(0)]), 2, Ok(())),
            (json!(["a", ph(0), ph(0)]), 1, Ok(())),
            (json!(["a"]), 3, Ok(())),
            (json!(["a", ph(1)]), 1, Err(ParseError::IllegalAttachments)),
            (json!(["a", ph(0)]), 0, Err(ParseError::IllegalAttachments)),
            (json!(["a", {"_placeholder": true}]), 1, Err(ParseError::IllegalAttachments)),
            (json!(["a", {"_placeholder": true, "num": -1}]), 1, Err(ParseError::IllegalAttachments)),
            (json!(["a", {"_placeholder": true, "num": 0.5}]), 1, Err(ParseError::IllegalAttachments)),
            (json!(["a", {"_placeholder": true, "num": "0"}]), 1, Err(ParseError::IllegalAttachments)),
            (json!(["a", {"_placeholder": "true", "num": 9}]), 1, Ok(())),
            (json!(["a", {"_placeholder": false, "num": 9}]), 1, Ok(())),
            (json!({"deep": [{"x": ph(4)}]}), 4, Err(ParseError::IllegalAttachments)),
        ];
        for (value, count, expected) in cases {
            assert_eq!(
                check_placeholders(&value, count),
                expected,
                "value {value} count {count}"
            );
            let buffers = vec![vec![0u8]; count];
            assert_eq!(
                reconstruct(&value, &buffers).map(|_| ()),
                expected,
                "value {value}"
            );
        }
    }

    #[test]
    fn encodes_binary_packets() {
        #[rustfmt::skip]
        let cases: Vec<(Packet, &str, Vec<Vec<u8>>)> = vec![
            (Packet::event("/", "baz", vec![bin(&[1, 2, 3, 4])], None), r#"51-["baz",{"_placeholder":true,"num":0}]"#, vec![vec![1, 2, 3, 4]]),
            (Packet::event("/admin", "baz", vec![bin(&[1, 2]), bin(&[3, 4])], None), r#"52-/admin,["baz",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#, vec![vec![1, 2], vec![3, 4]]),
            (Packet::event("/", "foo", vec![bin(&[1])], Some(14)), r#"51-14["foo",{"_placeholder":true,"num":0}]"#, vec![vec![1]]),
            (Packet::ack("/admin", 1, vec![bin(&[9])]), r#"61-/admin,1[{"_placeholder":true,"num":0}]"#, vec![vec![9]]),
            (Packet::ack("/", 15, vec![json!("bar")]), r#"315["bar"]"#, vec![]),
            (Packet::event("/", "plain", vec![json!(1)], None), r#"2["plain",1]"#, vec![]),
            (Packet::connect("/", Some(json!({"b": bin(&[1])}))), r#"0{"b":{"$binary":"AQ=="}}"#, vec![]),
        ];
        for (packet, header, buffers) in cases {
            assert_eq!(
                packet.encode_with_binary(),
                (header.to_owned(), buffers),
                "packet {packet:?}"
            );
        }
    }
}
