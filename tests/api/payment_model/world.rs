//! The model's world: the app (database, order sessions), the payment service over the fake
//! provider, the model's clock; saving and restoring a state; the moves.

use super::fake::{FakeProvider, Ledger, TradeState};
use super::{Attempt, Extra, Fault, Model, Op, Snapshot, Step, MINUTE};
use crate::helpers::{spawn_app, TestApp};
use crate::payments::unpaid_order;
use actors::clock::Clock;
use actors::db::orders::OrderRow;
use actors::db::payments::{PaymentRepo, PaymentRow};
use actors::domain::money::Fen;
use actors::domain::ordering::order_machine::{state as s, Actor as Mover, Command};
use actors::domain::payments::state::PaymentState;
use actors::orders::OrderFailure;
use actors::payments::PaymentService;
use actors::providers::payment::{PayMethod, PaymentProvider};
use std::sync::Arc;

pub struct World {
    pub app: TestApp,
    pub clock: Clock,
    pub fake: FakeProvider,
    pub service: Arc<PaymentService>,
    pub order_no: String,
}

/// The world as read back after a step.
pub struct Seen {
    pub order: OrderRow,
    pub rows: Vec<Option<PaymentRow>>,
    pub ledger: Ledger,
    pub now: i64,
}

impl World {
    pub async fn new(phone: &str) -> World {
        let app = spawn_app().await;
        let (_token, order_no) = unpaid_order(&app, phone).await;
        // The model's own clock: the app's housekeeping keeps the app's clock and leaves the
        // model's attempts (another provider) alone.
        let clock = Clock::manual(app.clock.now_ms());
        let fake = FakeProvider::new(clock.clone());
        let provider: Arc<dyn PaymentProvider> = Arc::new(fake.clone());
        let service = Arc::new(PaymentService::new(
            PaymentRepo::new(app.app_state.db.clone()),
            provider,
            app.app_state.orders.clone(),
            app.app_state.bus.clone(),
            clock.clone(),
            actors::actor_thread::start().unwrap(),
        ));
        World {
            app,
            clock,
            fake,
            service,
            order_no,
        }
    }

    pub async fn order(&self) -> OrderRow {
        self.app
            .app_state
            .orders
            .repo()
            .find(&self.order_no)
            .await
            .unwrap()
            .unwrap()
    }

    pub async fn snapshot(&self, model: &Model) -> Snapshot {
        Snapshot {
            order: self.order().await,
            payments: self.service.repo().for_order(&self.order_no).await.unwrap(),
            ledger: self.fake.ledger(),
            clock_ms: self.clock.now_ms(),
            model: model.clone(),
        }
    }

    pub async fn restore(&self, snap: &Snapshot) {
        // One transaction: one commit per restore, not one per statement.
        let mut tx = self.app.app_state.db.pool().begin().await.unwrap();
        let pool = &mut *tx;
        let o = &snap.order;
        sqlx::query(
            "UPDATE orders SET state = $1, progress = $2, paid_amount = $3, paid_by = $4, \
             seq = $5, version = $6, updated_at = $7 WHERE order_no = $8",
        )
        .bind(i64::from(o.state))
        .bind(i64::from(o.progress))
        .bind(o.paid_amount.0)
        .bind(&o.paid_by)
        .bind(o.seq)
        .bind(o.version)
        .bind(o.updated_at)
        .bind(&o.order_no)
        .execute(&mut *pool)
        .await
        .unwrap();
        sqlx::query("DELETE FROM order_events WHERE order_no = $1 AND seq > $2")
            .bind(&o.order_no)
            .bind(o.seq)
            .execute(&mut *pool)
            .await
            .unwrap();
        sqlx::query("DELETE FROM payments WHERE order_no = $1")
            .bind(&o.order_no)
            .execute(&mut *pool)
            .await
            .unwrap();
        for p in &snap.payments {
            sqlx::query(
                "INSERT INTO payments (payment_id, order_no, user_id, method, provider, amount, \
                 state, provider_trade_no, instructions, fail_reason, refunded, refund_reason, \
                 refund_error, refund_attempts, created_at, expires_at, updated_at, version) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
                 $17, $18)",
            )
            .bind(&p.payment_id)
            .bind(&p.order_no)
            .bind(p.user_id)
            .bind(&p.method)
            .bind(&p.provider)
            .bind(p.amount.0)
            .bind(p.state.as_str())
            .bind(&p.provider_trade_no)
            .bind(p.instructions.as_ref().map(|v| v.to_string()))
            .bind(&p.fail_reason)
            .bind(p.refunded.0)
            .bind(&p.refund_reason)
            .bind(&p.refund_error)
            .bind(p.refund_attempts)
            .bind(p.created_at)
            .bind(p.expires_at)
            .bind(p.updated_at)
            .bind(p.version)
            .execute(&mut *pool)
            .await
            .unwrap();
        }
        tx.commit().await.unwrap();
        self.fake.restore(snap.ledger.clone());
        self.clock.set_ms(snap.clock_ms);
    }

    pub async fn seen(&self, model: &Model) -> Seen {
        let all = self.service.repo().for_order(&self.order_no).await.unwrap();
        let rows = model
            .attempts
            .iter()
            .map(|a| match a {
                Attempt::Made(id) => {
                    Some(all.iter().find(|p| &p.payment_id == id).unwrap().clone())
                }
                _ => None,
            })
            .collect();
        Seen {
            order: self.order().await,
            rows,
            ledger: self.fake.ledger(),
            now: self.clock.now_ms(),
        }
    }

    /// The moves open in a state. Moves that cannot change anything are left out (a query of
    /// a settled attempt, time passing with nothing open).
    pub fn enabled(snap: &Snapshot, extra: Extra) -> Vec<Step> {
        let mut ops = Vec::new();
        let model = &snap.model;
        if let Some(i) = model.attempts.iter().position(|a| *a == Attempt::NotYet) {
            ops.push(Op::Create(i));
        }
        let mut something_open = false;
        for (i, a) in model.attempts.iter().enumerate() {
            let Attempt::Made(id) = a else { continue };
            let trade = &snap.ledger.trades[id];
            let row = snap.payments.iter().find(|p| &p.payment_id == id).unwrap();
            if trade.state == TradeState::Pending {
                ops.push(Op::Pay(i));
                if extra.failures {
                    ops.push(Op::Fail(i));
                }
            }
            if trade.notify_pending {
                ops.push(Op::Notify(i));
            }
            if row.state == PaymentState::Pending {
                ops.push(Op::Query(i));
            }
            something_open |= matches!(
                row.state,
                PaymentState::Pending | PaymentState::Failed | PaymentState::Refunding
            );
        }
        if something_open {
            ops.push(Op::Expire);
        }
        if matches!(snap.order.state, s::UNPAID | s::PAYMENT_FAILED | s::PAID) {
            ops.push(Op::Cancel);
        }
        if snap.order.state == s::PAID {
            ops.push(Op::Refuse);
        }
        let mut steps: Vec<Step> = ops.iter().map(|&op| Step { op, fault: None }).collect();
        if extra.outages {
            for &op in &ops {
                let asks = matches!(op, Op::Notify(_) | Op::Query(_) | Op::Expire);
                let refunds = asks || matches!(op, Op::Cancel | Op::Refuse);
                if refunds && !model.outage_used {
                    steps.push(Step {
                        op,
                        fault: Some(Fault::Refund),
                    });
                }
                if asks && !model.unreachable_used {
                    steps.push(Step {
                        op,
                        fault: Some(Fault::Query),
                    });
                }
            }
        }
        steps
    }

    /// A move, with the provider down for part of it if the step says so.
    pub async fn apply(&self, step: Step, model: &mut Model) -> Result<(), String> {
        let before = self.fake.ledger();
        match step.fault {
            Some(Fault::Refund) => self.fake.arm_refund_outage(),
            Some(Fault::Query) => self.fake.arm_query_outage(),
            None => {}
        }
        let done = self.apply_op(step.op, model).await;
        let after = self.fake.ledger();
        model.outage_used |= after.outages_hit > before.outages_hit;
        model.unreachable_used |= after.query_outages_hit > before.query_outages_hit;
        self.fake.disarm();
        done
    }

    /// Makes one move the way the API does; any error is a failure (nothing here runs at once).
    async fn apply_op(&self, op: Op, model: &mut Model) -> Result<(), String> {
        let id = |i: usize| match &model.attempts[i] {
            Attempt::Made(id) => id.clone(),
            other => panic!("attempt {i} is {other:?}"),
        };
        match op {
            Op::Create(i) => {
                // A second later than the last move: attempts are ordered by creation as by
                // number (not by their random ids), so every run explores the same states.
                self.clock.advance_ms(1_000);
                let order = self.order().await;
                // Each attempt with its own method: the open attempt of a method would be
                // handed out again, and the model's attempts are distinct trades.
                let method = [
                    PayMethod::AlipayWap,
                    PayMethod::WechatH5,
                    PayMethod::UnionpayWeb,
                ][i];
                let request = actors::payments::PayRequest {
                    notify_url: "http://127.0.0.1/notify".into(),
                    return_url: "/order/status".into(),
                    client_ip: "127.0.0.1".into(),
                    open_id: None,
                };
                match self.service.create(&order, method, request).await {
                    Ok((row, _)) => model.attempts[i] = Attempt::Made(row.payment_id),
                    Err(actors::payments::PayFailure::NotPayable) => {
                        model.attempts[i] = Attempt::Refused
                    }
                    Err(e) => return Err(format!("create: {e}")),
                }
            }
            Op::Pay(i) => {
                self.fake.pay(&id(i));
            }
            Op::Fail(i) => {
                self.fake.fail(&id(i));
            }
            Op::Notify(i) => {
                let id = id(i);
                let n = self.fake.pending_notify(&id).unwrap();
                match self
                    .service
                    .on_notify(&id, &n.trade_no, n.status, n.amount)
                    .await
                {
                    Ok(_) => self.fake.notify_taken(&id),
                    // The provider cannot confirm it now: not taken, it comes again later.
                    Err(actors::payments::PayFailure::Provider(
                        actors::providers::payment::PaymentError::Unavailable(_),
                    )) => {}
                    Err(e) => return Err(format!("notify: {e}")),
                }
            }
            Op::Query(i) => {
                // The status page answers as stored while the provider is down.
                self.service
                    .refresh(&id(i))
                    .await
                    .map_err(|e| format!("query: {e}"))?;
            }
            Op::Expire => {
                self.clock.advance_ms(31 * MINUTE);
                self.service
                    .expire_due()
                    .await
                    .map_err(|e| format!("expire: {e}"))?;
            }
            Op::Cancel | Op::Refuse => {
                let (mover, command) = match op {
                    Op::Cancel => (Mover::Customer, Command::CustomerCancel),
                    _ => (
                        Mover::Store,
                        Command::Refuse {
                            reason: "原料不足".into(),
                        },
                    ),
                };
                let orders = &self.app.app_state.orders;
                match orders
                    .make_move(&self.order_no, mover, command, Fen::ZERO)
                    .await
                {
                    Ok(done) if done.transition.refund => {
                        self.service
                            .refund_order(&self.order_no)
                            .await
                            .map_err(|e| format!("refund: {e}"))?;
                    }
                    Ok(_) | Err(OrderFailure::Refused(_)) => {}
                    Err(e) => return Err(format!("move: {e}")),
                }
            }
        }
        Ok(())
    }
}
