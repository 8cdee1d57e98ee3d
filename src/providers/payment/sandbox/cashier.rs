//! The cashier's side of a trade: what the page shows of it ([`SandboxPayments::cashier_view`]),
//! the payer's choice there ([`SandboxPayments::settle`]: the trade marked once, its signed
//! notify started) and where the browser goes next ([`return_url_for`]).

use super::delivery::FirstAttempt;
use super::ledger::TradeState;
use super::{lock, SandboxPayments};
use actors::db::DbError;
use actors::domain::money::Fen;
use actors::domain::payments::return_path::ReturnPath;
use actors::providers::payment::{encode_form, sign_params, NotifyStatus, PayMethod, SIGN_PARAM};
use serde::{Deserialize, Serialize};

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

impl SandboxPayments {
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
            let body = encode_form(&params);
            if self
                .ledger
                .settle(payment_id, outcome, now, &body, first_at)
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
                    let first = FirstAttempt {
                        notify_url: trade.notify_url.clone(),
                        body,
                        at: first_at,
                    };
                    self.sender.spawn_from(payment_id, Some(first));
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

#[cfg(test)]
#[path = "cashier_tests.rs"]
mod tests;
