#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

mod coupons;
mod members;
mod paid_order;
pub mod sockets;

pub use members::ReadyMember;
pub use paid_order::{Attempt, PaidOrder};

use actors::clock::Clock;
use pizza_order::app::Application;
use pizza_order::config::Settings;
use serde_json::Value;
use std::path::PathBuf;

/// Monday 2026-11-23 12:00 China time: every demo store is open, lunch-only products are on.
pub const MONDAY_NOON_MS: i64 = 1_795_406_400_000;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub clock: Clock,
    pub app_state: pizza_order::state::AppState,
    /// What this node was built with: a second node shares its database and Redis.
    settings: Settings,
    pub static_dir: PathBuf,
    cleanup: Cleanup,
    /// With TEST_REDIS_URL: the url and this app's key prefix, whose keys go on drop.
    redis: Option<(String, String)>,
}

enum Cleanup {
    Sqlite(PathBuf),
    Postgres { admin_url: String, name: String },
}

/// Which database the suite runs on, named in test output.
pub fn backend() -> &'static str {
    if postgres_admin_url().is_some() {
        "postgres"
    } else {
        "sqlite"
    }
}

/// Whether sessions are kept in Redis in this run (TEST_REDIS_URL set).
pub fn redis_sessions() -> bool {
    redis_url().is_some()
}

fn redis_url() -> Option<String> {
    std::env::var("TEST_REDIS_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

fn postgres_admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

pub async fn spawn_app() -> TestApp {
    spawn_app_at(MONDAY_NOON_MS).await
}

pub async fn spawn_app_at(now_ms: i64) -> TestApp {
    spawn_app_with(now_ms, |_| {}).await
}

/// An app whose test settings `adjust` changes first (say, no trusted proxies).
pub async fn spawn_app_with(now_ms: i64, adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut settings = Settings::load_env(&config_dir, "test").expect("test settings");
    adjust(&mut settings);
    let id = uuid::Uuid::new_v4().simple().to_string();
    // A stand-in for the built app, so the SPA fallback is tested without a frontend build.
    let static_dir = std::env::temp_dir().join(format!("pizza-test-static-{id}"));
    std::fs::create_dir_all(&static_dir).unwrap();
    std::fs::write(
        static_dir.join("index.html"),
        "<!doctype html><title>app</title>",
    )
    .unwrap();
    settings.server.static_dir = static_dir.clone();
    let cleanup = match postgres_admin_url() {
        Some(admin_url) => {
            let name = format!("pizza_test_{id}");
            create_postgres_database(&admin_url, &name).await;
            settings.database.url = replace_database(&admin_url, &name);
            Cleanup::Postgres { admin_url, name }
        }
        None => {
            let dir = std::env::temp_dir().join(format!("pizza-test-{id}"));
            settings.server.data_dir = dir.clone();
            settings.database.url = String::new();
            Cleanup::Sqlite(dir)
        }
    };
    let redis = redis_url().map(|url| {
        // Each app its own keys, so parallel tests do not see each other's sessions.
        let prefix = format!("pizza-test-{id}:");
        settings.redis.url = url.clone();
        settings.redis.key_prefix = prefix.clone();
        (url, prefix)
    });
    if matches!(cleanup, Cleanup::Postgres { .. }) {
        // Production does not seed on start; the test does it the way an operator would.
        let db = pizza_order::app::open_database(&settings)
            .await
            .expect("connect");
        db.migrate().await.expect("migrate");
        pizza_order::seed::run(&db).await.expect("seed");
        db.close().await;
    }
    let clock = Clock::manual(now_ms);
    let app = Application::build(settings.clone(), clock.clone())
        .await
        .expect("build app");
    let address = format!("http://127.0.0.1:{}", app.port());
    let app_state = app.state().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        clock,
        app_state,
        settings,
        static_dir,
        cleanup,
        redis,
    }
}

impl TestApp {
    /// Whether this app shares Redis with the nodes it starts (TEST_REDIS_URL).
    pub fn has_redis(&self) -> bool {
        self.redis.is_some()
    }

    /// Another node of the same deployment: the same database, the same Redis and key prefix,
    /// the same clock. Answers its base address; it stops with the test's runtime.
    pub async fn second_node(&self) -> String {
        let mut settings = self.settings.clone();
        settings.database.seed_when_empty = false;
        let app = Application::build(settings, self.clock.clone())
            .await
            .expect("build the second node");
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        address
    }

    /// [`second_node`](Self::second_node), with that node's state (its own pool and services)
    /// for tests that run a node's jobs directly.
    pub async fn second_node_state(&self) -> (String, pizza_order::state::AppState) {
        let mut settings = self.settings.clone();
        settings.database.seed_when_empty = false;
        let app = Application::build(settings, self.clock.clone())
            .await
            .expect("build the second node");
        let address = format!("http://127.0.0.1:{}", app.port());
        let state = app.state().clone();
        tokio::spawn(app.run_until_stopped());
        (address, state)
    }
}

impl TestApp {
    /// Another connection pool on this app's database, as another node opens it.
    pub async fn another_pool(&self) -> actors::db::Db {
        pizza_order::app::open_database(&self.settings)
            .await
            .expect("connect a second pool")
    }
}

impl TestApp {
    /// How many keys this app has in Redis matching `<prefix><pattern>` (0 without Redis).
    pub fn redis_keys(&self, pattern: &str) -> usize {
        use redis::Commands;
        let Some((url, prefix)) = &self.redis else {
            return 0;
        };
        let mut conn = redis::Client::open(url.as_str())
            .and_then(|c| c.get_connection())
            .expect("redis");
        let keys: Vec<String> = conn
            .scan_match(format!("{prefix}{pattern}"))
            .expect("scan")
            .collect();
        keys.len()
    }
}

/// An answer: HTTP status, the parsed envelope, and headers.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    pub fn err_code(&self) -> &str {
        self.body["errCode"].as_str().unwrap_or("<none>")
    }
    pub fn err_msg(&self) -> &str {
        self.body["errMsg"].as_str().unwrap_or("<none>")
    }
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
    #[track_caller]
    pub fn assert_ok(&self) -> &Value {
        assert_eq!(
            self.err_code(),
            "00",
            "expected success, got {} {}",
            self.status,
            self.body
        );
        assert_eq!(self.status, 200);
        self.data()
    }
    #[track_caller]
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.err_code()),
            (status, code),
            "{}",
            self.body
        );
        assert!(
            !self.err_msg().is_empty(),
            "error without a message: {}",
            self.body
        );
    }
}

impl TestApp {
    /// Any call: JSON body when given, `Authorization: Bearer` when a token is given.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut req = self
            .client
            .request(method, format!("{}{}", self.address, path));
        if let Some(body) = body {
            req = req.json(body);
        }
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        answer(req.send().await.expect("request")).await
    }

    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        self.call(reqwest::Method::POST, path, Some(body), token, &[])
            .await
    }

    pub async fn patch(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        self.call(reqwest::Method::PATCH, path, Some(body), token, &[])
            .await
    }

    pub async fn put(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        self.call(reqwest::Method::PUT, path, Some(body), token, &[])
            .await
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(reqwest::Method::DELETE, path, None, token, &[])
            .await
    }

    pub async fn get_auth(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(reqwest::Method::GET, path, None, token, &[])
            .await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.get_with(path, &[]).await
    }

    pub async fn get_en(&self, path: &str) -> Answer {
        self.get_with(path, &[("Accept-Language", "en")]).await
    }

    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        let mut req = self.client.get(format!("{}{}", self.address, path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        answer(req.send().await.expect("request")).await
    }
}

async fn answer(res: reqwest::Response) -> Answer {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let text = res.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Answer {
        status,
        body,
        headers,
    }
}

/// The demo chain as seeded, to find the stores and products with special roles.
pub fn demo() -> actors::domain::catalogue::Catalogue {
    actors::domain::catalogue::seed::demo_catalogue().unwrap()
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.static_dir);
        if let Some((url, prefix)) = &self.redis {
            delete_redis_keys(url, prefix);
        }
        match &self.cleanup {
            Cleanup::Sqlite(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Cleanup::Postgres { admin_url, name } => {
                let (admin_url, name) = (admin_url.clone(), name.clone());
                // Drop runs inside the test's runtime: use a thread with its own.
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    rt.block_on(drop_postgres_database(&admin_url, &name));
                })
                .join();
            }
        }
    }
}

/// Deletes every key under the prefix (blocking client: Drop cannot await).
fn delete_redis_keys(url: &str, prefix: &str) {
    use redis::Commands;
    let Ok(mut conn) = redis::Client::open(url).and_then(|c| c.get_connection()) else {
        return;
    };
    let keys: Vec<String> = match conn.scan_match(format!("{prefix}*")) {
        Ok(iter) => iter.collect(),
        Err(_) => return,
    };
    if !keys.is_empty() {
        let _: redis::RedisResult<()> = conn.del(keys);
    }
}

fn replace_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let cut = base
        .rfind('/')
        .filter(|&i| i > "postgres://".len())
        .unwrap_or(base.len());
    format!("{}/{}{}", &base[..cut], name, query)
}

async fn admin(admin_url: &str) -> sqlx::PgConnection {
    use sqlx::Connection;
    sqlx::PgConnection::connect(admin_url)
        .await
        .expect("connect to TEST_DATABASE_URL")
}

async fn create_postgres_database(admin_url: &str, name: &str) {
    use sqlx::Executor;
    let mut conn = admin(admin_url).await;
    conn.execute(format!(r#"CREATE DATABASE "{name}""#).as_str())
        .await
        .expect("create database");
}

async fn drop_postgres_database(admin_url: &str, name: &str) {
    use sqlx::Executor;
    let mut conn = admin(admin_url).await;
    let _ = conn
        .execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
        .await;
}

/// A password that passes the strength rules.
pub const PASSWORD: &str = "Pizza2026ok";

impl TestApp {
    /// Asks for a code, from a client address of the phone's own (so tests that register a
    /// few users stay clear of the per-address limit, which has its own test).
    pub async fn send_code(&self, phone: &str, scene: &str) -> Answer {
        let last: u8 = phone[phone.len() - 2..].parse().unwrap_or(0);
        let ip = format!("198.51.100.{last}");
        self.call(
            reqwest::Method::POST,
            "/api/v1/auth/sms-code",
            Some(&serde_json::json!({"cellPhone": phone, "scene": scene})),
            None,
            &[("X-Forwarded-For", &ip)],
        )
        .await
    }

    /// What the sandbox "sent" to the phone, newest first, read like a client does.
    pub async fn outbox(&self, phone: &str) -> Vec<String> {
        let answer = self
            .get(&format!("/api/v1/dev/sms-outbox?cellPhone={phone}"))
            .await;
        answer
            .assert_ok()
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// The code in the newest message to the phone.
    pub async fn latest_code(&self, phone: &str) -> String {
        let texts = self.outbox(phone).await;
        code_in(texts.first().expect("a message in the outbox"))
    }

    /// Sends a fresh code (moving the clock past the resend cooldown first) and reads it.
    pub async fn fresh_code(&self, phone: &str, scene: &str) -> String {
        self.clock.advance_ms(61_000);
        self.send_code(phone, scene).await.assert_ok();
        self.latest_code(phone).await
    }

    /// Registers the phone with [`PASSWORD`] the way the app does; answers the token.
    pub async fn register(&self, phone: &str) -> String {
        let code = self.fresh_code(phone, "register").await;
        let answer = self
            .post(
                "/api/v1/auth/register",
                &serde_json::json!({"cellPhone": phone, "smsCode": code,
                    "password": PASSWORD, "privacyAgreed": true}),
                None,
            )
            .await;
        answer.assert_ok()["token"].as_str().unwrap().to_string()
    }

    pub async fn login(&self, phone: &str, password: &str) -> Answer {
        self.post(
            "/api/v1/auth/login",
            &serde_json::json!({"cellPhone": phone, "password": password}),
            None,
        )
        .await
    }
}

/// The first run of six digits in a message.
pub fn code_in(text: &str) -> String {
    let digits: Vec<char> = text.chars().collect();
    digits
        .windows(6)
        .find(|w| w.iter().all(char::is_ascii_digit))
        .map(|w| w.iter().collect())
        .unwrap_or_else(|| panic!("no code in {text:?}"))
}
