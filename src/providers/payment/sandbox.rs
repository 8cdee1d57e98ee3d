//! The sandbox payment provider, the embedded default. It behaves like a real provider:
//!
//! - `create` records the trade in its ledger and answers the pay instructions of its method
//!   (the table on [`PayMethod`]): an auto-submitting form, a redirect URL, an app pay string,
//!   a UnionPay `tn` or gateway form, all leading to the sandbox cashier at
//!   `{base_url}/sandbox/cashier/{paymentId}`.
//! - The cashier page ([`cashier_page`]) lets the payer pay, fail or cancel; its buttons POST
//!   `{outcome}` to `/sandbox/api/pay/{paymentId}`, whose handler calls [`SandboxPayments::settle`]
//!   and answers `{returnUrl}`.
//! - `settle` marks the trade and POSTs a signed asynchronous notify (form-urlencoded
//!   `payment_id, trade_no, status, amount` (fen)`, at, sign`) to the notify URL given at create,
//!   repeating it on a backoff schedule until the answer is exactly `success`, like Alipay.
//! - `query` answers from the ledger (closed once `expires_at` has passed unpaid, on the
//!   injected clock); `refund` refuses more than was paid with code 01 and a content text;
//!   `close` closes an unpaid trade; `statement` lists a period's payments and refunds.
//! - Tests can inject one failure of the next `create`, `query` or `refund` (an outage), and
//!   lose the next settle's notify.
//!
//! The ledger is kept in our database (`sandbox_trades`, `sandbox_refunds`, see [`ledger`]), as
//! a real provider keeps its own: a restart loses no trade, the notifies still being sent resume
//! at their next scheduled time, and nodes sharing PostgreSQL share the ledger, so the create,
//! the cashier, the settle and the query may each reach any node.
//!
//! The notify key is never a constant of the source: it is configured (`[payment]
//! sandbox_secret`) or made on first start and kept in the data dir (`super::keys`).
//!
//! Where things are: this file holds the configuration, [`SandboxPayments`] and its test hooks;
//! `provider.rs` the provider calls (create, query, refund, close, statement, verify_notify);
//! `instructions.rs` what create answers for each method; `cashier.rs` the cashier's view of a
//! trade, the payer's settle and the return URL; `cashier_page.rs` the page, its style and
//! script; `delivery.rs` the notify's schedule; `ledger.rs` the tables.

mod cashier;
mod cashier_page;
mod delivery;
mod instructions;
pub mod ledger;
#[cfg(test)]
mod ledger_tests;
mod provider;
#[cfg(test)]
pub(crate) mod tests;

pub use cashier::{return_url_for, CashierState, CashierView, SettleError, SettleOutcome};
pub use cashier_page::{
    cashier_not_found_page, cashier_page, CASHIER_CSS_PATH, CASHIER_JS_PATH, PAGE_SCRIPT,
    PAGE_STYLE,
};
pub use delivery::{SWEEP_EVERY, TAKE_OVER_AFTER_MS};

use actors::clock::Clock;
use actors::db::{Db, DbError};
use actors::providers::payment::{encode_component, PaymentError};
use ledger::{Ledger, NotifyState};
use serde::Deserialize;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The provider's name in `POST /payments/notify/{provider}`.
pub const NAME: &str = "sandbox";
/// The merchant shown at the cashier.
pub const MERCHANT_NAME: &str = "比萨 sandbox";
/// What the notify must be answered with to stop the repeats.
pub const ACK: &str = "success";
/// The notify schedule: the delay before each attempt, after the previous one. Alipay repeats
/// over a day (4 min, 10 min, … 15 h); the sandbox is quicker and gives up after about 19
/// minutes, when the status page's query has long answered anyway.
pub const DEFAULT_RETRY_DELAYS_MS: [u64; 8] =
    [0, 2_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000];
/// Per notify attempt, connect to last byte.
pub const DEFAULT_NOTIFY_TIMEOUT_MS: u64 = 5_000;
/// The shortest notify key accepted.
pub const MIN_SECRET_CHARS: usize = 16;

/// Configuration (all optional). The notify key is not here: see [`SandboxPayments::new`].
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct SandboxConfig {
    /// Where the cashier is served, without the trailing `/`. Empty (the default): the cashier
    /// URLs are relative (`/sandbox/cashier/…`), which suits a browser on our own origin.
    pub base_url: String,
    /// The delay before each notify attempt, in ms; the number of entries is the most
    /// attempts. Tests use short ones.
    pub notify_retry_delays_ms: Vec<u64>,
    pub notify_timeout_ms: u64,
}

impl Default for SandboxConfig {
    fn default() -> SandboxConfig {
        SandboxConfig {
            base_url: String::new(),
            notify_retry_delays_ms: DEFAULT_RETRY_DELAYS_MS.to_vec(),
            notify_timeout_ms: DEFAULT_NOTIFY_TIMEOUT_MS,
        }
    }
}

/// How the notify of a settled attempt has fared so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotifyDelivery {
    pub attempts: u32,
    /// We answered `success`.
    pub delivered: bool,
    /// Every scheduled attempt was made without `success`.
    pub gave_up: bool,
    /// The last answer: the body (cut to 200 characters) or the transport error.
    pub last_answer: Option<String>,
}

#[derive(Default)]
struct Faults {
    create: Option<PaymentError>,
    query: Option<PaymentError>,
    refund: Option<PaymentError>,
    /// The next settle's notify is lost: recorded as given up, never sent.
    lose_notify: bool,
}

pub struct SandboxPayments {
    base_url: String,
    secret: String,
    clock: Clock,
    ledger: Ledger,
    sender: delivery::Sender,
    faults: Mutex<Faults>,
}

impl fmt::Debug for SandboxPayments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SandboxPayments")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The provider could not read or write its ledger: like a provider outage, the call may be
/// repeated.
fn unavailable(e: DbError) -> PaymentError {
    PaymentError::Unavailable(format!("sandbox ledger: {e}"))
}

impl SandboxPayments {
    /// The sandbox over its ledger in `db` (migrated), signing with `secret` (at least
    /// [`MIN_SECRET_CHARS`]). Fails on a short key or when the HTTP client cannot be built.
    pub fn new(
        config: SandboxConfig,
        secret: String,
        db: Db,
        clock: Clock,
    ) -> anyhow::Result<SandboxPayments> {
        anyhow::ensure!(
            secret.trim().chars().count() >= MIN_SECRET_CHARS,
            "the sandbox notify key must be at least {MIN_SECRET_CHARS} characters"
        );
        let timeout = Duration::from_millis(config.notify_timeout_ms);
        let http = reqwest::Client::builder().timeout(timeout).build()?;
        let ledger = Ledger::new(db);
        Ok(SandboxPayments {
            base_url: config.base_url.trim().trim_end_matches('/').to_string(),
            secret: secret.trim().to_owned(),
            sender: delivery::Sender {
                ledger: ledger.clone(),
                http,
                delays: config
                    .notify_retry_delays_ms
                    .iter()
                    .map(|ms| Duration::from_millis(*ms))
                    .collect(),
                timeout,
                clock: clock.clone(),
                running: Arc::default(),
            },
            clock,
            ledger,
            faults: Mutex::new(Faults::default()),
        })
    }

    /// Resumes every notify still being sent (at its next scheduled time), then takes over
    /// now and then those whose sender stopped. Run it as long as the server lives.
    pub async fn resume_and_sweep(&self) {
        self.sender.clone().resume_and_sweep().await;
    }

    /// Resumes the notifies still being sent whose next attempt was due before `before`
    /// (`i64::MAX`: all of them, as at start); answers how many.
    pub async fn resume_notifies(&self, before: i64) -> Result<usize, DbError> {
        self.sender.resume_due_before(before).await
    }

    /// The cashier page of an attempt.
    pub fn cashier_url(&self, payment_id: &str) -> String {
        format!(
            "{}/sandbox/cashier/{}",
            self.base_url,
            encode_component(payment_id)
        )
    }

    /// The next `create` fails with `error` (once).
    pub fn fail_next_create(&self, error: PaymentError) {
        lock(&self.faults).create = Some(error);
    }

    /// The next `query` fails with `error` (once).
    pub fn fail_next_query(&self, error: PaymentError) {
        lock(&self.faults).query = Some(error);
    }

    /// The next `refund` fails with `error` (once).
    pub fn fail_next_refund(&self, error: PaymentError) {
        lock(&self.faults).refund = Some(error);
    }

    /// The notify of the next settle never reaches us (once): it is recorded as given up
    /// without an attempt, as when every attempt was lost on the way. Only the status page's
    /// query or reconciliation can then find the payment.
    pub fn lose_next_notify(&self) {
        lock(&self.faults).lose_notify = true;
    }

    /// How the notify of a settled attempt has fared; `None` before the settle.
    pub async fn notify_delivery(
        &self,
        payment_id: &str,
    ) -> Result<Option<NotifyDelivery>, DbError> {
        let trade = self.ledger.get(payment_id).await?;
        Ok(trade
            .filter(|t| t.notify_state.is_some())
            .map(|t| NotifyDelivery {
                attempts: t.notify_attempts,
                delivered: t.notify_state == Some(NotifyState::Delivered),
                gave_up: t.notify_state == Some(NotifyState::GaveUp),
                last_answer: t.notify_last_answer,
            }))
    }
}
