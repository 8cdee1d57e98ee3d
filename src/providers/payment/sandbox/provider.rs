//! The provider itself: create, query, refund, close, the statement and the notify's
//! verification, each answered from the ledger like a real provider answers from its own.

use super::ledger::{RefundWrite, TradeRow, TradeState};
use super::{lock, unavailable, SandboxPayments, SettleOutcome, ACK, NAME};
use actors::domain::money::Fen;
use actors::providers::payment::{
    param, parse_form, verify_params, CloseOutcome, CreatePayment, Notify, NotifyStatus,
    PayInstructions, PaymentError, PaymentProvider, ProviderPaymentStatus, RefundResult,
    StatementKind, StatementLine, REFUND_REFUSED, TRADE_NOT_EXIST,
};
use async_trait::async_trait;

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
        // Written first, as almost every create is new: a payment id already taken (the same
        // create again) is read and answered; a trade number taken draws another.
        for _ in 0..3 {
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

#[cfg(test)]
#[path = "provider_tests.rs"]
mod tests;
