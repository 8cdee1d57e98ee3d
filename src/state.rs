//! The one shared context handed to every handler (actix app data).

use crate::providers::payment::sandbox::SandboxPayments;
use crate::providers::sms::SandboxSms;
use actors::accounts::passwords::LoginThrottle;
use actors::accounts::sessions::SessionStore;
use actors::accounts::sms_codes::SmsCodes;
use actors::bus::Bus;
use actors::carts::CartRegistry;
use actors::catalogue::CatalogueService;
use actors::clock::Clock;
use actors::db::login_failures::LoginFailureRepo;
use actors::db::sms_codes::SmsCodeRepo;
use actors::db::Db;
use actors::orders::OrderRegistry;
use actors::payments::PaymentService;
use actors::providers::maps::MapsProvider;
use actors::providers::sms::SmsProvider;
use actors::stores::StoreBoards;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    /// Where every node hears of ended sessions, customers' and tablets' (`app::sessions_channel`).
    pub session_ends: Arc<dyn Bus>,
    /// Where actors announce persisted changes; the real-time gateway emits them.
    pub bus: Arc<dyn Bus>,
    /// The Socket.IO server (rooms, presence).
    pub io: crate::realtime::socketio::SocketIo,
    /// One CartSession actor per active cart.
    pub carts: Arc<CartRegistry>,
    /// The 380 ms anti-repeat of orderReservation, per cart.
    pub reservation_throttle: Arc<RepeatGuard>,
    /// The key table QR links (and order view tokens) are signed with.
    pub table_secret: Arc<Vec<u8>>,
    /// The chain operations token (`[ordering] ops_token`); None: `/chain/…` is off.
    pub ops_token: Option<Arc<str>>,
    /// One OrderSession actor per active order.
    pub orders: Arc<OrderRegistry>,
    pub payments: Arc<PaymentService>,
    /// The member club and the points ledger (issue 23).
    pub loyalty: actors::loyalty::Loyalty,
    /// Coupons (issue 24): collect, exchange, transfer, the order hook and the sweep.
    pub coupons: actors::coupons::Coupons,
    /// `[loyalty] sweep_ms`.
    pub loyalty_sweep_ms: u64,
    /// `[memory] sweep_seconds`: how often entries past their max age are dropped.
    pub memory_sweep_seconds: u64,
    /// The sessions' memory (the same as `sessions`), for the memory sweep.
    pub cached_sessions: Arc<actors::accounts::sessions::CachedSessions>,
    /// What each store's staff set live (status, notice, sold-out products), its tablets'
    /// live queue and which of its tablets are online, across nodes.
    pub stores: Arc<StoreBoards>,
    /// Set while the sandbox payment provider is configured: its cashier routes use it.
    pub sandbox_payments: Option<Arc<SandboxPayments>>,
    /// Where the payment provider POSTs its notifies (scheme://host:port, no trailing '/').
    pub notify_base_url: String,
    /// The store cards, menus and products last serialised (`http::edge::reply_cache`).
    pub replies: Arc<crate::http::edge::reply_cache::ReplyCache>,
    /// Orders' details kept in memory (`http::orders::views`); the node's bus forgets them.
    pub order_views: Arc<crate::http::orders::views::OrderViews>,
}

/// The account services are thin wrappers over the pool; built per request, they cost nothing.
impl AppState {
    /// Something of the order changed that no other event announces (a comment): every node
    /// forgets its detail.
    pub async fn order_changed(&self, order_no: &str) {
        let event = actors::bus::Event::OrderChanged {
            order_no: order_no.to_string(),
        };
        if let Err(e) = self.bus.publish(&event).await {
            tracing::warn!(error = %e, order_no, "order change not announced; details catch up within 2 s");
        }
    }

    /// Submit's service over this node's carts, boards and ledgers.
    pub fn checkout(&self) -> actors::checkout::CheckoutService {
        actors::checkout::CheckoutService {
            db: self.db.clone(),
            catalogue: self.catalogue.clone(),
            carts: self.carts.clone(),
            stores: self.stores.clone(),
            loyalty: self.loyalty.clone(),
            orders: self.orders.clone(),
            clock: self.clock.clone(),
        }
    }

    pub fn sms_codes(&self) -> SmsCodes {
        SmsCodes::new(SmsCodeRepo::new(self.db.clone()), self.sms.clone())
    }

    pub fn sessions(&self) -> &dyn SessionStore {
        self.sessions.as_ref()
    }

    pub fn login_throttle(&self) -> LoginThrottle {
        LoginThrottle::new(LoginFailureRepo::new(self.db.clone()))
    }

    /// Tablet logouts and PIN changes, told to every node.
    pub fn staff_sessions(&self) -> actors::accounts::staff::StaffSessions {
        actors::accounts::staff::StaffSessions::new(
            actors::db::staff::StaffRepo::new(self.db.clone()),
            self.session_ends.clone(),
        )
    }
}

/// Refuses a key seen again within a window (the reservation call's anti-repeat). In process:
/// a double tap reaches one node; the guard is about taps, not about security.
#[derive(Default)]
pub struct RepeatGuard {
    last: Mutex<HashMap<String, i64>>,
}

impl RepeatGuard {
    /// True when `key` was not seen in the last `window_ms`; records it either way.
    pub fn allow(&self, key: &str, now: i64, window_ms: i64) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.len() > 10_000 {
            last.retain(|_, at| now - *at < window_ms);
        }
        let allowed = last.get(key).is_none_or(|at| now - *at >= window_ms);
        last.insert(key.to_string(), now);
        allowed
    }
}

#[cfg(test)]
mod tests {
    use super::RepeatGuard;

    #[test]
    fn repeats_inside_the_window_are_refused() {
        let guard = RepeatGuard::default();
        assert!(guard.allow("a", 1_000, 380));
        assert!(!guard.allow("a", 1_379, 380));
        assert!(guard.allow("b", 1_379, 380), "per key");
        assert!(
            !guard.allow("a", 1_700, 380),
            "a refused repeat restarts the window"
        );
        assert!(guard.allow("a", 2_080, 380));
    }
}
