//! A Socket.IO client over Engine.IO long-polling, enough to watch what a server does to one
//! socket: connect to a namespace with an `auth` payload, emit with an ack, see events and a
//! server disconnect. A task of its own polls, answers pings, and hands every Socket.IO packet
//! of the namespace over in order.

use serde_json::{json, Value};
use std::time::Duration;
use tokio::sync::mpsc;

pub struct SocketClient {
    url: String,
    sid: String,
    /// `/` or `/store`.
    namespace: String,
    http: reqwest::Client,
    packets: mpsc::UnboundedReceiver<Packet>,
    next_ack: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Packet {
    Event(String, Value),
    Ack(u64, Value),
    /// The server left the namespace (DISCONNECT), or the whole session closed.
    Disconnected,
}

/// `40` and the rest of the namespace's packets carry `/store,` after the type; `/` nothing.
fn prefix(namespace: &str) -> String {
    if namespace == "/" {
        String::new()
    } else {
        format!("{namespace},")
    }
}

impl SocketClient {
    /// Opens a session on `base` and connects to `namespace` with `auth`; Err: the server's
    /// CONNECT_ERROR message.
    pub async fn connect(base: &str, namespace: &str, auth: Value) -> Result<SocketClient, String> {
        let http = reqwest::Client::new();
        let url = format!("{base}/socket.io/?EIO=4&transport=polling");
        let open = http.get(&url).send().await.unwrap().text().await.unwrap();
        let open: Value = serde_json::from_str(open.strip_prefix('0').unwrap()).unwrap();
        let sid = open["sid"].as_str().unwrap().to_string();
        let url = format!("{url}&sid={sid}");
        let ns = prefix(namespace);
        let posted = http
            .post(&url)
            .body(format!("40{ns}{auth}"))
            .send()
            .await
            .unwrap();
        assert_eq!(posted.status(), 200);
        // The answer to CONNECT comes in the first polls.
        let answer = loop {
            let body = http.get(&url).send().await.unwrap().text().await.unwrap();
            let found = body
                .split('\x1e')
                .find(|p| p.starts_with(&format!("40{ns}")) || p.starts_with(&format!("44{ns}")))
                .map(str::to_string);
            if let Some(found) = found {
                break found;
            }
        };
        if let Some(error) = answer.strip_prefix(&format!("44{ns}")) {
            let error: Value = serde_json::from_str(error).unwrap_or(Value::Null);
            return Err(error["message"].as_str().unwrap_or_default().to_string());
        }
        let (tx, packets) = mpsc::unbounded_channel();
        tokio::spawn(poll(http.clone(), url.clone(), ns, tx));
        Ok(SocketClient {
            url,
            sid,
            namespace: namespace.to_string(),
            http,
            packets,
            next_ack: 0,
        })
    }

    pub fn sid(&self) -> &str {
        &self.sid
    }

    /// Emits `event` with `data` and waits (5 s at most) for its ack's first argument; Err when
    /// the socket was disconnected instead.
    pub async fn emit_with_ack(&mut self, event: &str, data: Value) -> Result<Value, Packet> {
        let id = self.next_ack;
        self.next_ack += 1;
        let ns = prefix(&self.namespace);
        let packet = format!("42{ns}{id}{}", json!([event, data]));
        let posted = self.http.post(&self.url).body(packet).send().await.unwrap();
        if posted.status() != 200 {
            return Err(Packet::Disconnected);
        }
        loop {
            match self.next(Duration::from_secs(5)).await {
                Some(Packet::Ack(got, value)) if got == id => return Ok(value),
                Some(Packet::Disconnected) | None => return Err(Packet::Disconnected),
                Some(_) => {}
            }
        }
    }

    /// The next packet within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Packet> {
        tokio::time::timeout(wait, self.packets.recv())
            .await
            .ok()
            .flatten()
    }

    /// Whether the server disconnected the socket within `wait` (events before it are skipped).
    pub async fn disconnected_within(&mut self, wait: Duration) -> bool {
        let until = tokio::time::Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await {
                Some(Packet::Disconnected) => return true,
                Some(_) => {}
                None => return false,
            }
        }
    }

    /// The first event named `name` within `wait` (other events are skipped); None if the
    /// socket was disconnected or nothing came.
    pub async fn event(&mut self, name: &str, wait: Duration) -> Option<Value> {
        let until = tokio::time::Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await? {
                Packet::Event(got, value) if got == name => return Some(value),
                Packet::Disconnected => return None,
                _ => {}
            }
        }
    }
}

/// Polls until the session ends, answering pings; hands over the namespace's packets.
async fn poll(http: reqwest::Client, url: String, ns: String, tx: mpsc::UnboundedSender<Packet>) {
    let event = format!("42{ns}");
    let ack = format!("43{ns}");
    let disconnect = format!("41{ns}");
    loop {
        let Ok(res) = http.get(&url).send().await else {
            let _ = tx.send(Packet::Disconnected);
            return;
        };
        if res.status() != 200 {
            let _ = tx.send(Packet::Disconnected);
            return;
        }
        let body = res.text().await.unwrap_or_default();
        for packet in body.split('\x1e') {
            if packet == "2" {
                let _ = http.post(&url).body("3").send().await;
            } else if packet == "1" || packet == disconnect {
                let _ = tx.send(Packet::Disconnected);
                return;
            } else if let Some(rest) = packet.strip_prefix(&event) {
                if let Ok(Value::Array(mut args)) = serde_json::from_str::<Value>(rest) {
                    let name = args.remove(0).as_str().unwrap_or_default().to_string();
                    let _ = tx.send(Packet::Event(
                        name,
                        args.into_iter().next().unwrap_or(Value::Null),
                    ));
                }
            } else if let Some(rest) = packet.strip_prefix(&ack) {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let args: Value =
                    serde_json::from_str(&rest[digits.len()..]).unwrap_or(Value::Null);
                let _ = tx.send(Packet::Ack(
                    digits.parse().unwrap_or(u64::MAX),
                    args.get(0).cloned().unwrap_or(Value::Null),
                ));
            }
        }
    }
}
