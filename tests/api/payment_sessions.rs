#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The PaymentSession actor's messages (issue 21): notify, query, expiry at its timer, close
//! and refund go through one session per attempt; two messages of one attempt at once take
//! turns (a provider that counts calls in flight sees one at a time); an idle session stops and
//! comes back on demand; start-up re-arms the timers of open attempts and expires overdue ones;
//! and two nodes receiving the same notify settle it once.

use crate::helpers::{spawn_app, Attempt, TestApp};
use crate::payment_model::fake::{FakeProvider, TradeState};
use crate::payments::{pay_at_cashier, unpaid_order};
use actors::clock::Clock;
use actors::db::payments::{PaymentRepo, PaymentRow};
use actors::domain::money::Fen;
use actors::domain::ordering::order_machine::state as s;
use actors::domain::payments::state::PaymentState;
use actors::payments::{PayRequest, PaymentService, Restored, PAYMENT_LIFETIME_MS};
use actors::providers::payment::{
    CloseOutcome, CreatePayment, Notify, NotifyStatus, PayInstructions, PayMethod, PaymentError,
    PaymentProvider, ProviderPaymentStatus, RefundResult, StatementLine,
};
use async_trait::async_trait;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const MINUTE: i64 = 60_000;

/// The model's provider, slowed down, counting the calls that are inside it at once.
struct Probe {
    inner: FakeProvider,
    delay: Duration,
    in_flight: AtomicUsize,
    most: AtomicUsize,
}

impl Probe {
    async fn timed<T>(&self, call: impl std::future::Future<Output = T>) -> T {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(self.delay).await;
        let answer = call.await;
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        answer
    }

    fn most_at_once(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl PaymentProvider for Probe {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    async fn create(&self, req: &CreatePayment) -> Result<PayInstructions, PaymentError> {
        self.inner.create(req).await
    }
    async fn query(&self, payment_id: &str) -> Result<ProviderPaymentStatus, PaymentError> {
        self.timed(self.inner.query(payment_id)).await
    }
    async fn refund(
        &self,
        payment_id: &str,
        refund_id: &str,
        amount: Fen,
    ) -> Result<RefundResult, PaymentError> {
        self.timed(self.inner.refund(payment_id, refund_id, amount))
            .await
    }
    async fn close(&self, payment_id: &str) -> Result<CloseOutcome, PaymentError> {
        self.timed(self.inner.close(payment_id)).await
    }
    async fn statement(&self, from: i64, to: i64) -> Result<Vec<StatementLine>, PaymentError> {
        self.inner.statement(from, to).await
    }
    fn verify_notify(&self, body: &[u8]) -> Result<Notify, PaymentError> {
        self.inner.verify_notify(body)
    }
    fn notify_ack(&self) -> &'static str {
        self.inner.notify_ack()
    }
}

/// The app (database, order sessions) and a payment service of its own over the probe, with
/// its own manual clock: the app's jobs leave this provider's attempts alone.
struct Rig {
    app: TestApp,
    clock: Clock,
    fake: FakeProvider,
    probe: Arc<Probe>,
    service: Arc<PaymentService>,
    order_no: String,
}

impl Rig {
    async fn new(phone: &str, idle: Duration) -> Rig {
        let app = spawn_app().await;
        let (_token, order_no) = unpaid_order(&app, phone).await;
        let clock = Clock::manual(app.clock.now_ms());
        let fake = FakeProvider::new(clock.clone());
        let probe = Arc::new(Probe {
            inner: fake.clone(),
            delay: Duration::from_millis(40),
            in_flight: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
        });
        let service = Arc::new(service_on(&app, probe.clone(), &clock, idle));
        Rig {
            app,
            clock,
            fake,
            probe,
            service,
            order_no,
        }
    }

    /// Another process over the same database and provider: a node that starts now.
    fn another_node(&self) -> PaymentService {
        service_on(
            &self.app,
            self.probe.clone(),
            &self.clock,
            Duration::from_secs(300),
        )
    }

    /// Another attempt of the order: each with another method (the customer switches), since
    /// the open attempt of a method is handed out again.
    async fn create(&self) -> PaymentRow {
        let order = self.order().await;
        let made = self
            .service
            .repo()
            .for_order(&order.order_no)
            .await
            .unwrap();
        let method = [
            PayMethod::AlipayWap,
            PayMethod::WechatH5,
            PayMethod::UnionpayWeb,
        ][made.len() % 3];
        let (row, _) = self
            .service
            .create(&order, method, pay_request())
            .await
            .unwrap();
        row
    }

    async fn order(&self) -> actors::db::orders::OrderRow {
        let repo = self.app.app_state.orders.repo();
        repo.find(&self.order_no).await.unwrap().unwrap()
    }

    async fn row(&self, payment_id: &str) -> PaymentRow {
        self.service.repo().get(payment_id).await.unwrap().unwrap()
    }

    async fn notify(&self, payment_id: &str) -> Result<(), actors::payments::PayFailure> {
        let n = self.fake.pending_notify(payment_id).unwrap();
        let service = &self.service;
        service
            .on_notify(payment_id, &n.trade_no, NotifyStatus::Paid, n.amount)
            .await
            .map(|_| ())
    }
}

fn pay_request() -> PayRequest {
    PayRequest {
        notify_url: "http://127.0.0.1/notify".into(),
        return_url: "/order/status".into(),
        client_ip: "127.0.0.1".into(),
        open_id: None,
    }
}

fn service_on(
    app: &TestApp,
    provider: Arc<Probe>,
    clock: &Clock,
    idle: Duration,
) -> PaymentService {
    PaymentService::new(
        PaymentRepo::new(app.app_state.db.clone()),
        provider,
        app.app_state.orders.clone(),
        app.app_state.bus.clone(),
        clock.clone(),
        actors::actor_thread::start().unwrap(),
    )
    .with_idle(idle)
}

/// Polls (real time: the timer runs on the actor thread) until the attempt is in `state`.
async fn until_row_state(rig: &Rig, payment_id: &str, state: PaymentState) -> PaymentRow {
    for _ in 0..100 {
        let row = rig.row(payment_id).await;
        if row.state == state {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    panic!(
        "{payment_id} never became {state}: {:?}",
        rig.row(payment_id).await
    );
}

#[tokio::test]
async fn creating_an_attempt_arms_its_timer_for_thirty_minutes() {
    let rig = Rig::new("13512391001", Duration::from_secs(300)).await;
    let row = rig.create().await;
    assert_eq!(row.expires_at, row.created_at + PAYMENT_LIFETIME_MS);
    let deadline = rig.service.timer_deadline(&row.payment_id).await.unwrap();
    assert_eq!(deadline, Some(row.expires_at));
    assert_eq!(rig.service.live_sessions(), 1);
}

#[tokio::test]
async fn a_notify_and_queries_of_one_attempt_at_once_take_turns() {
    let rig = Rig::new("13512391002", Duration::from_secs(300)).await;
    let first = rig.create().await;
    let second = rig.create().await;

    // The probe sees concurrency when there is some: two attempts are two sessions.
    let (a, b) = tokio::join!(
        rig.service.refresh(&first.payment_id),
        rig.service.refresh(&second.payment_id)
    );
    a.unwrap();
    b.unwrap();
    assert_eq!(rig.probe.most_at_once(), 2, "two attempts' queries overlap");

    rig.probe.most.store(0, Ordering::SeqCst);
    assert!(rig.fake.pay(&first.payment_id));
    let mut calls = tokio::task::JoinSet::new();
    for k in 0..6 {
        let (service, fake, id) = (
            rig.service.clone(),
            rig.fake.clone(),
            first.payment_id.clone(),
        );
        calls.spawn(async move {
            if k % 2 == 0 {
                let n = fake.pending_notify(&id).unwrap();
                service
                    .on_notify(&id, &n.trade_no, NotifyStatus::Paid, n.amount)
                    .await
                    .map(|_| ())
            } else {
                service.refresh(&id).await.map(|_| ())
            }
        });
    }
    while let Some(done) = calls.join_next().await {
        done.unwrap().unwrap();
    }
    assert_eq!(
        rig.probe.most_at_once(),
        1,
        "one attempt's provider calls one at a time"
    );
    let order = rig.order().await;
    assert_eq!(order.state, s::PAID);
    assert_eq!(order.paid_by.as_deref(), Some(first.payment_id.as_str()));
    assert_eq!(rig.row(&first.payment_id).await.state, PaymentState::Paid);
    // Settled: its session keeps no timer; the other attempt's still runs.
    let service = &rig.service;
    assert_eq!(
        service.timer_deadline(&first.payment_id).await.unwrap(),
        None
    );
    assert_eq!(
        service.timer_deadline(&second.payment_id).await.unwrap(),
        Some(second.expires_at)
    );
}

#[tokio::test]
async fn the_timer_expires_the_attempt_at_its_deadline_and_not_before() {
    let rig = Rig::new("13512391003", Duration::from_secs(300)).await;
    let row = rig.create().await;
    // A node starting 300 ms of the service's clock before the deadline arms a short timer.
    rig.clock.set_ms(row.expires_at - 300);
    let node = rig.another_node();
    let restored = node.restore_open().await.unwrap();
    assert_eq!(
        restored,
        Restored {
            armed: 1,
            expired: 0,
            left: 0
        }
    );
    // The timer fires on time by the wall, but the service's clock has not moved: early, so it
    // waits again for the deadline and expires nothing.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(rig.row(&row.payment_id).await.state, PaymentState::Pending);
    assert_eq!(
        node.timer_deadline(&row.payment_id).await.unwrap(),
        Some(row.expires_at)
    );

    rig.clock.advance_ms(300);
    let closed = until_row_state(&rig, &row.payment_id, PaymentState::Closed).await;
    assert_eq!(closed.fail_reason.as_deref(), Some("expired"));
    // The order moves right after the row, in the same turn: the next message waits for it.
    assert_eq!(node.timer_deadline(&row.payment_id).await.unwrap(), None);
    assert_eq!(rig.order().await.state, s::EXPIRED_UNPAID);
    assert_eq!(
        rig.fake.ledger().trades[&row.payment_id].state,
        TradeState::Closed,
        "closed at the provider first"
    );
}

#[tokio::test]
async fn start_up_rearms_open_attempts_and_expires_overdue_ones_at_once() {
    let rig = Rig::new("13512391004", Duration::from_secs(300)).await;
    let old = rig.create().await;
    rig.clock.advance_ms(10 * MINUTE);
    let young = rig.create().await;
    let paid = rig.create().await;
    assert!(rig.fake.pay(&paid.payment_id));
    // Paid at the provider but not told yet; the old one's deadline passes while no node runs.
    rig.clock.advance_ms(21 * MINUTE);

    let node = rig.another_node();
    let restored = node.restore_open().await.unwrap();
    assert_eq!(
        restored,
        Restored {
            armed: 2,
            expired: 1,
            left: 0
        },
        "young and paid armed (paid has not been told yet), old expired"
    );
    assert_eq!(rig.row(&old.payment_id).await.state, PaymentState::Closed);
    assert_eq!(
        rig.order().await.state,
        s::UNPAID,
        "another attempt is still open: the order waits for it"
    );
    for p in [&young, &paid] {
        assert_eq!(
            node.timer_deadline(&p.payment_id).await.unwrap(),
            Some(p.expires_at)
        );
    }
    assert_eq!(node.live_sessions(), 3);
}

#[tokio::test]
async fn close_and_refund_go_through_the_session_and_end_its_timer() {
    let rig = Rig::new("13512391005", Duration::from_secs(300)).await;
    let kept = rig.create().await;
    let twice = rig.create().await;
    let open = rig.create().await;
    assert!(rig.fake.pay(&kept.payment_id));
    assert!(rig.fake.pay(&twice.payment_id));
    rig.notify(&kept.payment_id).await.unwrap();
    rig.notify(&twice.payment_id).await.unwrap();
    let refunded = rig.row(&twice.payment_id).await;
    assert_eq!(refunded.state, PaymentState::Refunded);
    assert_eq!(refunded.refund_reason.as_deref(), Some("duplicate"));

    // The customer cancels: the open attempt is closed (asked first), the kept one refunded.
    let orders = &rig.app.app_state.orders;
    orders
        .make_move(
            &rig.order_no,
            actors::domain::ordering::order_machine::Actor::Customer,
            actors::domain::ordering::order_machine::Command::CustomerCancel,
            Fen::ZERO,
        )
        .await
        .unwrap();
    assert_eq!(
        rig.service
            .close_open_attempts(&rig.order_no)
            .await
            .unwrap(),
        1
    );
    let closed = rig.row(&open.payment_id).await;
    assert_eq!(closed.state, PaymentState::Closed);
    assert_eq!(closed.fail_reason.as_deref(), Some("order_cancelled"));
    assert_eq!(
        rig.service.refund_order(&rig.order_no).await.unwrap(),
        kept.amount
    );
    assert_eq!(
        rig.row(&kept.payment_id).await.state,
        PaymentState::Refunded
    );
    for p in [&kept, &twice, &open] {
        let deadline = rig.service.timer_deadline(&p.payment_id).await.unwrap();
        assert_eq!(deadline, None, "{} keeps no timer", p.payment_id);
    }
    let ledger = rig.fake.ledger();
    assert_eq!(ledger.trades[&kept.payment_id].refunds.len(), 1);
    assert_eq!(ledger.trades[&twice.payment_id].refunds.len(), 1);
}

#[tokio::test]
async fn an_idle_session_stops_unless_its_timer_is_pending_and_comes_back_on_demand() {
    // Idle for 500 ms: long enough that the count right after the notify cannot miss one.
    let rig = Rig::new("13512391006", Duration::from_millis(500)).await;
    let settled = rig.create().await;
    let open = rig.create().await;
    assert!(rig.fake.pay(&settled.payment_id));
    rig.notify(&settled.payment_id).await.unwrap();
    assert_eq!(rig.service.live_sessions(), 2);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while rig.service.live_sessions() != 1 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        rig.service.live_sessions(),
        1,
        "the settled attempt's session stopped; the open one keeps its timer"
    );
    let again = rig.service.refresh(&settled.payment_id).await.unwrap();
    assert_eq!(again.state, PaymentState::Paid);
    assert_eq!(rig.service.live_sessions(), 2);
    assert_eq!(
        rig.service.timer_deadline(&open.payment_id).await.unwrap(),
        Some(open.expires_at)
    );
}

/// Two nodes of one deployment: the attempt is created on node A, its notify reaches node B
/// (and A) several times at once, and the order is paid once.
#[tokio::test]
async fn an_attempt_created_on_one_node_and_notified_on_another_settles_once() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let Attempt {
        order_no,
        payment_id,
        ..
    } = a.order_with_attempt("13512391007").await;
    // The sandbox would post the notify to A; it is lost, and delivered by hand instead.
    a.app_state
        .sandbox_payments
        .as_deref()
        .unwrap()
        .lose_next_notify();
    assert_eq!(pay_at_cashier(&a, &payment_id, "success").await.status, 200);
    let body: Option<String> =
        sqlx::query_scalar("SELECT notify_body FROM sandbox_trades WHERE payment_id = $1")
            .bind(&payment_id)
            .fetch_one(a.app_state.db.pool())
            .await
            .unwrap();
    let body = body.expect("the signed notify is recorded");

    let mut posts = tokio::task::JoinSet::new();
    for node in [&b, &b, &b, &a.address, &a.address] {
        let (client, url, body) = (
            a.client.clone(),
            format!("{node}/api/v1/payments/notify/sandbox"),
            body.clone(),
        );
        posts.spawn(async move {
            let res = client
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap();
            (res.status().as_u16(), res.text().await.unwrap())
        });
    }
    while let Some(answer) = posts.join_next().await {
        assert_eq!(answer.unwrap(), (200, "success".to_string()));
    }
    let orders = a.app_state.orders.repo();
    let order = orders.find(&order_no).await.unwrap().unwrap();
    assert_eq!(order.state, s::PAID);
    assert_eq!(order.paid_by.as_deref(), Some(payment_id.as_str()));
    assert_eq!(order.paid_amount, order.order_amount);
    let history = orders.history(&order_no).await.unwrap();
    let payment_moves = history.iter().filter(|e| e.state == s::PAID).count();
    assert_eq!(payment_moves, 1, "one payment move: {history:?}");
    let row = a.app_state.payments.repo().get(&payment_id).await.unwrap();
    let row = row.unwrap();
    assert_eq!((row.state, row.refunded), (PaymentState::Paid, Fen::ZERO));
}
