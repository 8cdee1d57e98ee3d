//! What the Redis adapter ([`super::redis_adapter`]) writes to Redis: key and channel names, the
//! broadcast message (published and kept in the history), the persisted session, and offsets.
//! Kept apart from the I/O so that it is unit-tested without a Redis.

use super::adapter::{BroadcastOptions, PersistedSession, Room};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The names one namespace uses under a key prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    /// Pub/sub channel of the namespace's broadcasts: `<prefix>:sio:<nsp>`.
    pub channel: String,
    /// Offset counter (INCR): `<prefix>:sio:<nsp>:offset`. Never expires.
    pub counter: String,
    /// Recovery history, a stream whose ids are `<offset>-0`: `<prefix>:sio:<nsp>:history`.
    pub history: String,
    session_prefix: String,
}

impl Keys {
    pub fn new(prefix: &str, namespace: &str) -> Keys {
        let base = format!("{prefix}:sio:{namespace}");
        Keys {
            counter: format!("{base}:offset"),
            history: format!("{base}:history"),
            session_prefix: format!("{base}:session:"),
            channel: base,
        }
    }

    /// A closed socket's session: `<prefix>:sio:<nsp>:session:<pid>`; `None` for a pid that is
    /// not one we could have made (so that a client cannot name another key).
    pub fn session(&self, pid: &str) -> Option<String> {
        let valid = !pid.is_empty()
            && pid.len() <= 64
            && pid
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        valid.then(|| format!("{}{pid}", self.session_prefix))
    }
}

/// A broadcast as published on the namespace's channel and kept in the history (`m` field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireMessage {
    /// The node that emitted it (its subscriber drops its own messages).
    pub uid: String,
    pub nsp: String,
    /// Target rooms, sorted (all sockets when empty).
    pub rooms: Vec<Room>,
    /// Rooms left out, sorted.
    pub except: Vec<Room>,
    /// The EVENT data `[event, ...args]`, without the offset.
    pub data: Vec<Value>,
    /// The offset (with recovery on); always the last field, added by the append script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<String>,
}

impl WireMessage {
    pub fn new(uid: &str, namespace: &str, data: Vec<Value>, opts: &BroadcastOptions) -> Self {
        let mut rooms: Vec<Room> = opts.rooms.iter().cloned().collect();
        rooms.sort();
        let mut except: Vec<Room> = opts.except.iter().cloned().collect();
        except.sort();
        WireMessage {
            uid: uid.to_owned(),
            nsp: namespace.to_owned(),
            rooms,
            except,
            data,
            offset: None,
        }
    }

    pub fn options(&self) -> BroadcastOptions {
        BroadcastOptions {
            rooms: self.rooms.iter().cloned().collect(),
            except: self.except.iter().cloned().collect(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The JSON of this message (without an offset) less its closing brace: the append script
    /// completes it with `,"offset":"<n>"}` once it knows the offset.
    pub fn head(&self) -> String {
        let mut json = WireMessage {
            offset: None,
            ..self.clone()
        }
        .to_json();
        json.pop();
        json
    }

    /// What the append script does with a head (for the tests).
    pub fn complete(head: &str, seq: u64) -> String {
        format!("{head},\"offset\":\"{seq}\"}}")
    }

    pub fn parse(json: &str) -> Option<WireMessage> {
        serde_json::from_str(json).ok()
    }

    /// The data as sent to clients: with the offset as the last argument when there is one.
    pub fn client_data(&self) -> Vec<Value> {
        let mut data = self.data.clone();
        if let Some(offset) = &self.offset {
            data.push(Value::String(offset.clone()));
        }
        data
    }
}

/// A persisted session, as stored (with `PX` = the recovery window) under [`Keys::session`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSession {
    pub sid: String,
    pub rooms: Vec<Room>,
    #[serde(default)]
    pub resume_from: Option<String>,
    /// Milliseconds since the Unix epoch (informational: the key's TTL enforces the window).
    pub disconnected_at: u64,
}

impl StoredSession {
    pub fn from_session(session: &PersistedSession, disconnected_at: u64) -> Self {
        StoredSession {
            sid: session.sid.clone(),
            rooms: session.rooms.clone(),
            resume_from: session.resume_from.clone(),
            disconnected_at,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn parse(json: &str) -> Option<StoredSession> {
        serde_json::from_str(json).ok()
    }

    pub fn into_session(self, pid: &str) -> PersistedSession {
        PersistedSession {
            pid: pid.to_owned(),
            sid: self.sid,
            rooms: self.rooms,
            resume_from: self.resume_from,
        }
    }
}

/// An offset is the decimal value of the namespace's counter.
pub fn parse_offset(offset: &str) -> Option<u64> {
    if offset.is_empty() || offset.len() > 19 || !offset.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    offset.parse().ok()
}

/// The offset of a history stream entry id (`<offset>-0`).
pub fn entry_seq(id: &str) -> Option<u64> {
    parse_offset(id.strip_suffix("-0")?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::realtime::socketio::binary::binary_value;
    use serde_json::json;

    fn opts(to: &[&str], except: &[&str]) -> BroadcastOptions {
        BroadcastOptions {
            rooms: to.iter().map(|s| s.to_string()).collect(),
            except: except.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn keys_and_channel() {
        let keys = Keys::new("p1", "/store");
        assert_eq!(keys.channel, "p1:sio:/store");
        assert_eq!(keys.counter, "p1:sio:/store:offset");
        assert_eq!(keys.history, "p1:sio:/store:history");
        assert_eq!(
            keys.session("aB3-_x").as_deref(),
            Some("p1:sio:/store:session:aB3-_x")
        );
        for bad in ["", "a:b", "a b", "../x", "x*", &"a".repeat(65)] {
            assert_eq!(keys.session(bad), None, "pid {bad:?}");
        }
    }

    #[test]
    fn message_round_trip_with_sorted_rooms() {
        let data = vec![
            json!("news"),
            json!({"n": 1, "big": u64::MAX, "f": 0.5, "empty": []}),
            binary_value(&[1, 2, 255]),
        ];
        let message =
            WireMessage::new("node-1", "/", data.clone(), &opts(&["b", "a"], &["z", "y"]));
        assert_eq!(message.rooms, vec!["a", "b"]);
        assert_eq!(message.except, vec!["y", "z"]);
        let json = message.to_json();
        assert!(!json.contains("offset"), "{json}");
        let back = WireMessage::parse(&json).unwrap();
        assert_eq!(back, message);
        assert_eq!(back.options(), opts(&["a", "b"], &["y", "z"]));
        assert_eq!(back.client_data(), data, "no offset argument without one");
    }

    #[test]
    fn head_completed_by_the_script_is_the_message_with_its_offset() {
        let message = WireMessage::new("n", "/x", vec![json!("e"), json!("}\"")], &opts(&[], &[]));
        let head = message.head();
        assert!(!head.ends_with('}'));
        let stored = WireMessage::complete(&head, 42);
        let parsed = WireMessage::parse(&stored).unwrap();
        assert_eq!(parsed.offset.as_deref(), Some("42"));
        assert_eq!(
            WireMessage {
                offset: None,
                ..parsed.clone()
            },
            message
        );
        assert_eq!(
            parsed.client_data(),
            vec![json!("e"), json!("}\""), json!("42")]
        );
        let value: Value = serde_json::from_str(&stored).unwrap();
        assert_eq!(value["uid"], "n");
        assert_eq!(value["nsp"], "/x");
        assert_eq!(value["rooms"], json!([]));
    }

    #[test]
    fn unreadable_messages_are_none() {
        for bad in [
            "",
            "{",
            "[]",
            r#"{"uid":"x"}"#,
            r#"{"uid":1,"nsp":"/","rooms":[],"except":[],"data":[]}"#,
        ] {
            assert_eq!(WireMessage::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn session_round_trip() {
        let session = PersistedSession {
            pid: "pid".into(),
            sid: "sid".into(),
            rooms: vec!["news".into(), "sid".into()],
            resume_from: Some("7".into()),
        };
        let stored = StoredSession::from_session(&session, 1_700_000_000_000);
        let json = stored.to_json();
        let value: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            value,
            json!({"sid": "sid", "rooms": ["news", "sid"], "resume_from": "7", "disconnected_at": 1_700_000_000_000u64})
        );
        assert_eq!(
            StoredSession::parse(&json).unwrap().into_session("pid"),
            session
        );
        assert_eq!(StoredSession::parse("nope"), None);
    }

    #[test]
    fn offsets() {
        assert_eq!(parse_offset("0"), Some(0));
        assert_eq!(parse_offset("123"), Some(123));
        for bad in ["", "-1", "1.5", "abc.1", " 1", "99999999999999999999"] {
            assert_eq!(parse_offset(bad), None, "{bad:?}");
        }
        assert_eq!(entry_seq("12-0"), Some(12));
        assert_eq!(entry_seq("12-1"), None);
        assert_eq!(entry_seq("12"), None);
    }
}
