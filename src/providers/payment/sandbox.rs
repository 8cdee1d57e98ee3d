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

mod delivery;
pub mod ledger;
#[cfg(test)]
mod ledger_tests;

pub use delivery::{SWEEP_EVERY, TAKE_OVER_AFTER_MS};

use actors::clock::Clock;
use actors::db::{Db, DbError};
use actors::domain::money::Fen;
use actors::domain::payments::return_path::ReturnPath;
use actors::providers::payment::{
    encode_component, encode_form, param, parse_form, sign_params, verify_params, CloseOutcome,
    CreatePayment, Notify, NotifyStatus, PayInstructions, PayMethod, PaymentError, PaymentProvider,
    ProviderPaymentStatus, RefundResult, StatementKind, StatementLine, REFUND_REFUSED, SIGN_PARAM,
    TRADE_NOT_EXIST,
};
use async_trait::async_trait;
use ledger::{Ledger, NotifyState, RefundWrite, TradeRow, TradeState};
use serde::{Deserialize, Serialize};
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

/// What the payer chose at the cashier (`POST /sandbox/api/pay/{paymentId}` `{outcome}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SettleOutcome {
    Success,
    Fail,
    Cancel,
}

impl SettleOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            SettleOutcome::Success => "success",
            SettleOutcome::Fail => "fail",
            SettleOutcome::Cancel => "cancel",
        }
    }

    pub fn parse(text: &str) -> Option<SettleOutcome> {
        [
            SettleOutcome::Success,
            SettleOutcome::Fail,
            SettleOutcome::Cancel,
        ]
        .into_iter()
        .find(|o| o.as_str() == text)
    }

    fn notify_status(self) -> NotifyStatus {
        match self {
            SettleOutcome::Success => NotifyStatus::Paid,
            SettleOutcome::Fail => NotifyStatus::Failed,
            SettleOutcome::Cancel => NotifyStatus::Cancelled,
        }
    }
}

/// Why a settle was refused (the cashier handler answers 404, 409 or 503).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettleError {
    #[error("no such sandbox payment")]
    NotFound,
    /// Past `expires_at` unpaid, or closed (its time ran out, or the order was cancelled).
    #[error("the sandbox payment has expired")]
    Expired,
    /// Settled before with another outcome (the same outcome again is answered as before).
    #[error("the sandbox payment is already settled")]
    AlreadySettled,
    /// The ledger could not be read or written; nothing was settled.
    #[error("the sandbox ledger is unavailable: {0}")]
    Unavailable(String),
}

impl From<DbError> for SettleError {
    fn from(e: DbError) -> SettleError {
        SettleError::Unavailable(e.to_string())
    }
}

/// The state the cashier shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CashierState {
    Open,
    Paid,
    Failed,
    Cancelled,
    Closed,
}

/// What the cashier page shows of an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashierView {
    pub payment_id: String,
    pub order_no: String,
    pub subject: String,
    pub amount: Fen,
    pub method: PayMethod,
    pub state: CashierState,
    /// Epoch ms.
    pub expires_at: i64,
    /// Epoch ms, when the view was taken (the page counts down from `expires_at - now`).
    pub now: i64,
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

    /// What the cashier shows of an attempt; `None` for an unknown id.
    pub async fn cashier_view(&self, payment_id: &str) -> Result<Option<CashierView>, DbError> {
        let now = self.clock.now_ms();
        let Some(trade) = self.ledger.get(payment_id).await? else {
            return Ok(None);
        };
        let state = match trade.state_at(now) {
            TradeState::Pending => CashierState::Open,
            TradeState::Settled(SettleOutcome::Success) => CashierState::Paid,
            TradeState::Settled(SettleOutcome::Fail) => CashierState::Failed,
            TradeState::Settled(SettleOutcome::Cancel) => CashierState::Cancelled,
            TradeState::Closed => CashierState::Closed,
        };
        Ok(Some(CashierView {
            payment_id: trade.payment_id,
            order_no: trade.order_no,
            subject: trade.subject,
            amount: trade.amount,
            method: trade.method,
            state,
            expires_at: trade.expires_at,
            now,
        }))
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

    /// The payer's choice at the cashier: marks the trade (once: only a pending trade in its
    /// time settles), starts the signed notify to the notify URL in the background and answers
    /// where the browser goes next: the return path with `orderNo`, `paymentId` and, on fail or
    /// cancel, `customestatus=1`. The same outcome again answers the same and sends nothing more.
    pub async fn settle(
        &self,
        payment_id: &str,
        outcome: SettleOutcome,
    ) -> Result<String, SettleError> {
        let now = self.clock.now_ms();
        let trade = self
            .ledger
            .get(payment_id)
            .await?
            .ok_or(SettleError::NotFound)?;
        let back = return_url_for(&trade.return_url, &trade.order_no, payment_id, outcome);
        if trade.state_at(now) == TradeState::Pending {
            let mut params: Vec<(String, String)> = vec![
                ("payment_id".into(), payment_id.to_owned()),
                ("trade_no".into(), trade.trade_no.clone()),
                ("status".into(), outcome.notify_status().as_str().into()),
                ("amount".into(), trade.amount.0.to_string()),
                ("at".into(), now.to_string()),
            ];
            let sign = sign_params(self.secret.as_bytes(), &params);
            params.push((SIGN_PARAM.into(), sign));
            let first_at = now
                + self
                    .sender
                    .delays
                    .first()
                    .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0));
            if self
                .ledger
                .settle(payment_id, outcome, now, &encode_form(&params), first_at)
                .await?
            {
                tracing::info!(
                    payment_id,
                    outcome = outcome.as_str(),
                    "sandbox payment settled"
                );
                if std::mem::take(&mut lock(&self.faults).lose_notify) {
                    self.ledger.give_up(payment_id, 0).await?;
                } else {
                    self.sender.spawn(payment_id);
                }
                return Ok(back);
            }
        }
        // Not ours to settle: answer from what the ledger holds now (a concurrent click may
        // have settled it a moment ago).
        let trade = self
            .ledger
            .get(payment_id)
            .await?
            .ok_or(SettleError::NotFound)?;
        match trade.state_at(now) {
            TradeState::Settled(before) if before == outcome => Ok(back),
            TradeState::Settled(_) => Err(SettleError::AlreadySettled),
            TradeState::Closed | TradeState::Pending => Err(SettleError::Expired),
        }
    }

    /// A trade number: 13 digits of time and 6 random ones, like a UnionPay tn. Unique in the
    /// ledger; a clash (one in a million within one ms) is drawn again.
    fn trade_no(now: i64) -> String {
        let n = uuid::Uuid::new_v4().as_u128() % 1_000_000;
        format!("{:013}{n:06}", now.max(0))
    }

    fn signed(&self, pairs: Vec<(String, String)>) -> Vec<(String, String)> {
        let sign = sign_params(self.secret.as_bytes(), &pairs);
        let mut pairs = pairs;
        pairs.push((SIGN_PARAM.into(), sign));
        pairs
    }

    fn instructions(&self, req: &CreatePayment, trade_no: &str, now: i64) -> PayInstructions {
        let cashier = self.cashier_url(&req.payment_id);
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let mut out = PayInstructions::empty(req.method, trade_no);
        match req.method {
            PayMethod::AlipayWap => out.html = Some(auto_submit_form(&cashier, trade_no)),
            PayMethod::AlipayApp => {
                let pairs = self.signed(vec![
                    ("app_id".into(), NAME.into()),
                    ("method".into(), "sandbox.trade.app.pay".into()),
                    ("out_trade_no".into(), req.payment_id.clone()),
                    ("trade_no".into(), trade_no.into()),
                    ("total_amount".into(), req.amount.to_string()),
                    ("subject".into(), req.subject.clone()),
                    ("timestamp".into(), now.to_string()),
                    ("cashier_url".into(), cashier),
                ]);
                out.pay_info = Some(encode_form(&pairs));
            }
            PayMethod::WechatApp => {
                let pairs = self.signed(vec![
                    ("appid".into(), NAME.into()),
                    ("partnerid".into(), "sandbox-merchant".into()),
                    ("prepayid".into(), trade_no.into()),
                    ("package".into(), "Sign=WXPay".into()),
                    ("noncestr".into(), nonce),
                    ("timestamp".into(), (now / 1000).to_string()),
                    ("cashierUrl".into(), cashier),
                ]);
                out.pay_info = Some(json_object(&pairs).to_string());
            }
            PayMethod::WechatJsapi => {
                let pairs = self.signed(vec![
                    ("appId".into(), NAME.into()),
                    ("timeStamp".into(), (now / 1000).to_string()),
                    ("nonceStr".into(), nonce),
                    ("package".into(), format!("prepay_id={trade_no}")),
                    ("signType".into(), "HMAC-SHA256".into()),
                ]);
                out.sign_info = Some(json_object(&pairs).to_string());
                // No WeixinJSBridge in the sandbox: the client opens the cashier instead.
                out.url = Some(cashier);
            }
            PayMethod::WechatH5 | PayMethod::Ccb | PayMethod::Bbc => out.url = Some(cashier),
            PayMethod::UnionpayApp => out.tn = Some(trade_no.to_owned()),
            PayMethod::UnionpayWeb => {
                out.union_pay_paras = Some(serde_json::json!({
                    "action": cashier,
                    "method": "GET",
                    "params": {
                        "merId": "SANDBOX",
                        "orderId": req.payment_id,
                        "txnAmt": req.amount.0.to_string(),
                        "tn": trade_no,
                    },
                }));
            }
            PayMethod::Offline => {}
        }
        out
    }
}

#[async_trait]
impl PaymentProvider for SandboxPayments {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn create(&self, req: &CreatePayment) -> Result<PayInstructions, PaymentError> {
        if let Some(error) = lock(&self.faults).create.take() {
            return Err(error);
        }
        let now = self.clock.now_ms();
        let invalid = |msg: &str| Err(PaymentError::rejected("INVALID_PARAMETER", msg));
        if !req.method.needs_provider() {
            return invalid("offline payment needs no provider");
        }
        if req.payment_id.trim().is_empty() || req.order_no.trim().is_empty() {
            return invalid("payment_id and order_no are required");
        }
        if req.amount <= Fen::ZERO {
            return invalid("the amount must be positive");
        }
        if !(req.notify_url.starts_with("http://") || req.notify_url.starts_with("https://")) {
            return invalid("notify_url must be an absolute http(s) URL");
        }
        if now >= req.expires_at {
            return invalid("expires_at has passed");
        }
        for _ in 0..3 {
            if let Some(trade) = self
                .ledger
                .get(&req.payment_id)
                .await
                .map_err(unavailable)?
            {
                let same = trade.order_no == req.order_no
                    && trade.amount == req.amount
                    && trade.method == req.method;
                return if same && trade.state_at(now) == TradeState::Pending {
                    Ok(trade.instructions)
                } else {
                    Err(PaymentError::rejected(
                        "TRADE_HAS_EXISTED",
                        "交易已存在 (the payment id is taken)",
                    ))
                };
            }
            let trade_no = Self::trade_no(now);
            let instructions = self.instructions(req, &trade_no, now);
            let trade = TradeRow {
                payment_id: req.payment_id.clone(),
                trade_no,
                order_no: req.order_no.clone(),
                subject: req.subject.clone(),
                amount: req.amount,
                method: req.method,
                notify_url: req.notify_url.clone(),
                return_url: req.return_url.clone(),
                instructions: instructions.clone(),
                state: TradeState::Pending,
                created_at: now,
                expires_at: req.expires_at,
                settled_at: None,
                refunded: Fen::ZERO,
                notify_body: None,
                notify_state: None,
                notify_attempts: 0,
                notify_next_at: None,
                notify_last_answer: None,
                version: 1,
            };
            // Taken meanwhile (the same create twice at once, or a trade number clash): the
            // next round answers the trade that won, or draws another number.
            if self.ledger.insert(&trade).await.map_err(unavailable)? {
                tracing::info!(
                    payment_id = %req.payment_id,
                    order_no = %req.order_no,
                    method = req.method.as_str(),
                    amount_fen = req.amount.0,
                    "sandbox payment created"
                );
                return Ok(instructions);
            }
        }
        Err(PaymentError::Unavailable(
            "the sandbox could not record the trade".into(),
        ))
    }

    async fn query(&self, payment_id: &str) -> Result<ProviderPaymentStatus, PaymentError> {
        if let Some(error) = lock(&self.faults).query.take() {
            return Err(error);
        }
        let now = self.clock.now_ms();
        let Some(trade) = self.ledger.get(payment_id).await.map_err(unavailable)? else {
            return Err(PaymentError::rejected(TRADE_NOT_EXIST, "交易不存在"));
        };
        Ok(match trade.state_at(now) {
            TradeState::Pending => ProviderPaymentStatus::Pending,
            TradeState::Closed => ProviderPaymentStatus::Closed,
            TradeState::Settled(SettleOutcome::Success) => ProviderPaymentStatus::Paid {
                trade_no: trade.trade_no,
                amount: trade.amount,
                paid_at: trade.settled_at.unwrap_or(now),
            },
            TradeState::Settled(SettleOutcome::Fail) => ProviderPaymentStatus::Failed {
                reason: "declined by the payer".into(),
            },
            TradeState::Settled(SettleOutcome::Cancel) => ProviderPaymentStatus::Failed {
                reason: "cancelled by the payer".into(),
            },
        })
    }

    async fn refund(
        &self,
        payment_id: &str,
        refund_id: &str,
        amount: Fen,
    ) -> Result<RefundResult, PaymentError> {
        if let Some(error) = lock(&self.faults).refund.take() {
            return Err(error);
        }
        let refused = |msg: String| Err(PaymentError::rejected(REFUND_REFUSED, msg));
        // Each round loses only to a refund that was written: bounded by the refunds a
        // payment can take, with room for many callers at once.
        for _ in 0..50 {
            let now = self.clock.now_ms();
            let Some(trade) = self.ledger.get(payment_id).await.map_err(unavailable)? else {
                return refused("交易不存在 (no such payment)".into());
            };
            let refunds = self.ledger.refunds(payment_id).await.map_err(unavailable)?;
            if let Some(before) = refunds.iter().find(|r| r.refund_id == refund_id) {
                return if before.amount == amount {
                    Ok(before.clone())
                } else {
                    refused(
                        "退款单号已用于其他金额 (the refund id was used with another amount)"
                            .into(),
                    )
                };
            }
            if amount <= Fen::ZERO {
                return refused("退款金额必须大于0 (the refund amount must be positive)".into());
            }
            if trade.state != TradeState::Settled(SettleOutcome::Success) {
                return refused("交易未支付，不能退款 (the payment is not paid)".into());
            }
            let left = trade.amount - trade.refunded;
            if amount > left {
                return refused(format!(
                    "退款金额超过可退金额 ¥{left} (the refund exceeds the refundable ¥{left})"
                ));
            }
            let result = RefundResult {
                refund_id: refund_id.to_owned(),
                provider_refund_no: format!("R{}{:02}", trade.trade_no, refunds.len() + 1),
                amount,
                refunded_total: trade.refunded + amount,
                at: now,
            };
            // Moved (another refund first) or the id taken meanwhile: the next round answers
            // from what the ledger holds then.
            if self
                .ledger
                .refund(&trade, &result)
                .await
                .map_err(unavailable)?
                == RefundWrite::Done
            {
                tracing::info!(
                    payment_id,
                    refund_id,
                    amount_fen = amount.0,
                    "sandbox payment refunded"
                );
                return Ok(result);
            }
        }
        Err(PaymentError::Unavailable(
            "the sandbox ledger kept changing; try again".into(),
        ))
    }

    async fn close(&self, payment_id: &str) -> Result<CloseOutcome, PaymentError> {
        let now = self.clock.now_ms();
        let Some(trade) = self.ledger.get(payment_id).await.map_err(unavailable)? else {
            return Err(PaymentError::rejected(TRADE_NOT_EXIST, "交易不存在"));
        };
        let paid = |t: TradeRow| CloseOutcome::Paid {
            paid_at: t.settled_at.unwrap_or(now),
            trade_no: t.trade_no,
            amount: t.amount,
        };
        match trade.state {
            TradeState::Settled(SettleOutcome::Success) => Ok(paid(trade)),
            // A failed or cancelled attempt can no more be paid than a closed one.
            TradeState::Settled(_) | TradeState::Closed => Ok(CloseOutcome::Closed),
            TradeState::Pending => {
                if self.ledger.close(payment_id).await.map_err(unavailable)? {
                    tracing::info!(payment_id, at = now, "sandbox payment closed");
                    return Ok(CloseOutcome::Closed);
                }
                // Settled between the read and the close: answer what it became.
                match self.ledger.get(payment_id).await.map_err(unavailable)? {
                    Some(t) if t.state == TradeState::Settled(SettleOutcome::Success) => {
                        Ok(paid(t))
                    }
                    _ => Ok(CloseOutcome::Closed),
                }
            }
        }
    }

    async fn statement(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<StatementLine>, PaymentError> {
        let rows = self
            .ledger
            .statement_rows(from_ms, to_ms)
            .await
            .map_err(unavailable)?;
        let mut lines: Vec<StatementLine> = rows
            .into_iter()
            .map(
                |(payment_id, trade_no, refund_id, amount, at)| StatementLine {
                    kind: if refund_id.is_some() {
                        StatementKind::Refund
                    } else {
                        StatementKind::Payment
                    },
                    payment_id,
                    trade_no,
                    refund_id,
                    amount,
                    at,
                },
            )
            .collect();
        lines.sort_by(|a, b| (a.at, &a.payment_id).cmp(&(b.at, &b.payment_id)));
        Ok(lines)
    }

    fn verify_notify(&self, body: &[u8]) -> Result<Notify, PaymentError> {
        let params = parse_form(body)?;
        if !verify_params(self.secret.as_bytes(), &params) {
            return Err(PaymentError::BadSignature);
        }
        let field = |key: &str| {
            param(&params, key)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| PaymentError::Malformed(format!("notify without {key}")))
        };
        let number = |key: &str| {
            field(key)?
                .parse::<i64>()
                .map_err(|_| PaymentError::Malformed(format!("notify {key} is not a number")))
        };
        let status = field("status")?;
        Ok(Notify {
            payment_id: field("payment_id")?.to_owned(),
            trade_no: field("trade_no")?.to_owned(),
            status: NotifyStatus::parse(status)
                .ok_or_else(|| PaymentError::Malformed(format!("notify status {status:?}")))?,
            amount: Fen(number("amount")?),
            at: number("at")?,
        })
    }

    fn notify_ack(&self) -> &'static str {
        ACK
    }
}

fn json_object(pairs: &[(String, String)]) -> serde_json::Value {
    serde_json::Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect(),
    )
}

/// An Alipay-style form that submits itself to the cashier once it is in the page (a client
/// that sets it with innerHTML must submit `document.forms[0]` itself: such scripts do not run).
fn auto_submit_form(cashier_url: &str, trade_no: &str) -> String {
    format!(
        "<form id=\"sandboxpaysubmit\" name=\"sandboxpaysubmit\" action=\"{}\" method=\"get\">\
         <input type=\"hidden\" name=\"trade_no\" value=\"{}\">\
         <input type=\"submit\" value=\"ok\" style=\"display:none\"></form>\
         <script>document.forms['sandboxpaysubmit'].submit();</script>",
        escape(cashier_url),
        escape(trade_no)
    )
}

/// Where the browser goes after the cashier: `return_url` when it is a path of our site
/// ([`ReturnPath`]; `/order/status` otherwise, so a trade recorded with anything else cannot
/// send the payer away) with `orderNo` (unless it has one), `paymentId` and, on fail or cancel,
/// `customestatus=1` (spec §2, §4) added to its query, before any `#fragment`.
pub fn return_url_for(
    return_url: &str,
    order_no: &str,
    payment_id: &str,
    outcome: SettleOutcome,
) -> String {
    let path = ReturnPath::parse(return_url);
    let return_url = path.as_ref().map_or("/order/status", ReturnPath::as_str);
    let (base, fragment) = match return_url.find('#') {
        Some(i) => return_url.split_at(i),
        None => (return_url, ""),
    };
    let query = base.split_once('?').map(|(_, q)| q).unwrap_or("");
    let has = |key: &str| query.split('&').any(|kv| kv.split('=').next() == Some(key));
    let mut extra: Vec<(&str, &str)> = Vec::new();
    if !has("orderNo") {
        extra.push(("orderNo", order_no));
    }
    if !has("paymentId") {
        extra.push(("paymentId", payment_id));
    }
    if outcome != SettleOutcome::Success && !has("customestatus") {
        extra.push(("customestatus", "1"));
    }
    if extra.is_empty() {
        return return_url.to_owned();
    }
    let separator = if !base.contains('?') {
        "?"
    } else if base.ends_with('?') || base.ends_with('&') {
        ""
    } else {
        "&"
    };
    format!("{base}{separator}{}{fragment}", encode_form(&extra))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn method_label(method: PayMethod) -> &'static str {
    match method {
        PayMethod::AlipayWap | PayMethod::AlipayApp => "支付宝 · Alipay",
        PayMethod::WechatApp | PayMethod::WechatH5 | PayMethod::WechatJsapi => {
            "微信支付 · WeChat Pay"
        }
        PayMethod::UnionpayApp | PayMethod::UnionpayWeb => "云闪付 · UnionPay",
        PayMethod::Ccb => "建设银行 · CCB",
        PayMethod::Bbc => "银行支付 · Bank",
        PayMethod::Offline => "货到付款 · Pay on delivery",
    }
}

/// The cashier's style sheet, served at [`CASHIER_CSS_PATH`]: the Content-Security-Policy
/// allows no inline style element.
pub const PAGE_STYLE: &str = r#"
:root{color-scheme:light;--brand:#c8102e;--ink:#1f2328;--muted:#6b7280;--line:#e5e7eb;--bg:#f4f4f6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 -apple-system,BlinkMacSystemFont,"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Segoe UI",Roboto,sans-serif}
main{max-width:420px;margin:0 auto;padding:20px 16px calc(24px + env(safe-area-inset-bottom))}
.badge{display:inline-block;font-size:12px;color:#92400e;background:#fef3c7;border-radius:999px;padding:2px 10px}
.card{background:#fff;border-radius:16px;padding:24px 20px;margin-top:12px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.merchant,.subject{color:var(--muted);font-size:14px;text-align:center;margin:0}
.amount{font-size:40px;font-weight:600;text-align:center;margin:8px 0 4px;font-variant-numeric:tabular-nums}
.amount small{font-size:22px;margin-right:2px}
dl{display:grid;grid-template-columns:auto 1fr;gap:10px 12px;margin:20px 0 0;font-size:14px;border-top:1px solid var(--line);padding-top:16px}
dt{color:var(--muted)}dd{margin:0;text-align:right;word-break:break-all}
.en{display:block;font-size:12px;color:var(--muted)}
.actions{display:grid;gap:12px;margin-top:24px}
button{appearance:none;border:1px solid transparent;border-radius:12px;padding:12px;font:inherit;font-weight:600;cursor:pointer;min-height:48px}
button:disabled{opacity:.5;cursor:default}
.pay{background:var(--brand);color:#fff}
.fail{background:#fff;color:var(--brand);border-color:var(--brand)}
.cancel{background:#fff;color:var(--ink);border-color:var(--line)}
.state{text-align:center;font-weight:600;margin:24px 0 0}
#msg{min-height:1.5em;text-align:center;color:var(--muted);font-size:14px;margin:16px 0 0}
"#;

/// The cashier's script, served at [`CASHIER_JS_PATH`]: the Content-Security-Policy allows no
/// inline script.
pub const PAGE_SCRIPT: &str = r#"
(function () {
  var root = document.getElementById('cashier');
  var msg = document.getElementById('msg');
  var left = document.getElementById('left');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-outcome]'));
  var deadline = Date.now() + Number(root.getAttribute('data-left-ms') || 0);
  var timer = null;
  function setBusy(busy) { buttons.forEach(function (b) { b.disabled = busy; }); }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function tick() {
    if (!left) { return; }
    var ms = Math.max(0, deadline - Date.now());
    var s = Math.floor(ms / 1000);
    left.textContent = pad(Math.floor(s / 60)) + ':' + pad(s % 60);
    if (ms === 0) {
      clearInterval(timer);
      setBusy(true);
      msg.textContent = '支付已超时 · The payment has expired';
    }
  }
  if (left && buttons.length) { timer = setInterval(tick, 1000); tick(); }
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      setBusy(true);
      msg.textContent = '处理中… · Processing…';
      fetch(root.getAttribute('data-pay-url'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
        body: JSON.stringify({ outcome: button.getAttribute('data-outcome') })
      }).then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          var data = (body && body.data) || body || {};
          if (res.ok && data.returnUrl) {
            clearInterval(timer);
            window.location.replace(data.returnUrl);
            return;
          }
          throw new Error((body && body.errMsg) || ('HTTP ' + res.status));
        });
      }).catch(function (err) {
        setBusy(false);
        msg.textContent = '操作失败，请重试 · Failed, please try again (' + err.message + ')';
      });
    });
  });
})();
"#;

pub const CASHIER_CSS_PATH: &str = "/sandbox/cashier.css";
pub const CASHIER_JS_PATH: &str = "/sandbox/cashier.js";

fn page(title: &str, root_attrs: &str, body: &str, script: bool) -> String {
    let script = if script {
        format!("<script src=\"{CASHIER_JS_PATH}\"></script>")
    } else {
        String::new()
    };
    format!(
        "<!doctype html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n\
         <meta name=\"robots\" content=\"noindex\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"{CASHIER_CSS_PATH}\">\n</head>\n<body>\n<main id=\"cashier\"{root_attrs}>\n\
         <span class=\"badge\">沙箱环境，不会扣款 · Sandbox, no real money</span>\n{body}</main>\n\
         {script}\n</body>\n</html>\n"
    )
}

/// The sandbox cashier (`GET /sandbox/cashier/{paymentId}`): the merchant, the amount in yuan,
/// the order number and, while open, Pay / Fail / Cancel buttons that POST `{outcome}` to
/// `/sandbox/api/pay/{paymentId}` and then go to the answered `returnUrl` (read from the body
/// or from the API envelope's `data`). A settled or closed attempt shows its state instead.
/// Served as `text/html; charset=utf-8`; its script and style are files of their own.
pub fn cashier_page(view: &CashierView) -> String {
    let pay_url = format!("/sandbox/api/pay/{}", encode_component(&view.payment_id));
    let left_ms = (view.expires_at - view.now).max(0);
    let open = view.state == CashierState::Open && left_ms > 0;
    let state = match view.state {
        CashierState::Open if open => "",
        CashierState::Open | CashierState::Closed => "交易已关闭 · This payment is closed",
        CashierState::Paid => "已支付 · Paid",
        CashierState::Failed => "支付失败 · Payment failed",
        CashierState::Cancelled => "已取消 · Cancelled",
    };
    let bottom = if open {
        let seconds = left_ms / 1000;
        format!(
            "<dt>剩余时间<span class=\"en\">Time left</span></dt><dd id=\"left\">{:02}:{:02}</dd>\n</dl>\n\
             <div class=\"actions\">\n\
             <button type=\"button\" class=\"pay\" data-outcome=\"success\">确认支付 · Pay</button>\n\
             <button type=\"button\" class=\"fail\" data-outcome=\"fail\">支付失败 · Fail</button>\n\
             <button type=\"button\" class=\"cancel\" data-outcome=\"cancel\">取消支付 · Cancel</button>\n\
             </div>\n",
            seconds / 60,
            seconds % 60
        )
    } else {
        format!("</dl>\n<p class=\"state\">{state}</p>\n")
    };
    let body = format!(
        "<section class=\"card\">\n<p class=\"merchant\">{merchant}</p>\n\
         <p class=\"amount\"><small>¥</small>{amount}</p>\n<p class=\"subject\">{subject}</p>\n<dl>\n\
         <dt>订单号<span class=\"en\">Order no.</span></dt><dd>{order_no}</dd>\n\
         <dt>支付方式<span class=\"en\">Method</span></dt><dd>{method}</dd>\n\
         {bottom}<p id=\"msg\" role=\"status\" aria-live=\"polite\"></p>\n</section>\n",
        merchant = escape(MERCHANT_NAME),
        amount = view.amount,
        subject = escape(&view.subject),
        order_no = escape(&view.order_no),
        method = method_label(view.method),
    );
    page(
        &format!("收银台 · Cashier · {}", escape(MERCHANT_NAME)),
        &format!(
            " data-pay-url=\"{}\" data-left-ms=\"{left_ms}\"",
            escape(&pay_url)
        ),
        &body,
        open,
    )
}

/// The cashier for an unknown payment id (serve it with 404).
pub fn cashier_not_found_page() -> String {
    page(
        &format!("收银台 · Cashier · {}", escape(MERCHANT_NAME)),
        "",
        "<section class=\"card\">\n<p class=\"state\">支付单不存在 · No such payment</p>\n</section>\n",
        false,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use actix_web::dev::ServerHandle;
    use actix_web::{web, App, HttpResponse, HttpServer};

    pub(crate) const NOW: i64 = 1_767_225_600_000;
    pub(crate) const HALF_HOUR: i64 = 30 * 60 * 1000;

    /// A notify receiver: records each body and answers from a script (the last answer
    /// repeats).
    pub(crate) struct Receiver {
        pub(crate) url: String,
        bodies: Arc<Mutex<Vec<Vec<u8>>>>,
        pub(crate) handle: ServerHandle,
    }

    struct Script {
        answers: Vec<&'static str>,
        bodies: Arc<Mutex<Vec<Vec<u8>>>>,
    }

    async fn receive(script: web::Data<Script>, body: web::Bytes) -> HttpResponse {
        let n = {
            let mut bodies = lock(&script.bodies);
            bodies.push(body.to_vec());
            bodies.len()
        };
        let answer = script
            .answers
            .get(n - 1)
            .or(script.answers.last())
            .copied()
            .unwrap_or("success");
        HttpResponse::Ok().content_type("text/plain").body(answer)
    }

    impl Receiver {
        pub(crate) async fn start(answers: Vec<&'static str>) -> Receiver {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let bodies = Arc::new(Mutex::new(Vec::new()));
            let script = web::Data::new(Script {
                answers,
                bodies: bodies.clone(),
            });
            let server = HttpServer::new(move || {
                App::new()
                    .app_data(script.clone())
                    .route("/api/v1/payments/notify/sandbox", web::post().to(receive))
            })
            .workers(1)
            .disable_signals()
            .listen(listener)
            .unwrap()
            .run();
            let handle = server.handle();
            actix_web::rt::spawn(server);
            Receiver {
                url: format!("http://127.0.0.1:{port}/api/v1/payments/notify/sandbox"),
                bodies,
                handle,
            }
        }

        pub(crate) fn bodies(&self) -> Vec<Vec<u8>> {
            lock(&self.bodies).clone()
        }
    }

    /// A fresh ledger: an SQLite file of its own, migrated.
    pub(crate) async fn ledger_db() -> Db {
        let dir = std::env::temp_dir().join(format!(
            "pizza-sandbox-test-{}",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::connect(
            &format!("sqlite://{}?mode=rwc", dir.join("ledger.db").display()),
            4,
        )
        .await
        .unwrap();
        db.migrate().await.unwrap();
        db
    }

    pub(crate) fn sandbox_on(db: &Db, clock: &Clock) -> SandboxPayments {
        SandboxPayments::new(
            SandboxConfig {
                base_url: "http://pay.test/".into(),
                notify_retry_delays_ms: vec![0, 20, 20, 20, 20],
                notify_timeout_ms: 2_000,
            },
            "test-secret-of-the-sandbox".into(),
            db.clone(),
            clock.clone(),
        )
        .unwrap()
    }

    async fn sandbox(clock: &Clock) -> SandboxPayments {
        sandbox_on(&ledger_db().await, clock)
    }

    pub(crate) fn request(payment_id: &str, method: PayMethod, notify_url: &str) -> CreatePayment {
        CreatePayment {
            payment_id: payment_id.into(),
            order_no: "O20260101001".into(),
            amount: Fen(8990),
            subject: "比萨订单 O20260101001".into(),
            method,
            notify_url: notify_url.into(),
            return_url: "/order/status?orderNo=O20260101001".into(),
            client_ip: "203.0.113.7".into(),
            open_id: None,
            expires_at: NOW + HALF_HOUR,
        }
    }

    pub(crate) async fn settled_notify(pay: &SandboxPayments, id: &str) -> NotifyDelivery {
        for _ in 0..500 {
            if let Some(d) = pay.notify_delivery(id).await.unwrap() {
                if d.delivered || d.gave_up {
                    return d;
                }
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the notify of {id} neither arrived nor gave up");
    }

    #[actix_web::test]
    async fn create_answers_the_instructions_of_each_method() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let cashier = |id: &str| format!("http://pay.test/sandbox/cashier/{id}");
        for (i, method) in PayMethod::ALL.into_iter().enumerate() {
            let id = format!("p{i}");
            let got = pay
                .create(&request(&id, method, "http://127.0.0.1:1/n"))
                .await;
            if method == PayMethod::Offline {
                assert!(matches!(got, Err(PaymentError::Rejected { .. })), "{got:?}");
                continue;
            }
            let ins = got.unwrap();
            assert_eq!(ins.method, method);
            assert_eq!(ins.provider_trade_no.len(), 19, "{}", ins.provider_trade_no);
            assert!(ins.provider_trade_no.bytes().all(|b| b.is_ascii_digit()));
            let set = [
                ins.html.is_some(),
                ins.url.is_some(),
                ins.pay_info.is_some(),
                ins.sign_info.is_some(),
                ins.tn.is_some(),
                ins.union_pay_paras.is_some(),
            ];
            let want = match method {
                PayMethod::AlipayWap => [true, false, false, false, false, false],
                PayMethod::AlipayApp | PayMethod::WechatApp => {
                    [false, false, true, false, false, false]
                }
                PayMethod::WechatH5 | PayMethod::Ccb | PayMethod::Bbc => {
                    [false, true, false, false, false, false]
                }
                PayMethod::WechatJsapi => [false, true, false, true, false, false],
                PayMethod::UnionpayApp => [false, false, false, false, true, false],
                PayMethod::UnionpayWeb => [false, false, false, false, false, true],
                PayMethod::Offline => unreachable!(),
            };
            assert_eq!(set, want, "{method}");
            match method {
                PayMethod::AlipayWap => {
                    let html = ins.html.unwrap();
                    assert!(
                        html.contains(&format!("action=\"{}\"", cashier(&id))),
                        "{html}"
                    );
                    assert!(html.contains("method=\"get\""));
                    assert!(html.contains(".submit()"));
                }
                PayMethod::AlipayApp => {
                    let info = parse_form(ins.pay_info.unwrap().as_bytes()).unwrap();
                    assert!(verify_params(b"test-secret-of-the-sandbox", &info));
                    assert_eq!(param(&info, "out_trade_no"), Some(id.as_str()));
                    assert_eq!(param(&info, "total_amount"), Some("89.90"));
                    assert_eq!(param(&info, "cashier_url"), Some(cashier(&id).as_str()));
                }
                PayMethod::WechatApp | PayMethod::WechatJsapi => {
                    let text = ins.pay_info.or(ins.sign_info).unwrap();
                    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
                    let pairs: Vec<(String, String)> = json
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                        .collect();
                    assert!(
                        verify_params(b"test-secret-of-the-sandbox", &pairs),
                        "{text}"
                    );
                }
                PayMethod::UnionpayApp => {
                    assert_eq!(ins.tn.as_deref(), Some(ins.provider_trade_no.as_str()))
                }
                PayMethod::UnionpayWeb => {
                    let paras = ins.union_pay_paras.unwrap();
                    assert_eq!(paras["action"], cashier(&id));
                    assert_eq!(paras["params"]["txnAmt"], "8990");
                }
                _ => assert_eq!(ins.url.as_deref(), Some(cashier(&id).as_str())),
            }
        }
    }

    #[actix_web::test]
    async fn create_is_idempotent_per_payment_id_and_validates() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let req = request("p1", PayMethod::WechatH5, "http://127.0.0.1:1/n");
        let first = pay.create(&req).await.unwrap();
        assert_eq!(pay.create(&req).await.unwrap(), first);

        let other_amount = CreatePayment {
            amount: Fen(100),
            ..req.clone()
        };
        let rejected = |r: Result<PayInstructions, PaymentError>, code: &str| match r {
            Err(PaymentError::Rejected { code: c, .. }) => assert_eq!(c, code),
            other => panic!("{other:?}"),
        };
        rejected(pay.create(&other_amount).await, "TRADE_HAS_EXISTED");
        for bad in [
            CreatePayment {
                payment_id: "p2".into(),
                amount: Fen(0),
                ..req.clone()
            },
            CreatePayment {
                payment_id: "p2".into(),
                notify_url: "/relative".into(),
                ..req.clone()
            },
            CreatePayment {
                payment_id: "p2".into(),
                expires_at: NOW,
                ..req.clone()
            },
            CreatePayment {
                payment_id: " ".into(),
                ..req.clone()
            },
        ] {
            rejected(pay.create(&bad).await, "INVALID_PARAMETER");
        }

        pay.fail_next_create(PaymentError::Unavailable("outage".into()));
        let second = CreatePayment {
            payment_id: "p3".into(),
            ..req.clone()
        };
        assert_eq!(
            pay.create(&second).await,
            Err(PaymentError::Unavailable("outage".into()))
        );
        assert!(pay.create(&second).await.is_ok(), "one failure only");
    }

    #[actix_web::test]
    async fn a_paid_settle_sends_a_signed_notify_and_returns_to_the_status_page() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let receiver = Receiver::start(vec!["success"]).await;
        let ins = pay
            .create(&request("p1", PayMethod::AlipayWap, &receiver.url))
            .await
            .unwrap();
        assert_eq!(pay.notify_delivery("p1").await.unwrap(), None);
        clock.advance_ms(60_000);

        let back = pay.settle("p1", SettleOutcome::Success).await.unwrap();
        assert_eq!(back, "/order/status?orderNo=O20260101001&paymentId=p1");
        let delivery = settled_notify(&pay, "p1").await;
        assert_eq!(delivery.attempts, 1);
        assert!(delivery.delivered);
        assert_eq!(delivery.last_answer.as_deref(), Some("200 success"));

        let bodies = receiver.bodies();
        assert_eq!(bodies.len(), 1);
        let notify = pay.verify_notify(&bodies[0]).unwrap();
        assert_eq!(
            notify,
            Notify {
                payment_id: "p1".into(),
                trade_no: ins.provider_trade_no.clone(),
                status: NotifyStatus::Paid,
                amount: Fen(8990),
                at: NOW + 60_000,
            }
        );
        // Our own helpers agree with what went over the wire.
        let params = parse_form(&bodies[0]).unwrap();
        assert!(verify_params(b"test-secret-of-the-sandbox", &params));
        assert_eq!(pay.notify_ack(), "success");
        assert_eq!(pay.name(), "sandbox");

        assert_eq!(
            pay.query("p1").await.unwrap(),
            ProviderPaymentStatus::Paid {
                trade_no: ins.provider_trade_no,
                amount: Fen(8990),
                paid_at: NOW + 60_000,
            }
        );
        // The same choice again (a double click) answers the same and sends nothing more.
        assert_eq!(pay.settle("p1", SettleOutcome::Success).await, Ok(back));
        assert_eq!(
            pay.settle("p1", SettleOutcome::Fail).await,
            Err(SettleError::AlreadySettled)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(receiver.bodies().len(), 1);
        receiver.handle.stop(false).await;
    }

    #[actix_web::test]
    async fn the_notify_is_repeated_until_the_answer_is_success() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let receiver = Receiver::start(vec!["fail", "fail", "success"]).await;
        pay.create(&request("p1", PayMethod::WechatH5, &receiver.url))
            .await
            .unwrap();
        pay.settle("p1", SettleOutcome::Success).await.unwrap();
        let delivery = settled_notify(&pay, "p1").await;
        assert_eq!(
            delivery,
            NotifyDelivery {
                attempts: 3,
                delivered: true,
                gave_up: false,
                last_answer: Some("200 success".into()),
            }
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
        let bodies = receiver.bodies();
        assert_eq!(bodies.len(), 3, "no attempt after success");
        assert!(
            bodies.windows(2).all(|w| w[0] == w[1]),
            "the same notify each time"
        );
        receiver.handle.stop(false).await;
    }

    #[actix_web::test]
    async fn the_notify_gives_up_after_the_schedule_and_wants_exactly_success() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        // Close is not enough: "SUCCESS", " success" and "success\n" all count as no.
        let receiver = Receiver::start(vec!["SUCCESS", " success", "success\n", "fail"]).await;
        pay.create(&request("p1", PayMethod::WechatH5, &receiver.url))
            .await
            .unwrap();
        pay.settle("p1", SettleOutcome::Fail).await.unwrap();
        let delivery = settled_notify(&pay, "p1").await;
        assert_eq!(delivery.attempts, 5);
        assert!(!delivery.delivered);
        assert!(delivery.gave_up);
        assert_eq!(receiver.bodies().len(), 5);
        receiver.handle.stop(false).await;

        // An unreachable notify URL is retried too, and given up.
        pay.create(&request("p2", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
            .await
            .unwrap();
        pay.settle("p2", SettleOutcome::Success).await.unwrap();
        let delivery = settled_notify(&pay, "p2").await;
        assert_eq!(delivery.attempts, 5);
        assert!(delivery.gave_up);
        assert!(delivery.last_answer.unwrap().starts_with("not sent"));
    }

    #[actix_web::test]
    async fn fail_and_cancel_notify_and_mark_the_return() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let receiver = Receiver::start(vec!["success"]).await;
        for (id, outcome, reason) in [
            ("pf", SettleOutcome::Fail, "declined by the payer"),
            ("pc", SettleOutcome::Cancel, "cancelled by the payer"),
        ] {
            pay.create(&request(id, PayMethod::UnionpayApp, &receiver.url))
                .await
                .unwrap();
            let back = pay.settle(id, outcome).await.unwrap();
            assert_eq!(
                back,
                format!("/order/status?orderNo=O20260101001&paymentId={id}&customestatus=1")
            );
            assert!(settled_notify(&pay, id).await.delivered);
            assert_eq!(
                pay.query(id).await.unwrap(),
                ProviderPaymentStatus::Failed {
                    reason: reason.into()
                }
            );
            let cashier = pay.cashier_view(id).await.unwrap().unwrap();
            assert_ne!(cashier.state, CashierState::Open);
        }
        let statuses: Vec<NotifyStatus> = receiver
            .bodies()
            .iter()
            .map(|b| pay.verify_notify(b).unwrap().status)
            .collect();
        assert_eq!(
            statuses,
            vec![NotifyStatus::Failed, NotifyStatus::Cancelled]
        );
        receiver.handle.stop(false).await;
    }

    #[actix_web::test]
    async fn query_follows_the_ledger_and_expiry_closes() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        match pay.query("nope").await {
            Err(PaymentError::Rejected { code, .. }) => assert_eq!(code, TRADE_NOT_EXIST),
            other => panic!("{other:?}"),
        }
        pay.create(&request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
            .await
            .unwrap();
        assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Pending));
        assert_eq!(
            pay.cashier_view("p1").await.unwrap().unwrap().state,
            CashierState::Open
        );

        pay.fail_next_query(PaymentError::Unavailable("outage".into()));
        assert!(matches!(
            pay.query("p1").await,
            Err(PaymentError::Unavailable(_))
        ));

        clock.advance_ms(HALF_HOUR - 1);
        assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Pending));
        clock.advance_ms(1);
        assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Closed));
        assert_eq!(
            pay.settle("p1", SettleOutcome::Success).await,
            Err(SettleError::Expired)
        );
        assert_eq!(
            pay.cashier_view("p1").await.unwrap().unwrap().state,
            CashierState::Closed
        );
        assert_eq!(
            pay.notify_delivery("p1").await.unwrap(),
            None,
            "nothing was sent"
        );
        // Closed stays closed, and the id is not reusable.
        let again = request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n");
        let again = CreatePayment {
            expires_at: NOW + 2 * HALF_HOUR,
            ..again
        };
        assert!(pay.create(&again).await.is_err());
        assert_eq!(
            pay.settle("missing", SettleOutcome::Success).await,
            Err(SettleError::NotFound)
        );
    }

    #[actix_web::test]
    async fn refunds_never_exceed_what_was_paid() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        let refused = |r: Result<RefundResult, PaymentError>| match r {
            Err(PaymentError::Rejected { code, msg }) => {
                assert_eq!(code, REFUND_REFUSED);
                assert!(!msg.is_empty());
                msg
            }
            other => panic!("{other:?}"),
        };
        refused(pay.refund("nope", "r1", Fen(100)).await);
        pay.create(&request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
            .await
            .unwrap();
        let msg = refused(pay.refund("p1", "r1", Fen(100)).await);
        assert!(msg.contains("未支付"), "{msg}");

        pay.settle("p1", SettleOutcome::Success).await.unwrap();
        refused(pay.refund("p1", "r0", Fen(0)).await);
        let first = pay.refund("p1", "r1", Fen(990)).await.unwrap();
        assert_eq!(first.amount, Fen(990));
        assert_eq!(first.refunded_total, Fen(990));
        // The same refund again is answered as before and refunds nothing more.
        assert_eq!(pay.refund("p1", "r1", Fen(990)).await.unwrap(), first);
        refused(pay.refund("p1", "r1", Fen(10)).await);

        let msg = refused(pay.refund("p1", "r2", Fen(8001)).await);
        assert!(msg.contains("80.00"), "{msg}");

        pay.fail_next_refund(PaymentError::Unavailable("outage".into()));
        assert!(matches!(
            pay.refund("p1", "r2", Fen(8000)).await,
            Err(PaymentError::Unavailable(_))
        ));
        let rest = pay.refund("p1", "r2", Fen(8000)).await.unwrap();
        assert_eq!(rest.refunded_total, Fen(8990));
        assert_ne!(rest.provider_refund_no, first.provider_refund_no);
        refused(pay.refund("p1", "r3", Fen(1)).await);
        // A refund does not change what query says.
        assert!(matches!(
            pay.query("p1").await,
            Ok(ProviderPaymentStatus::Paid { .. })
        ));
    }

    #[actix_web::test]
    async fn verify_notify_refuses_forgeries() {
        let pay = sandbox(&Clock::manual(NOW)).await;
        let signed = |pairs: &[(&str, &str)], secret: &[u8]| {
            let mut v: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            let sign = sign_params(secret, &v);
            v.push(("sign".into(), sign));
            encode_form(&v)
        };
        let good = [
            ("payment_id", "p1"),
            ("trade_no", "T1"),
            ("status", "paid"),
            ("amount", "8990"),
            ("at", "5"),
        ];
        assert!(pay
            .verify_notify(signed(&good, b"test-secret-of-the-sandbox").as_bytes())
            .is_ok());

        let tampered =
            signed(&good, b"test-secret-of-the-sandbox").replace("amount=8990", "amount=1");
        let cases: Vec<(&str, String, PaymentError)> = vec![
            ("tampered", tampered, PaymentError::BadSignature),
            (
                "other key",
                signed(&good, b"other"),
                PaymentError::BadSignature,
            ),
            ("unsigned", encode_form(&good), PaymentError::BadSignature),
            (
                "signed but incomplete",
                signed(&good[..4], b"test-secret-of-the-sandbox"),
                PaymentError::Malformed("notify without at".into()),
            ),
            (
                "signed but odd status",
                signed(
                    &[
                        ("payment_id", "p1"),
                        ("trade_no", "T1"),
                        ("status", "refunded"),
                        ("amount", "8990"),
                        ("at", "5"),
                    ],
                    b"test-secret-of-the-sandbox",
                ),
                PaymentError::Malformed("notify status \"refunded\"".into()),
            ),
            (
                "not a form",
                "a=%zz".into(),
                PaymentError::Malformed("bad percent escape".into()),
            ),
        ];
        for (name, body, want) in cases {
            assert_eq!(pay.verify_notify(body.as_bytes()), Err(want), "{name}");
        }
    }

    #[test]
    fn return_urls() {
        use SettleOutcome::*;
        let cases = [
            // Another origin, however spelt, is never where the payer goes.
            (
                "https://a.test/order/status",
                Success,
                "/order/status?orderNo=O1&paymentId=p1",
            ),
            (
                "//a.test/order/status?orderNo=O1",
                Fail,
                "/order/status?orderNo=O1&paymentId=p1&customestatus=1",
            ),
            (
                "/\\a.test/x",
                Success,
                "/order/status?orderNo=O1&paymentId=p1",
            ),
            (
                "/%2f%2fa.test",
                Success,
                "/order/status?orderNo=O1&paymentId=p1",
            ),
            (
                "/my/orders?orderNo=O1",
                Fail,
                "/my/orders?orderNo=O1&paymentId=p1&customestatus=1",
            ),
            (
                "/order/status?",
                Cancel,
                "/order/status?orderNo=O1&paymentId=p1&customestatus=1",
            ),
            ("", Success, "/order/status?orderNo=O1&paymentId=p1"),
            (
                "/order/status?x=1#top",
                Success,
                "/order/status?x=1&orderNo=O1&paymentId=p1#top",
            ),
            (
                "/order/status?orderNo=O1&paymentId=p1&customestatus=1",
                Fail,
                "/order/status?orderNo=O1&paymentId=p1&customestatus=1",
            ),
        ];
        for (url, outcome, want) in cases {
            assert_eq!(
                return_url_for(url, "O1", "p1", outcome),
                want,
                "{url} {outcome:?}"
            );
        }
        assert_eq!(
            return_url_for("/s", "订单 1", "p&1", Success),
            "/s?orderNo=%E8%AE%A2%E5%8D%95%201&paymentId=p%261"
        );
    }

    #[test]
    fn outcomes_parse_like_the_cashier_sends_them() {
        for o in [
            SettleOutcome::Success,
            SettleOutcome::Fail,
            SettleOutcome::Cancel,
        ] {
            assert_eq!(SettleOutcome::parse(o.as_str()), Some(o));
            let json = format!("{{\"outcome\":\"{}\"}}", o.as_str());
            #[derive(Deserialize)]
            struct Body {
                outcome: SettleOutcome,
            }
            assert_eq!(serde_json::from_str::<Body>(&json).unwrap().outcome, o);
        }
        assert_eq!(SettleOutcome::parse("paid"), None);
    }

    #[test]
    fn the_cashier_page() {
        let view = CashierView {
            payment_id: "p1".into(),
            order_no: "O<1>".into(),
            subject: "比萨 & \"pasta\"".into(),
            amount: Fen(8990),
            method: PayMethod::AlipayWap,
            state: CashierState::Open,
            expires_at: NOW + 29 * 60 * 1000 + 5_000,
            now: NOW,
        };
        let html = cashier_page(&view);
        for want in [
            "<!doctype html>",
            "name=\"viewport\"",
            "比萨 sandbox",
            "<small>¥</small>89.90",
            "O&lt;1&gt;",
            "比萨 &amp; &quot;pasta&quot;",
            "data-pay-url=\"/sandbox/api/pay/p1\"",
            "data-left-ms=\"1745000\"",
            ">29:05<",
            "data-outcome=\"success\"",
            "data-outcome=\"fail\"",
            "data-outcome=\"cancel\"",
            "<script src=\"/sandbox/cashier.js\"></script>",
            "<link rel=\"stylesheet\" href=\"/sandbox/cashier.css\">",
            "支付宝",
        ] {
            assert!(html.contains(want), "missing {want}");
        }
        assert!(!html.contains("O<1>"));
        // Nothing inline: the Content-Security-Policy would refuse it.
        assert!(!html.contains("<script>") && !html.contains("<style"));
        assert!(PAGE_SCRIPT.contains("returnUrl"));

        for (state, label) in [
            (CashierState::Paid, "已支付"),
            (CashierState::Failed, "支付失败 · Payment failed"),
            (CashierState::Cancelled, "已取消"),
            (CashierState::Closed, "交易已关闭"),
        ] {
            let html = cashier_page(&CashierView {
                state,
                ..view.clone()
            });
            assert!(html.contains(label), "{state:?}");
            assert!(!html.contains("data-outcome"), "{state:?}");
            assert!(!html.contains("<script"), "{state:?}");
        }
        // Open but out of time: no buttons either.
        let late = cashier_page(&CashierView {
            now: view.expires_at,
            ..view.clone()
        });
        assert!(!late.contains("data-outcome"));
        assert!(cashier_not_found_page().contains("支付单不存在"));
    }

    #[actix_web::test]
    async fn the_cashier_view_reads_the_ledger() {
        let clock = Clock::manual(NOW);
        let pay = sandbox(&clock).await;
        assert_eq!(pay.cashier_view("p1").await.unwrap(), None);
        pay.create(&request(
            "p 1",
            PayMethod::AlipayWap,
            "http://127.0.0.1:9/n",
        ))
        .await
        .unwrap();
        let view = pay.cashier_view("p 1").await.unwrap().unwrap();
        assert_eq!(view.order_no, "O20260101001");
        assert_eq!(view.amount, Fen(8990));
        assert_eq!(view.now, NOW);
        assert_eq!(
            pay.cashier_url("p 1"),
            "http://pay.test/sandbox/cashier/p%201"
        );
        assert!(cashier_page(&view).contains("data-pay-url=\"/sandbox/api/pay/p%201\""));
    }
}
