//! Layered configuration: config/default.toml, then config/<PIZZA_ENV>.toml, then environment
//! variables (PIZZA__SECTION__KEY, plus DATABASE_URL and REDIS_URL). Passed in, never global,
//! so tests can vary it.

use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub redis: RedisSettings,
    pub log: LogSettings,
    pub catalogue: CatalogueSettings,
    /// AMap web service; without a key the offline gazetteer answers alone.
    #[serde(default)]
    pub maps: Option<crate::providers::maps::amap::AmapConfig>,
    pub privacy: PrivacySettings,
    #[serde(default)]
    pub sms: SmsSettings,
    #[serde(default)]
    pub ordering: OrderingSettings,
    #[serde(default)]
    pub payment: PaymentSettings,
    #[serde(default)]
    pub metrics: MetricsSettings,
    #[serde(default)]
    pub loyalty: LoyaltySettings,
    #[serde(default)]
    pub memory: MemorySettings,
}

/// The bounds of what a node keeps in memory (docs/operations.md "Memory").
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub struct MemorySettings {
    /// Orders' details kept at most (src/http/orders/views.rs).
    #[serde(default = "default_order_views")]
    pub order_views: usize,
    /// Resolved session tokens kept at most (actors::accounts::sessions::cached).
    #[serde(default = "default_sessions")]
    pub sessions: usize,
    /// How often (s) entries past their max age are dropped, so an idle node gives them back.
    #[serde(default = "default_memory_sweep_seconds")]
    pub sweep_seconds: u64,
    /// How long (s) a cart's, an order's, a payment attempt's or a store's actor lives on after
    /// its last use: what a burst of orders leaves held once it is over.
    #[serde(default = "default_session_idle_seconds")]
    pub session_idle_seconds: u64,
}

impl MemorySettings {
    pub fn session_idle(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.session_idle_seconds.max(1))
    }
}

fn default_session_idle_seconds() -> u64 {
    actors::actor_registry::IDLE.as_secs()
}

fn default_order_views() -> usize {
    crate::http::orders::views::DEFAULT_CAPACITY
}

fn default_sessions() -> usize {
    actors::accounts::sessions::cached::DEFAULT_CAPACITY
}

fn default_memory_sweep_seconds() -> u64 {
    30
}

impl Default for MemorySettings {
    fn default() -> Self {
        MemorySettings {
            order_views: default_order_views(),
            sessions: default_sessions(),
            sweep_seconds: default_memory_sweep_seconds(),
            session_idle_seconds: default_session_idle_seconds(),
        }
    }
}

/// The member club (docs/loyalty.md).
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub struct LoyaltySettings {
    /// The refund window: points earned on a completed order stay pending this long (ms),
    /// then become available. Default 7 days.
    #[serde(default = "default_points_pending_ms")]
    pub points_pending_ms: i64,
    /// How often the loyalty sweep runs (ms): credits missed, holds settled, points matured
    /// and expired. Default 15 s.
    #[serde(default = "default_loyalty_sweep_ms")]
    pub sweep_ms: u64,
}

fn default_points_pending_ms() -> i64 {
    actors::domain::loyalty::DEFAULT_PENDING_MS
}

fn default_loyalty_sweep_ms() -> u64 {
    15_000
}

impl Default for LoyaltySettings {
    fn default() -> Self {
        LoyaltySettings {
            points_pending_ms: default_points_pending_ms(),
            sweep_ms: default_loyalty_sweep_ms(),
        }
    }
}

/// Prometheus metrics at `GET /metrics` (docs/operations.md).
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct MetricsSettings {
    #[serde(default = "allow")]
    pub enabled: bool,
    /// A listener of its own for `/metrics` (e.g. 127.0.0.1:9100); empty: the main port.
    #[serde(default)]
    pub bind: String,
    /// Who may scrape on the main port (IPs or CIDRs, matched against the client address after
    /// the trusted-proxies rule): loopback by default, so nothing behind the proxy can.
    #[serde(default = "loopback", deserialize_with = "list_or_commas")]
    pub allow: Vec<String>,
}

fn loopback() -> Vec<String> {
    vec!["127.0.0.1".into(), "::1".into()]
}

impl Default for MetricsSettings {
    fn default() -> MetricsSettings {
        MetricsSettings {
            enabled: true,
            bind: String::new(),
            allow: loopback(),
        }
    }
}

/// The payment provider. Only the sandbox exists: it has a cashier page anyone can pay at, so
/// production refuses it unless a staging deployment says so (`allow_sandbox`).
#[derive(Clone, Deserialize)]
pub struct PaymentSettings {
    #[serde(default = "sandbox_name")]
    pub provider: String,
    #[serde(default = "allow")]
    pub allow_sandbox: bool,
    /// Where the provider reaches our notify endpoint, e.g. https://pizza.example.com. Empty:
    /// http://127.0.0.1:<port>, right for the embedded sandbox.
    #[serde(default)]
    pub notify_base_url: String,
    #[serde(default)]
    pub sandbox: crate::providers::payment::sandbox::SandboxConfig,
    /// The key the sandbox signs its notifies and pay strings with (at least 16 characters;
    /// `PIZZA__PAYMENT__SANDBOX_SECRET`). Empty with the embedded database: one is made on
    /// first start and kept in `<data_dir>/payment-sandbox-secret`; required otherwise.
    #[serde(default)]
    pub sandbox_secret: String,
    /// Attempts one order may have in all (each a trade at the provider); the open attempt of
    /// a method is handed out again without counting (docs/payments-and-orders.md).
    #[serde(default = "max_attempts_per_order")]
    pub max_attempts_per_order: u32,
    /// New attempts one user may open in any minute, over all their orders.
    #[serde(default = "max_attempts_per_user_minute")]
    pub max_attempts_per_user_minute: u32,
}

fn max_attempts_per_order() -> u32 {
    actors::payments::AttemptLimits::default().per_order
}

fn max_attempts_per_user_minute() -> u32 {
    actors::payments::AttemptLimits::default().per_user_minute
}

impl PaymentSettings {
    /// The ceilings on new payment attempts.
    pub fn attempt_limits(&self) -> actors::payments::AttemptLimits {
        actors::payments::AttemptLimits {
            per_order: self.max_attempts_per_order,
            per_user_minute: self.max_attempts_per_user_minute,
        }
    }
}

impl fmt::Debug for PaymentSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PaymentSettings")
            .field("provider", &self.provider)
            .field("allow_sandbox", &self.allow_sandbox)
            .field("notify_base_url", &self.notify_base_url)
            .field("sandbox", &self.sandbox)
            .field("max_attempts_per_order", &self.max_attempts_per_order)
            .field(
                "max_attempts_per_user_minute",
                &self.max_attempts_per_user_minute,
            )
            .field(
                "sandbox_secret",
                &if self.sandbox_secret.is_empty() {
                    ""
                } else {
                    "***"
                },
            )
            .finish()
    }
}

fn sandbox_name() -> String {
    "sandbox".into()
}

impl Default for PaymentSettings {
    fn default() -> PaymentSettings {
        PaymentSettings {
            provider: sandbox_name(),
            allow_sandbox: true,
            notify_base_url: String::new(),
            sandbox: Default::default(),
            sandbox_secret: String::new(),
            max_attempts_per_order: max_attempts_per_order(),
            max_attempts_per_user_minute: max_attempts_per_user_minute(),
        }
    }
}

/// Ordering: the key table QR links are signed with. Empty with the embedded database: a key
/// is made on first start and kept in `<data_dir>/table-secret`; required otherwise.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
pub struct OrderingSettings {
    #[serde(default)]
    pub table_secret: String,
    /// The bearer token of the chain's operations endpoints (`/chain/…`: stores with orders
    /// waiting and no tablet online). Empty: those endpoints are off (404).
    #[serde(default)]
    pub ops_token: String,
}

/// The personal-information protection policy in force.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct PrivacySettings {
    /// When the policy last changed (epoch ms). It is also the version users agree to: an
    /// agreement older than this must be given again.
    pub policy_updated_at: i64,
}

/// Which SMS gateway sends codes. Only the sandbox exists yet: it keeps what it "sends" in
/// memory and shows it at /api/v1/dev/sms-outbox.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct SmsSettings {
    pub provider: String,
    /// Whether the sandbox may run. Its outbox shows every login code over HTTP, so
    /// production refuses it unless a staging deployment says so explicitly.
    #[serde(default = "allow")]
    pub allow_sandbox: bool,
}

fn allow() -> bool {
    true
}

impl Default for SmsSettings {
    fn default() -> SmsSettings {
        SmsSettings {
            provider: "sandbox".into(),
            allow_sandbox: true,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct ServerSettings {
    pub bind: String,
    pub data_dir: PathBuf,
    pub static_dir: PathBuf,
    pub workers: usize,
    /// The proxies (IPs or CIDRs) whose X-Forwarded-For and X-Forwarded-Proto are believed;
    /// empty: none, the peer address is the client. A list in TOML, or comma-separated in
    /// PIZZA__SERVER__TRUSTED_PROXIES.
    #[serde(default, deserialize_with = "list_or_commas")]
    pub trusted_proxies: Vec<String>,
}

/// A list, or one comma-separated text (what an environment variable can hold).
fn list_or_commas<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        List(Vec<String>),
        Text(String),
    }
    Ok(match Either::deserialize(d)? {
        Either::List(list) => list,
        Either::Text(text) => text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
    })
}

#[derive(Clone, Deserialize)]
pub struct DatabaseSettings {
    pub url: String,
    pub max_connections: u32,
    pub seed_when_empty: bool,
}

impl fmt::Debug for DatabaseSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseSettings")
            .field("url", &actors::db::redact(&self.url))
            .field("max_connections", &self.max_connections)
            .field("seed_when_empty", &self.seed_when_empty)
            .finish()
    }
}

#[derive(Clone, Deserialize)]
pub struct RedisSettings {
    pub url: String,
    /// Put before every key this app writes, so apps (and test runs) sharing a Redis do not
    /// see each other's keys.
    #[serde(default = "default_key_prefix")]
    pub key_prefix: String,
}

fn default_key_prefix() -> String {
    "pizza:".into()
}

impl fmt::Debug for RedisSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisSettings")
            .field("url", &actors::db::redact(&self.url))
            .field("key_prefix", &self.key_prefix)
            .finish()
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct LogSettings {
    pub format: LogFormat,
    pub filter: String,
    /// The fraction (0 to 1) of successful, fast requests whose access line is written;
    /// errors and slow requests always are.
    #[serde(default = "one")]
    pub access_sample: f64,
    /// A request slower than this is slow: its access line is always written.
    #[serde(default = "slow_ms")]
    pub slow_request_ms: u64,
}

fn one() -> f64 {
    1.0
}

fn slow_ms() -> u64 {
    1000
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Pretty,
    Json,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CatalogueSettings {
    pub refresh_seconds: u64,
}

impl Settings {
    /// Reads the layers from `config_dir` for the environment named by PIZZA_ENV
    /// (development when unset).
    pub fn load(config_dir: &Path) -> Result<Settings, config::ConfigError> {
        let env = std::env::var("PIZZA_ENV").unwrap_or_else(|_| "development".into());
        Settings::load_env(config_dir, &env)
    }

    /// The layers for a named environment (tests ask for "test" without touching the process env).
    pub fn load_env(config_dir: &Path, env: &str) -> Result<Settings, config::ConfigError> {
        let mut builder = config::Config::builder()
            .add_source(config::File::from(config_dir.join("default.toml")))
            .add_source(config::File::from(config_dir.join(format!("{env}.toml"))).required(false))
            .add_source(
                config::Environment::with_prefix("PIZZA")
                    .prefix_separator("__")
                    .separator("__"),
            );
        if let Ok(url) = std::env::var("DATABASE_URL") {
            builder = builder.set_override("database.url", url)?;
        }
        if let Ok(url) = std::env::var("REDIS_URL") {
            builder = builder.set_override("redis.url", url)?;
        }
        builder.build()?.try_deserialize()
    }

    /// The database url: the configured one, or the embedded SQLite file in the data dir.
    pub fn database_url(&self) -> String {
        if self.database.url.trim().is_empty() {
            let path = self.server.data_dir.join("pizza.db");
            format!("sqlite://{}?mode=rwc", path.display())
        } else {
            self.database.url.trim().to_string()
        }
    }

    pub fn is_embedded_database(&self) -> bool {
        self.database_url().starts_with("sqlite:")
    }

    pub fn redis_url(&self) -> Option<&str> {
        Some(self.redis.url.trim()).filter(|u| !u.is_empty())
    }
}

/// Where config/ is: beside the working directory, or beside the crate when run by cargo.
pub fn default_config_dir() -> PathBuf {
    let here = PathBuf::from("config");
    if here.join("default.toml").exists() {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config")
}
