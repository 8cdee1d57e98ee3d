//! A payment provider for the model test that behaves like the sandbox: a ledger of trades
//! that the payer pays at the cashier, that close on their own when their time is up, that we
//! close, query and refund (idempotently per refund id, never more than was paid), and a
//! statement. Its whole ledger is a value, so the model can save and restore it.

use actors::clock::Clock;
use actors::domain::money::Fen;
use actors::providers::payment::{
    CloseOutcome, CreatePayment, Notify, PayInstructions, PaymentError, PaymentProvider,
    ProviderPaymentStatus, RefundResult, StatementKind, StatementLine, REFUND_REFUSED,
    TRADE_NOT_EXIST,
};
use async_trait::async_trait;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

pub const NAME: &str = "model";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TradeState {
    Pending,
    Paid {
        at: i64,
    },
    /// The payer failed or cancelled at the cashier: it can no more be paid than a closed one.
    Failed,
    Closed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trade {
    pub trade_no: String,
    pub amount: Fen,
    pub expires_at: i64,
    pub state: TradeState,
    /// (refund id, amount, at).
    pub refunds: Vec<(String, Fen, i64)>,
    /// The payer paid and the notify has not been taken (answered success) yet.
    pub notify_pending: bool,
}

impl Trade {
    pub fn refunded(&self) -> Fen {
        self.refunds.iter().map(|r| r.1).sum()
    }

    /// What the provider holds for us on this trade: paid minus refunded.
    pub fn kept(&self) -> Fen {
        match self.state {
            TradeState::Paid { .. } => self.amount - self.refunded(),
            _ => Fen::ZERO,
        }
    }

    fn expire_if_due(&mut self, now: i64) {
        if self.state == TradeState::Pending && now >= self.expires_at {
            self.state = TradeState::Closed;
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    pub trades: BTreeMap<String, Trade>,
    pub seq: u32,
    /// The next refund call fails with Unavailable (the provider cannot be reached).
    pub refund_outage: bool,
    /// How many refund calls the outage failed so far.
    pub outages_hit: u32,
    /// The next query or close fails with Unavailable.
    pub query_outage: bool,
    pub query_outages_hit: u32,
}

#[derive(Clone)]
pub struct FakeProvider {
    clock: Clock,
    ledger: Arc<Mutex<Ledger>>,
}

impl FakeProvider {
    pub fn new(clock: Clock) -> FakeProvider {
        FakeProvider {
            clock,
            ledger: Arc::new(Mutex::new(Ledger::default())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn ledger(&self) -> Ledger {
        self.lock().clone()
    }

    pub fn restore(&self, ledger: Ledger) {
        *self.lock() = ledger;
    }

    pub fn arm_refund_outage(&self) {
        self.lock().refund_outage = true;
    }

    pub fn arm_query_outage(&self) {
        self.lock().query_outage = true;
    }

    /// The provider is reachable again (an outage the move did not run into is dropped).
    pub fn disarm(&self) {
        let mut ledger = self.lock();
        ledger.refund_outage = false;
        ledger.query_outage = false;
    }

    fn query_down(ledger: &mut Ledger) -> Result<(), PaymentError> {
        if ledger.query_outage {
            ledger.query_outage = false;
            ledger.query_outages_hit += 1;
            return Err(PaymentError::Unavailable("model outage".into()));
        }
        Ok(())
    }

    /// The cashier's Fail: false when the trade is no longer pending.
    pub fn fail(&self, payment_id: &str) -> bool {
        let now = self.clock.now_ms();
        let mut ledger = self.lock();
        let Some(trade) = ledger.trades.get_mut(payment_id) else {
            return false;
        };
        trade.expire_if_due(now);
        if trade.state != TradeState::Pending {
            return false;
        }
        trade.state = TradeState::Failed;
        trade.notify_pending = true;
        true
    }

    /// The cashier's Pay: false when the trade cannot be paid (closed, paid, unknown).
    pub fn pay(&self, payment_id: &str) -> bool {
        let now = self.clock.now_ms();
        let mut ledger = self.lock();
        let Some(trade) = ledger.trades.get_mut(payment_id) else {
            return false;
        };
        trade.expire_if_due(now);
        if trade.state != TradeState::Pending {
            return false;
        }
        trade.state = TradeState::Paid { at: now };
        trade.notify_pending = true;
        true
    }

    /// The notify the provider would send now for a paid trade, if one is pending.
    pub fn pending_notify(&self, payment_id: &str) -> Option<Notify> {
        let ledger = self.lock();
        let trade = ledger.trades.get(payment_id)?;
        let (status, at) = match trade.state {
            TradeState::Paid { at } => (actors::providers::payment::NotifyStatus::Paid, at),
            TradeState::Failed => (actors::providers::payment::NotifyStatus::Failed, 0),
            _ => return None,
        };
        trade.notify_pending.then(|| Notify {
            payment_id: payment_id.to_string(),
            trade_no: trade.trade_no.clone(),
            status,
            amount: trade.amount,
            at,
        })
    }

    /// We answered success: the provider stops repeating the notify.
    pub fn notify_taken(&self, payment_id: &str) {
        if let Some(trade) = self.lock().trades.get_mut(payment_id) {
            trade.notify_pending = false;
        }
    }
}

#[async_trait]
impl PaymentProvider for FakeProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn create(&self, req: &CreatePayment) -> Result<PayInstructions, PaymentError> {
        let mut ledger = self.lock();
        if let Some(trade) = ledger.trades.get(&req.payment_id) {
            return Ok(PayInstructions::empty(req.method, trade.trade_no.clone()));
        }
        ledger.seq += 1;
        let trade_no = format!("T{:04}", ledger.seq);
        ledger.trades.insert(
            req.payment_id.clone(),
            Trade {
                trade_no: trade_no.clone(),
                amount: req.amount,
                expires_at: req.expires_at,
                state: TradeState::Pending,
                refunds: Vec::new(),
                notify_pending: false,
            },
        );
        Ok(PayInstructions::empty(req.method, trade_no))
    }

    async fn query(&self, payment_id: &str) -> Result<ProviderPaymentStatus, PaymentError> {
        let now = self.clock.now_ms();
        let mut ledger = self.lock();
        FakeProvider::query_down(&mut ledger)?;
        let trade = ledger
            .trades
            .get_mut(payment_id)
            .ok_or_else(|| PaymentError::rejected(TRADE_NOT_EXIST, "no such trade"))?;
        trade.expire_if_due(now);
        Ok(match trade.state {
            TradeState::Pending => ProviderPaymentStatus::Pending,
            TradeState::Closed => ProviderPaymentStatus::Closed,
            TradeState::Failed => ProviderPaymentStatus::Failed {
                reason: "declined by the payer".into(),
            },
            TradeState::Paid { at } => ProviderPaymentStatus::Paid {
                trade_no: trade.trade_no.clone(),
                amount: trade.amount,
                paid_at: at,
            },
        })
    }

    async fn refund(
        &self,
        payment_id: &str,
        refund_id: &str,
        amount: Fen,
    ) -> Result<RefundResult, PaymentError> {
        let now = self.clock.now_ms();
        let mut ledger = self.lock();
        if ledger.refund_outage {
            ledger.refund_outage = false;
            ledger.outages_hit += 1;
            return Err(PaymentError::Unavailable("model outage".into()));
        }
        let trade = ledger
            .trades
            .get_mut(payment_id)
            .ok_or_else(|| PaymentError::rejected(REFUND_REFUSED, "no such trade"))?;
        let result = |trade: &Trade, amount: Fen| RefundResult {
            refund_id: refund_id.to_string(),
            provider_refund_no: format!("R{}", trade.trade_no),
            amount,
            refunded_total: trade.refunded(),
            at: now,
        };
        if let Some(before) = trade.refunds.iter().find(|r| r.0 == refund_id) {
            return if before.1 == amount {
                Ok(result(trade, amount))
            } else {
                Err(PaymentError::rejected(REFUND_REFUSED, "refund id reused"))
            };
        }
        if !matches!(trade.state, TradeState::Paid { .. }) {
            return Err(PaymentError::rejected(REFUND_REFUSED, "not paid"));
        }
        if amount <= Fen::ZERO || amount > trade.kept() {
            return Err(PaymentError::rejected(REFUND_REFUSED, "more than was paid"));
        }
        trade.refunds.push((refund_id.to_string(), amount, now));
        Ok(result(trade, amount))
    }

    async fn close(&self, payment_id: &str) -> Result<CloseOutcome, PaymentError> {
        let mut ledger = self.lock();
        FakeProvider::query_down(&mut ledger)?;
        let trade = ledger
            .trades
            .get_mut(payment_id)
            .ok_or_else(|| PaymentError::rejected(TRADE_NOT_EXIST, "no such trade"))?;
        Ok(match trade.state {
            TradeState::Paid { at } => CloseOutcome::Paid {
                trade_no: trade.trade_no.clone(),
                amount: trade.amount,
                paid_at: at,
            },
            TradeState::Failed => CloseOutcome::Closed,
            TradeState::Pending | TradeState::Closed => {
                trade.state = TradeState::Closed;
                CloseOutcome::Closed
            }
        })
    }

    async fn statement(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<StatementLine>, PaymentError> {
        let within = |at: i64| from_ms <= at && at < to_ms;
        let ledger = self.lock();
        let mut lines = Vec::new();
        for (payment_id, trade) in &ledger.trades {
            if let TradeState::Paid { at } = trade.state {
                if within(at) {
                    lines.push(StatementLine {
                        kind: StatementKind::Payment,
                        payment_id: payment_id.clone(),
                        trade_no: trade.trade_no.clone(),
                        refund_id: None,
                        amount: trade.amount,
                        at,
                    });
                }
            }
            for (refund_id, amount, at) in trade.refunds.iter().filter(|r| within(r.2)) {
                lines.push(StatementLine {
                    kind: StatementKind::Refund,
                    payment_id: payment_id.clone(),
                    trade_no: trade.trade_no.clone(),
                    refund_id: Some(refund_id.clone()),
                    amount: *amount,
                    at: *at,
                });
            }
        }
        Ok(lines)
    }

    fn verify_notify(&self, _body: &[u8]) -> Result<Notify, PaymentError> {
        // The model hands notifies to the service directly (their signature is not its subject).
        Err(PaymentError::BadSignature)
    }

    fn notify_ack(&self) -> &'static str {
        "success"
    }
}
