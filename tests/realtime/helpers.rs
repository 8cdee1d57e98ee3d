#![allow(dead_code)]

use actix_web::App;
use pizza_order::realtime::engineio::{
    configure, serve, DisconnectReason, EngineConfig, EngineHandler, EngineIo, EngineSocket,
    ListenOptions, Sid, WebSocketMounts,
};
use serde_json::Value;
use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Echoes messages back, closes the session when it receives "bye" (after echoing it), and
/// records what happened.
#[derive(Default)]
pub struct Recorder {
    sockets: Mutex<HashMap<Sid, EngineSocket>>,
    closed: Mutex<Vec<(Sid, DisconnectReason)>>,
    all: Mutex<Vec<EngineSocket>>,
}

impl Recorder {
    pub fn disconnects(&self) -> Vec<(Sid, DisconnectReason)> {
        self.closed.lock().unwrap().clone()
    }

    pub fn reason(&self, sid: &str) -> Option<DisconnectReason> {
        self.disconnects()
            .into_iter()
            .find(|(s, _)| s.as_str() == sid)
            .map(|(_, reason)| reason)
    }

    /// Every socket ever connected, closed ones too.
    pub fn socket(&self, sid: &str) -> Option<EngineSocket> {
        self.all
            .lock()
            .unwrap()
            .iter()
            .find(|s| s.sid().as_str() == sid)
            .cloned()
    }

    fn live(&self, sid: &Sid) -> Option<EngineSocket> {
        self.sockets.lock().unwrap().get(sid).cloned()
    }
}

impl EngineHandler for Recorder {
    fn on_connect(&self, socket: EngineSocket) {
        self.all.lock().unwrap().push(socket.clone());
        self.sockets
            .lock()
            .unwrap()
            .insert(socket.sid().clone(), socket);
    }

    fn on_message(&self, sid: &Sid, text: String) {
        if let Some(socket) = self.live(sid) {
            let bye = text == "bye";
            socket.send_text(text);
            if bye {
                socket.close();
            }
        }
    }

    fn on_binary(&self, sid: &Sid, data: Vec<u8>) {
        if let Some(socket) = self.live(sid) {
            socket.send_binary(data);
        }
    }

    fn on_disconnect(&self, sid: &Sid, reason: DisconnectReason) {
        self.sockets.lock().unwrap().remove(sid);
        self.closed.lock().unwrap().push((sid.clone(), reason));
    }
}

pub fn fast_config() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_millis(300),
        ping_timeout: Duration::from_millis(200),
        ..EngineConfig::default()
    }
}

/// A slow heartbeat, for tests that must not see pings.
pub fn quiet_config() -> EngineConfig {
    EngineConfig {
        ping_interval: Duration::from_secs(20),
        ping_timeout: Duration::from_secs(20),
        ..EngineConfig::default()
    }
}

pub struct TestServer {
    pub base: String,
    pub url: String,
    pub client: reqwest::Client,
    pub recorder: Arc<Recorder>,
    pub engine: Arc<EngineIo<Recorder>>,
}

pub async fn spawn(config: EngineConfig) -> TestServer {
    let recorder = Arc::new(Recorder::default());
    let engine = Arc::new(EngineIo::with_handler(Arc::clone(&recorder), config));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mounted = Arc::clone(&engine);
    let mounts = WebSocketMounts::new().mount("/engine.io/", &engine);
    let options = ListenOptions {
        shutdown_timeout: 1,
        ..ListenOptions::default()
    };
    let server = serve(listener, mounts, &options, move || {
        let engine = Arc::clone(&mounted);
        App::new().configure(move |cfg| configure(cfg, "/engine.io/", engine))
    })
    .unwrap();
    tokio::spawn(server);
    let base = format!("http://127.0.0.1:{port}");
    TestServer {
        url: format!("{base}/engine.io/"),
        base,
        client: reqwest::Client::new(),
        recorder,
        engine,
    }
}

pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// Asserts a protocol error answer: HTTP 400 and `{"code": code, "message": ...}`.
    #[track_caller]
    pub fn assert_error(&self, code: u64, message: &str) {
        assert_eq!(self.status, 400, "body {:?}", self.body);
        assert_eq!(
            self.json(),
            serde_json::json!({ "code": code, "message": message }),
            "body {:?}",
            self.body
        );
        assert!(self.content_type.starts_with("application/json"));
    }
}

impl TestServer {
    pub async fn request(&self, method: reqwest::Method, query: &str, body: &str) -> Reply {
        let response = self
            .client
            .request(method, format!("{}?{query}", self.url))
            .body(body.to_owned())
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let body = response.text().await.unwrap();
        Reply {
            status,
            content_type,
            body,
        }
    }

    pub async fn get(&self, query: &str) -> Reply {
        self.request(reqwest::Method::GET, query, "").await
    }

    /// Opens a polling session; returns its sid and the handshake.
    pub async fn handshake(&self) -> (String, Value) {
        let reply = self.get("EIO=4&transport=polling").await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert!(reply.body.starts_with('0'), "{}", reply.body);
        let open: Value = serde_json::from_str(&reply.body[1..]).unwrap();
        (open["sid"].as_str().unwrap().to_owned(), open)
    }

    pub async fn poll(&self, sid: &str) -> Reply {
        self.get(&format!("EIO=4&transport=polling&sid={sid}"))
            .await
    }

    pub async fn post(&self, sid: &str, body: &str) -> Reply {
        self.request(
            reqwest::Method::POST,
            &format!("EIO=4&transport=polling&sid={sid}"),
            body,
        )
        .await
    }

    /// Waits until the handler has seen the session close.
    pub async fn wait_closed(&self, sid: &str) -> DisconnectReason {
        for _ in 0..250 {
            if let Some(reason) = self.recorder.reason(sid) {
                return reason;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("session {sid} did not close");
    }
}
