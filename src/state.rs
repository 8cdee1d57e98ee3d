//! The one shared context handed to every handler (actix app data).

use crate::providers::sms::SandboxSms;
use actors::accounts::passwords::LoginThrottle;
use actors::accounts::sessions::SessionStore;
use actors::accounts::sms_codes::SmsCodes;
use actors::bus::Bus;
use actors::catalogue::CatalogueService;
use actors::clock::Clock;
use actors::db::login_failures::LoginFailureRepo;
use actors::db::sms_codes::SmsCodeRepo;
use actors::db::Db;
use actors::providers::maps::MapsProvider;
use actors::providers::sms::SmsProvider;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub catalogue: Arc<CatalogueService>,
    pub maps: Arc<dyn MapsProvider>,
    pub sms: Arc<dyn SmsProvider>,
    /// Set while the sandbox SMS provider is the one configured: the dev outbox reads it.
    pub sms_outbox: Option<Arc<SandboxSms>>,
    /// The privacy policy version in force (its update time, epoch ms).
    pub privacy_policy_updated_at: i64,
    pub clock: Clock,
    /// The database's sessions table, or Redis when `[redis] url` is set.
    pub sessions: Arc<dyn SessionStore>,
    /// Where actors announce persisted changes; the real-time gateway emits them.
    pub bus: Arc<dyn Bus>,
    /// The Socket.IO server (rooms, presence).
    pub io: crate::realtime::socketio::SocketIo,
}

/// The account services are thin wrappers over the pool; built per request, they cost nothing.
impl AppState {
    pub fn sms_codes(&self) -> SmsCodes {
        SmsCodes::new(SmsCodeRepo::new(self.db.clone()), self.sms.clone())
    }

    pub fn sessions(&self) -> &dyn SessionStore {
        self.sessions.as_ref()
    }

    pub fn login_throttle(&self) -> LoginThrottle {
        LoginThrottle::new(LoginFailureRepo::new(self.db.clone()))
    }
}
