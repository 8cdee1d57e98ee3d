//! What the sandbox's tests share: a notify receiver, a ledger of its own, the sandbox over it
//! and a create request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::{lock, NotifyDelivery, SandboxConfig, SandboxPayments};
use actix_web::dev::ServerHandle;
use actix_web::{web, App, HttpResponse, HttpServer};
use actors::clock::Clock;
use actors::db::Db;
use actors::domain::money::Fen;
use actors::providers::payment::{CreatePayment, PayMethod};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

pub(crate) async fn sandbox(clock: &Clock) -> SandboxPayments {
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
