#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The model test of "money that is never wrong" (issue 20, points 1, 2 and 4): every
//! interleaving of create attempt, pay at the provider (or fail there), notify delivered, query
//! (the customer's return), expire (30 minutes pass and the job runs), cancel (the customer),
//! refuse (the store), and the provider unreachable (for a refund, for a query or close), over
//! two and three attempts of one order, run against the real
//! payment service, order sessions and database, with a provider that behaves like the
//! sandbox ([`fake`]). After every step the invariants are checked ([`check`]). States that
//! look alike (same order, same rows, same ledger, same due-ness) are explored once: a state
//! is saved (the order's columns, its payment rows, the ledger, the clock) and restored before
//! each of its moves. Then the race variant: the same notifies, queries and expiries fired
//! at once, many times.

mod fake;

use crate::helpers::{spawn_app, TestApp};
use crate::payments::unpaid_order;
use actors::clock::Clock;
use actors::db::orders::OrderRow;
use actors::db::payments::{PaymentRepo, PaymentRow};
use actors::domain::money::Fen;
use actors::domain::order_machine::{state as s, Actor as Mover, Command};
use actors::orders::OrderFailure;
use actors::payments::PaymentService;
use actors::providers::payment::{NotifyStatus, PayMethod, PaymentProvider, StatementKind};
use fake::{FakeProvider, Ledger, TradeState};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

const MINUTE: i64 = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    Create(usize),
    Pay(usize),
    /// The payer fails (or cancels) at the cashier.
    Fail(usize),
    Notify(usize),
    Query(usize),
    Expire,
    Cancel,
    Refuse,
    /// The provider cannot be reached for the next refund.
    Outage,
    /// The provider cannot be reached for the next query or close.
    Unreachable,
}

/// An attempt as the model knows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Attempt {
    NotYet,
    /// The service refused to create it (the order was no longer payable).
    Refused,
    Made(String),
}

#[derive(Debug, Clone)]
struct Model {
    attempts: Vec<Attempt>,
    outage_used: bool,
    unreachable_used: bool,
}

#[derive(Clone)]
struct Snapshot {
    order: OrderRow,
    payments: Vec<PaymentRow>,
    ledger: Ledger,
    clock_ms: i64,
    model: Model,
}

/// What a state is, for pruning: everything that decides what happens next, nothing else
/// (payment ids, versions and times are left out; due-ness stands for the clock).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Sig {
    order: (u8, u8, i64, Option<usize>),
    attempts: Vec<AttemptSig>,
    outage: (bool, bool, bool, bool),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum AttemptSig {
    NotYet,
    Refused,
    Made {
        row: String,
        reason: Option<String>,
        refunded: i64,
        due: bool,
        trade: u8,
        trade_refunded: i64,
        notify: bool,
    },
}

struct World {
    app: TestApp,
    clock: Clock,
    fake: FakeProvider,
    service: Arc<PaymentService>,
    order_no: String,
}

/// The world as read back after a step.
struct Seen {
    order: OrderRow,
    rows: Vec<Option<PaymentRow>>,
    ledger: Ledger,
    now: i64,
}

impl World {
    async fn new(phone: &str) -> World {
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
        ));
        World {
            app,
            clock,
            fake,
            service,
            order_no,
        }
    }

    async fn order(&self) -> OrderRow {
        self.app
            .app_state
            .orders
            .repo()
            .find(&self.order_no)
            .await
            .unwrap()
            .unwrap()
    }

    async fn snapshot(&self, model: &Model) -> Snapshot {
        Snapshot {
            order: self.order().await,
            payments: self.service.repo().for_order(&self.order_no).await.unwrap(),
            ledger: self.fake.ledger(),
            clock_ms: self.clock.now_ms(),
            model: model.clone(),
        }
    }

    async fn restore(&self, snap: &Snapshot) {
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
                 refund_error, created_at, expires_at, updated_at, version) VALUES ($1, $2, $3, \
                 $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            )
            .bind(&p.payment_id)
            .bind(&p.order_no)
            .bind(p.user_id)
            .bind(&p.method)
            .bind(&p.provider)
            .bind(p.amount.0)
            .bind(&p.state)
            .bind(&p.provider_trade_no)
            .bind(p.instructions.as_ref().map(|v| v.to_string()))
            .bind(&p.fail_reason)
            .bind(p.refunded.0)
            .bind(&p.refund_reason)
            .bind(&p.refund_error)
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

    async fn seen(&self, model: &Model) -> Seen {
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
    fn enabled(snap: &Snapshot, extra: Extra) -> Vec<Op> {
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
            if row.state == "pending" {
                ops.push(Op::Query(i));
            }
            something_open |= matches!(row.state.as_str(), "pending" | "failed" | "refunding");
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
        if extra.outages && !model.outage_used {
            ops.push(Op::Outage);
        }
        if extra.outages && !model.unreachable_used {
            ops.push(Op::Unreachable);
        }
        ops
    }

    /// Makes one move the way the API does; any error is a failure (nothing here runs at once).
    async fn apply(&self, op: Op, model: &mut Model) -> Result<(), String> {
        let id = |i: usize| match &model.attempts[i] {
            Attempt::Made(id) => id.clone(),
            other => panic!("attempt {i} is {other:?}"),
        };
        match op {
            Op::Create(i) => {
                let order = self.order().await;
                match self
                    .service
                    .create(
                        &order,
                        PayMethod::AlipayWap,
                        "http://127.0.0.1/notify".into(),
                        "/order/status".into(),
                        "127.0.0.1".into(),
                        None,
                    )
                    .await
                {
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
            Op::Outage => {
                model.outage_used = true;
                self.fake.arm_refund_outage();
            }
            Op::Unreachable => {
                model.unreachable_used = true;
                self.fake.arm_query_outage();
            }
        }
        Ok(())
    }
}

fn sig(seen: &Seen, model: &Model) -> Sig {
    let index_of = |id: &str| {
        model
            .attempts
            .iter()
            .position(|a| *a == Attempt::Made(id.to_string()))
    };
    let attempts = model
        .attempts
        .iter()
        .zip(&seen.rows)
        .map(|(a, row)| match (a, row) {
            (Attempt::NotYet, _) => AttemptSig::NotYet,
            (Attempt::Refused, _) => AttemptSig::Refused,
            (Attempt::Made(id), Some(r)) => {
                let t = &seen.ledger.trades[id];
                AttemptSig::Made {
                    row: r.state.clone(),
                    reason: r.refund_reason.clone(),
                    refunded: r.refunded.0,
                    due: r.expires_at <= seen.now,
                    trade: match t.state {
                        TradeState::Pending => 0,
                        TradeState::Paid { .. } => 1,
                        TradeState::Closed => 2,
                        TradeState::Failed => 3,
                    },
                    trade_refunded: t.refunded().0,
                    notify: t.notify_pending,
                }
            }
            (Attempt::Made(id), None) => panic!("no row for {id}"),
        })
        .collect();
    Sig {
        order: (
            seen.order.state,
            seen.order.progress,
            seen.order.paid_amount.0,
            seen.order
                .paid_by
                .as_deref()
                .map(|id| index_of(id).unwrap()),
        ),
        attempts,
        outage: (
            seen.ledger.refund_outage,
            model.outage_used,
            seen.ledger.query_outage,
            model.unreachable_used,
        ),
    }
}

/// The invariants, after any step. `job_ran`: the step was the expiry job; `outage_now`: a
/// refund failed during this step; `unreachable_now`: a query or close failed during it.
async fn check(
    world: &World,
    seen: &Seen,
    model: &Model,
    job_ran: bool,
    outage_now: bool,
    unreachable_now: bool,
) -> Result<(), String> {
    let order = &seen.order;
    let stands = matches!(order.state, s::PAID | s::ACCEPTED | s::COMPLETED);
    let given_back = matches!(order.state, s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE);
    let made: Vec<(&String, &PaymentRow)> = model
        .attempts
        .iter()
        .zip(&seen.rows)
        .filter_map(|(a, r)| match a {
            Attempt::Made(id) => Some((id, r.as_ref().unwrap())),
            _ => None,
        })
        .collect();
    let keeper = order
        .paid_by
        .as_deref()
        .map(|id| made.iter().find(|(m, _)| m.as_str() == id).map(|(_, r)| *r));
    let keeper = match keeper {
        Some(None) => return Err(format!("paid_by {:?} is no attempt", order.paid_by)),
        Some(Some(r)) => Some(r),
        None => None,
    };
    // The order is paid by at most one attempt, and its state says so.
    let paid_rows: Vec<&&PaymentRow> = made
        .iter()
        .map(|(_, r)| r)
        .filter(|r| r.state == "paid")
        .collect();
    if paid_rows.len() > 1 {
        return Err(format!("{} attempts keep the money", paid_rows.len()));
    }
    if let Some(r) = paid_rows.first() {
        if keeper.map(|k| &k.payment_id) != Some(&r.payment_id) || !stands {
            return Err(format!(
                "{} is paid but the order (state {}) is settled by {:?}",
                r.payment_id, order.state, order.paid_by
            ));
        }
    }
    let want_paid = keeper.map_or(Fen::ZERO, |k| k.amount);
    if order.paid_amount != want_paid {
        return Err(format!(
            "paidAmount {} but the settling attempt paid {want_paid}",
            order.paid_amount
        ));
    }
    match order.state {
        s::PAID | s::ACCEPTED | s::COMPLETED
            if keeper.map(|k| k.state.as_str()) != Some("paid") =>
        {
            return Err(format!("order {} without a kept payment", order.state));
        }
        s::UNPAID | s::PAYMENT_FAILED | s::EXPIRED_UNPAID if keeper.is_some() => {
            return Err(format!("order {} has a settlement", order.state));
        }
        _ => {}
    }
    // Each attempt against the provider's ledger.
    let mut expected_kept = Fen::ZERO;
    for (id, r) in &made {
        let t = &seen.ledger.trades[*id];
        let paid_there = matches!(t.state, TradeState::Paid { .. });
        let is_keeper = keeper.is_some_and(|k| &k.payment_id == *id);
        let fail = |what: &str| Err(format!("{id} ({}; trade {t:?}): {what}", r.state));
        match r.state.as_str() {
            "paid" if !paid_there || t.kept() != r.amount => return fail("paid here, not there"),
            "refunding" | "refunded" if !paid_there => return fail("refund of money never paid"),
            "refunded"
                if t.refunds.len() != 1
                    || t.refunds[0].0 != actors::payments::refund_id(id)
                    || t.kept() != Fen::ZERO
                    || r.refunded != r.amount =>
            {
                return fail("refunded here, not exactly once there")
            }
            "refunding" if !t.refunds.is_empty() || seen.ledger.outages_hit == 0 => {
                return fail("a refund owed without an outage")
            }
            "closed" if !matches!(t.state, TradeState::Closed | TradeState::Failed) => {
                return fail("closed here, not there")
            }
            "failed" if t.state != TradeState::Failed => return fail("failed here, not there"),
            "pending" if (paid_there || t.state == TradeState::Failed) && !t.notify_pending => {
                return fail("settled there, notify taken, still pending here")
            }
            "pending" | "paid" | "refunding" | "refunded" | "closed" | "failed" => {}
            _ => return fail("a state this model never makes"),
        }
        if !t.refunds.is_empty() && r.state != "refunded" {
            return fail("refunded there, not here");
        }
        if matches!(r.state.as_str(), "refunding" | "refunded") {
            let want = match (is_keeper, keeper.is_some(), order.state) {
                (true, _, s::CANCELLED_BY_CUSTOMER) => "order_cancelled",
                (true, _, s::REFUSED_BY_STORE) => "order_refused",
                (false, true, _) => "duplicate",
                (false, false, s::CANCELLED_BY_CUSTOMER) => "order_cancelled",
                (false, false, s::EXPIRED_UNPAID) => "order_expired",
                _ => return fail("refunded while the order keeps it"),
            };
            if r.refund_reason.as_deref() != Some(want) {
                return fail(&format!("reason {:?}, want {want}", r.refund_reason));
            }
        }
        if given_back && matches!(r.state.as_str(), "paid") {
            return fail("the order was given back but this money was not");
        }
        // Money the provider holds: the kept payment, refunds owed, and money we were not
        // told about yet.
        if (r.state == "paid" && stands) || r.state == "refunding" || r.state == "pending" {
            expected_kept += t.kept();
        }
        if job_ran {
            let open = matches!(r.state.as_str(), "created" | "pending" | "failed");
            if r.expires_at <= seen.now && open && !unreachable_now {
                return fail("still open after the expiry job");
            }
            if r.state == "refunding" && !outage_now {
                return fail("a refund still owed after the job ran with the provider up");
            }
        }
    }
    // The provider's statement says the same as its ledger and our rows.
    let statement = world
        .fake
        .statement(0, i64::MAX)
        .await
        .map_err(|e| e.to_string())?;
    let held: Fen = statement
        .iter()
        .map(|l| match l.kind {
            StatementKind::Payment => l.amount,
            StatementKind::Refund => Fen::ZERO - l.amount,
        })
        .sum();
    if held != expected_kept {
        return Err(format!(
            "the provider holds {held}, our rows account for {expected_kept}"
        ));
    }
    let payable = matches!(order.state, s::UNPAID | s::PAYMENT_FAILED);
    if job_ran && !made.is_empty() && payable && !unreachable_now {
        return Err("the order is still payable after every attempt expired".into());
    }
    // Never cancelled on a guess: an order cancelled for expiry has no attempt open.
    if order.state == s::EXPIRED_UNPAID {
        if let Some((id, r)) = made
            .iter()
            .find(|(_, r)| matches!(r.state.as_str(), "created" | "pending" | "failed"))
        {
            return Err(format!("expired while {id} is still {}", r.state));
        }
    }
    Ok(())
}

/// Moves beyond the seven of the issue, each run with two attempts (with three the space grows
/// past what a test run should take).
#[derive(Debug, Clone, Copy, Default)]
struct Extra {
    /// The payer fails at the cashier (a failed attempt, then expiry of a failed one).
    failures: bool,
    /// The provider cannot be reached, once for a refund and once for a query or close.
    outages: bool,
}

struct Node {
    snap: Snapshot,
    sig: Sig,
    path: Vec<Op>,
    children: Vec<usize>,
}

/// Explores every interleaving for `attempts` attempts; answers (distinct states, steps run,
/// interleavings: distinct maximal sequences of moves that change something).
async fn explore(world: &World, attempts: usize, extra: Extra) -> (usize, usize, u128) {
    let model = Model {
        attempts: vec![Attempt::NotYet; attempts],
        outage_used: false,
        unreachable_used: false,
    };
    let root = world.snapshot(&model).await;
    world.restore(&root).await;
    let seen = world.seen(&model).await;
    let root_sig = sig(&seen, &model);
    let mut nodes = vec![Node {
        snap: root,
        sig: root_sig.clone(),
        path: Vec::new(),
        children: Vec::new(),
    }];
    let mut index: HashMap<Sig, usize> = HashMap::from([(root_sig, 0)]);
    let mut stack = vec![0];
    let mut steps = 0;
    while let Some(at) = stack.pop() {
        for op in World::enabled(&nodes[at].snap, extra) {
            world.restore(&nodes[at].snap).await;
            let mut model = nodes[at].snap.model.clone();
            let before = world.fake.ledger();
            let mut path = nodes[at].path.clone();
            path.push(op);
            steps += 1;
            if let Err(e) = world.apply(op, &mut model).await {
                panic!("after {path:?}: {e}");
            }
            let seen = world.seen(&model).await;
            let outage_now = seen.ledger.outages_hit > before.outages_hit;
            let unreachable_now = seen.ledger.query_outages_hit > before.query_outages_hit;
            let job_ran = op == Op::Expire;
            if let Err(e) = check(world, &seen, &model, job_ran, outage_now, unreachable_now).await
            {
                panic!("after {path:?}: {e}");
            }
            let next = sig(&seen, &model);
            if next == nodes[at].sig {
                continue;
            }
            let child = match index.get(&next) {
                Some(&child) => child,
                None => {
                    let child = nodes.len();
                    nodes.push(Node {
                        snap: world.snapshot(&model).await,
                        sig: next.clone(),
                        path,
                        children: Vec::new(),
                    });
                    index.insert(next, child);
                    stack.push(child);
                    child
                }
            };
            nodes[at].children.push(child);
        }
    }
    // Maximal move sequences through the graph of states (it has no cycles: every change
    // moves a row, the ledger or the clock forward).
    let mut paths: Vec<Option<u128>> = vec![None; nodes.len()];
    let mut order: Vec<(usize, bool)> = vec![(0, false)];
    while let Some((n, expanded)) = order.pop() {
        if paths[n].is_some() {
            continue;
        }
        if expanded {
            let total = if nodes[n].children.is_empty() {
                1
            } else {
                nodes[n]
                    .children
                    .iter()
                    .map(|&c| paths[c].expect("a cycle in the state graph"))
                    .fold(0u128, |a, b| a.saturating_add(b))
            };
            paths[n] = Some(total);
        } else {
            order.push((n, true));
            order.extend(nodes[n].children.iter().map(|&c| (c, false)));
        }
    }
    world.restore(&nodes[0].snap).await;
    (nodes.len(), steps, paths[0].unwrap_or(0))
}

/// Explores, prints the figures, and checks the search did search.
async fn run_model(phone: &str, attempts: usize, extra: Extra, at_least: usize) {
    let world = World::new(phone).await;
    let started = Instant::now();
    let (states, steps, interleavings) = explore(&world, attempts, extra).await;
    println!(
        "model ({}, {extra:?}): {attempts} attempts → {interleavings} interleavings \
         ({states} states, {steps} steps, {:.1}s)",
        crate::helpers::backend(),
        started.elapsed().as_secs_f64()
    );
    assert!(states >= at_least, "only {states} states");
}

#[tokio::test]
async fn model_two_attempts() {
    run_model("13512379001", 2, Extra::default(), 100).await;
}

#[tokio::test]
async fn model_three_attempts() {
    run_model("13512379003", 3, Extra::default(), 500).await;
}

#[tokio::test]
async fn model_two_attempts_with_failures_at_the_cashier() {
    let extra = Extra {
        failures: true,
        outages: false,
    };
    run_model("13512379004", 2, extra, 100).await;
}

#[tokio::test]
async fn model_two_attempts_with_the_provider_unreachable() {
    let extra = Extra {
        failures: false,
        outages: true,
    };
    run_model("13512379005", 2, extra, 200).await;
}

/// The same notifies, queries, expiries and a cancel fired at once for one order, over and
/// over; then the job runs once more and every invariant must hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_notifies_queries_and_expiry_settle_once() {
    let world = World::new("13512379002").await;
    let model = Model {
        attempts: vec![Attempt::NotYet; 3],
        outage_used: true,
        unreachable_used: true,
    };
    let fresh = world.snapshot(&model).await;
    let rounds = 24;
    let mut failures = 0;
    for round in 0..rounds {
        world.restore(&fresh).await;
        let mut model = model.clone();
        for i in 0..3 {
            world.apply(Op::Create(i), &mut model).await.unwrap();
        }
        let ids: Vec<String> = model
            .attempts
            .iter()
            .map(|a| match a {
                Attempt::Made(id) => id.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        // Which attempts the payer pays varies by round: two or all three, in varying order.
        let paid: Vec<usize> = match round % 4 {
            0 => vec![2, 0, 1],
            1 => vec![1, 2],
            2 => vec![2, 0],
            _ => vec![0, 1, 2],
        };
        for &i in &paid {
            assert!(world.fake.pay(&ids[i]));
        }
        if round % 3 == 1 {
            // Half an hour passes first: expiry and the notifies race.
            world.clock.advance_ms(31 * MINUTE);
        }
        let mut tasks = tokio::task::JoinSet::new();
        for k in 0..4 {
            for &i in &paid {
                let (service, fake, id) =
                    (world.service.clone(), world.fake.clone(), ids[i].clone());
                tasks.spawn(async move {
                    let n = fake.pending_notify(&id).unwrap();
                    service
                        .on_notify(&id, &n.trade_no, NotifyStatus::Paid, n.amount)
                        .await
                        .map(|_| ())
                });
            }
            for id in &ids {
                let (service, id) = (world.service.clone(), id.clone());
                tasks.spawn(async move { service.refresh(&id).await.map(|_| ()) });
            }
            let service = world.service.clone();
            tasks.spawn(async move { service.expire_due().await.map(|_| ()) });
            if round % 2 == 0 && k == 1 {
                let (orders, service, order_no) = (
                    world.app.app_state.orders.clone(),
                    world.service.clone(),
                    world.order_no.clone(),
                );
                tasks.spawn(async move {
                    if let Ok(done) = orders
                        .make_move(
                            &order_no,
                            Mover::Customer,
                            Command::CustomerCancel,
                            Fen::ZERO,
                        )
                        .await
                    {
                        if done.transition.refund {
                            service.refund_order(&order_no).await?;
                        }
                    }
                    Ok(())
                });
            }
        }
        while let Some(done) = tasks.join_next().await {
            // Losing a race is allowed (the provider retries, the job heals); wrong money is not.
            if let Err(e) = done.unwrap() {
                failures += 1;
                eprintln!("round {round}: {e}");
            }
        }
        for &i in &paid {
            world.fake.notify_taken(&ids[i]);
        }
        world.clock.advance_ms(31 * MINUTE);
        world.service.expire_due().await.unwrap();
        let seen = world.seen(&model).await;
        if let Err(e) = check(&world, &seen, &model, true, false, false).await {
            panic!("round {round} (paid {paid:?}): {e}");
        }
        let kept = seen
            .rows
            .iter()
            .flatten()
            .filter(|r| r.state == "paid")
            .count();
        let refunded = seen
            .rows
            .iter()
            .flatten()
            .filter(|r| r.state == "refunded")
            .count();
        assert_eq!(
            kept + refunded,
            paid.len(),
            "round {round}: every paid attempt accounted for"
        );
    }
    println!("race: {rounds} rounds, {failures} calls lost a race and were retried later");
}
