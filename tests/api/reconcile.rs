#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Reconciliation with the sandbox's statement, the sandbox ledger shared by nodes, and
//! return URLs that stay on our site.

use crate::helpers::{spawn_app, Attempt, TestApp};
use crate::payments::{order, pay_at_cashier, unpaid_order, until_state};
use actors::domain::money::Fen;
use actors::domain::ordering::order_machine::state as s;
use actors::domain::payments::state::PaymentState;
use actors::payments::reconcile::{runs::RunRepo, Finding};
use actors::providers::payment::{CreatePayment, PayMethod, PaymentProvider};
use chrono::NaiveDate;
use pizza_order::providers::payment::sandbox::{SandboxPayments, SettleOutcome};
use serde_json::json;
use std::time::Duration;

fn sandbox(app: &TestApp) -> &SandboxPayments {
    app.app_state.sandbox_payments.as_deref().unwrap()
}

fn today(app: &TestApp) -> NaiveDate {
    app.clock.china_now().date_naive()
}

/// A paid trade at the sandbox whose notify never reached us: (token, orderNo, paymentId).
async fn paid_without_notify(app: &TestApp, phone: &str) -> (String, String, String) {
    let Attempt {
        token,
        order_no,
        payment_id,
    } = app.order_with_attempt(phone).await;
    sandbox(app).lose_next_notify();
    pay_at_cashier(app, &payment_id, "success").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        order(app, &token, &order_no).await["state"],
        s::UNPAID,
        "the notify was lost, nobody asked"
    );
    (token, order_no, payment_id)
}

#[tokio::test]
async fn a_missed_notify_is_repaired_by_reconcile_and_only_once() {
    let app = spawn_app().await;
    let (token, order_no, payment_id) = paid_without_notify(&app, "13512379001").await;

    let report = pizza_order::reconcile_job::run(&app.app_state, today(&app), "cli")
        .await
        .unwrap();
    assert_eq!(
        (report.matched, report.repaired(), report.unresolved()),
        (0, 1, 0),
        "{}",
        report.summary()
    );
    assert!(matches!(
        &report.lines[0].finding,
        Finding::MissedNotify { payment_id: id, our_state, .. } if *id == payment_id && *our_state == PaymentState::Pending
    ));
    until_state(&app, &token, &order_no, u64::from(s::PAID)).await;

    // Again: the payment is paid here now, so it matches and nothing is repaired twice.
    let again = pizza_order::reconcile_job::run(&app.app_state, today(&app), "cli")
        .await
        .unwrap();
    assert_eq!(
        (again.matched, again.repaired(), again.unresolved()),
        (1, 0, 0),
        "{}",
        again.summary()
    );
    let p = app
        .app_state
        .payments
        .repo()
        .get(&payment_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(p.state, PaymentState::Paid);
    assert_eq!(order(&app, &token, &order_no).await["state"], s::PAID);

    // Both runs are recorded with their findings.
    let day = today(&app).format("%Y-%m-%d").to_string();
    let runs = RunRepo::new(app.app_state.db.clone())
        .runs_of(&day)
        .await
        .unwrap();
    // (Both started at the same instant of the test's clock: compared in any order.)
    let mut counts: Vec<(i64, i64, i64)> = runs
        .iter()
        .map(|r| (r.matched, r.repaired, r.unresolved))
        .collect();
    counts.sort();
    assert_eq!(counts, vec![(0, 1, 0), (1, 0, 0)]);
    assert!(runs.iter().any(|r| r.report == report));
    assert!(runs.iter().all(|r| r.started_by == "cli"));
}

#[tokio::test]
async fn an_amount_mismatch_and_an_unknown_payment_are_reported_and_not_repaired() {
    let app = spawn_app().await;
    let (token, order_no, payment_id) = paid_without_notify(&app, "13512379002").await;
    // The provider's ledger says another amount than ours.
    sqlx::query("UPDATE sandbox_trades SET amount = amount - 1 WHERE payment_id = $1")
        .bind(&payment_id)
        .execute(app.app_state.db.pool())
        .await
        .unwrap();
    // And a trade paid at the provider for a payment id we never made.
    let now = app.clock.now_ms();
    sandbox(&app)
        .create(&CreatePayment {
            payment_id: "PSTRANGER".into(),
            order_no: "ONOWHERE".into(),
            amount: Fen(1234),
            subject: "?".into(),
            method: PayMethod::WechatH5,
            notify_url: "http://127.0.0.1:9/n".into(),
            return_url: String::new(),
            client_ip: "203.0.113.1".into(),
            open_id: None,
            expires_at: now + 60_000,
        })
        .await
        .unwrap();
    sandbox(&app).lose_next_notify();
    sandbox(&app)
        .settle("PSTRANGER", SettleOutcome::Success)
        .await
        .unwrap();

    let report = pizza_order::reconcile_job::run(&app.app_state, today(&app), "cli")
        .await
        .unwrap();
    assert_eq!(
        (report.matched, report.repaired(), report.unresolved()),
        (0, 0, 2),
        "{}",
        report.summary()
    );
    let findings: Vec<&Finding> = report.lines.iter().map(|l| &l.finding).collect();
    assert!(findings.iter().any(|f| matches!(f,
        Finding::AmountMismatch { payment_id: id, ours, provider } if *id == payment_id && *provider + Fen(1) == *ours)));
    assert!(findings.iter().any(|f| matches!(f,
        Finding::UnknownPayment { payment_id: id, amount: Fen(1234), .. } if id == "PSTRANGER")));
    let text = report.summary();
    assert!(text.contains("unresolved 2"), "{text}");
    assert!(text.contains("amount differs"), "{text}");
    assert!(text.contains("unknown payment id"), "{text}");
    // Nothing was settled on a guess.
    assert_eq!(order(&app, &token, &order_no).await["state"], s::UNPAID);
}

#[tokio::test]
async fn the_daily_job_runs_each_day_once_after_two_oclock() {
    let app = spawn_app().await;
    let (token, order_no, payment_id) = paid_without_notify(&app, "13512379003").await;
    let paid_day = today(&app);
    // 01:59 the next day, China time: not yet.
    let next_midnight = actors::payments::reconcile::day_window(paid_day).1;
    app.clock.set_ms(next_midnight + 119 * 60_000);
    assert!(pizza_order::reconcile_job::daily_once(&app.app_state)
        .await
        .unwrap()
        .is_none());
    // 02:00: two nodes (or a restart) look at once; one runs the day.
    app.clock.set_ms(next_midnight + 120 * 60_000);
    let (a, b) = tokio::join!(
        pizza_order::reconcile_job::daily_once(&app.app_state),
        pizza_order::reconcile_job::daily_once(&app.app_state)
    );
    let reports: Vec<_> = [a.unwrap(), b.unwrap()].into_iter().flatten().collect();
    assert_eq!(reports.len(), 1, "one run of the day");
    assert_eq!(reports[0].day, paid_day.format("%Y-%m-%d").to_string());
    assert_eq!(reports[0].repaired(), 1, "{}", reports[0].summary());
    // Settled (or, had the expiry job closed the order during the jump of the clock, settled
    // and refunded): never left pending.
    let p = app
        .app_state
        .payments
        .repo()
        .get(&payment_id)
        .await
        .unwrap()
        .unwrap();
    assert!(
        p.state == PaymentState::Paid || p.state == PaymentState::Refunded,
        "{}",
        p.state
    );
    let _ = (token, order_no);
    // Later that day: done already.
    app.clock.advance_ms(3 * 3_600_000);
    assert!(pizza_order::reconcile_job::daily_once(&app.app_state)
        .await
        .unwrap()
        .is_none());
    let runs = RunRepo::new(app.app_state.db.clone())
        .runs_of(&reports[0].day)
        .await
        .unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].started_by, "job");
}

#[tokio::test]
async fn another_node_serves_the_cashier_and_the_settle_of_a_trade_it_did_not_create() {
    let app = spawn_app().await;
    let other = app.second_node().await;
    let Attempt {
        token,
        order_no,
        payment_id,
    } = app.order_with_attempt("13512379004").await;
    let cashier = app
        .client
        .get(format!("{other}/sandbox/cashier/{payment_id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(cashier.status(), 200);
    assert!(cashier.text().await.unwrap().contains(&order_no));
    let paid = app
        .client
        .post(format!("{other}/sandbox/api/pay/{payment_id}"))
        .json(&json!({"outcome": "success"}))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 200);
    // Its notify reaches the node the payment was created on, and the order is paid.
    until_state(&app, &token, &order_no, u64::from(s::PAID)).await;
    let query = app
        .client
        .get(format!("{other}/api/v1/payments/{payment_id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = query.json().await.unwrap();
    assert_eq!(body["data"]["state"], "paid", "{body}");
}

#[tokio::test]
async fn return_urls_stay_on_our_site() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512379005").await;
    let status_page = format!("/order/status?orderNo={order_no}&paymentId=");
    let cases = [
        ("https://evil.test/steal", status_page.clone()),
        ("//evil.test/steal", status_page.clone()),
        ("/\\evil.test", status_page.clone()),
        ("/%2f%2fevil.test", status_page.clone()),
        ("/%5cevil.test", status_page.clone()),
        ("/\t/evil.test", status_page.clone()),
        ("javascript:alert(1)", status_page.clone()),
        (" /order/status", status_page.clone()),
        // Our own origin spelt out is not a path either: the status page, the same place.
        (
            &format!("{}/order/status?orderNo={order_no}", app.address),
            status_page.clone(),
        ),
        (
            "/my/orders?tab=all",
            "/my/orders?tab=all&orderNo=".to_string(),
        ),
    ];
    for (given, want) in cases {
        // A new attempt each time (the last one was cancelled), 15 s apart: under the
        // ceiling of new attempts a user may open in a minute.
        app.clock.advance_ms(15_000);
        let created = app
            .post(
                "/api/v1/payments",
                &json!({"orderNo": order_no, "method": "alipay_wap", "returnUrl": given}),
                Some(&token),
            )
            .await;
        let payment_id = created.assert_ok()["paymentId"]
            .as_str()
            .unwrap()
            .to_string();
        let back = pay_at_cashier(&app, &payment_id, "cancel").await;
        let url = back.body["returnUrl"].as_str().unwrap();
        assert!(url.starts_with(&want), "{given:?} → {url}");
        assert!(url.ends_with("&customestatus=1"), "{url}");
        assert!(!url.contains("evil"), "{url}");
    }
}

#[tokio::test]
async fn the_embedded_sandbox_makes_its_key_once_and_production_refuses_the_sandbox() {
    use pizza_order::app::Application;
    use pizza_order::config::Settings;
    let config_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut settings = Settings::load_env(&config_dir, "test").unwrap();
    let dir = std::env::temp_dir().join(format!("pizza-key-app-{}", uuid::Uuid::new_v4().simple()));
    settings.server.data_dir = dir.clone();
    settings.database.url = String::new();
    settings.payment.sandbox_secret = String::new();
    let clock = actors::clock::Clock::manual(crate::helpers::MONDAY_NOON_MS);

    let first = Application::build(settings.clone(), clock.clone())
        .await
        .unwrap();
    let key = std::fs::read_to_string(dir.join("payment-sandbox-secret")).unwrap();
    assert_eq!(key.len(), 64, "32 random bytes, hex");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("payment-sandbox-secret"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // A notify signed with the kept key verifies; one signed with the tests' key does not.
    let signed = |secret: &[u8]| {
        let mut params = vec![
            ("payment_id".to_string(), "p1".to_string()),
            ("trade_no".to_string(), "T1".to_string()),
            ("status".to_string(), "paid".to_string()),
            ("amount".to_string(), "100".to_string()),
            ("at".to_string(), "1".to_string()),
        ];
        let sign = actors::providers::payment::sign_params(secret, &params);
        params.push(("sign".to_string(), sign));
        actors::providers::payment::encode_form(&params)
    };
    let provider = first.state().payments.provider();
    assert!(provider
        .verify_notify(signed(key.as_bytes()).as_bytes())
        .is_ok());
    assert!(provider
        .verify_notify(signed(b"test-sandbox-notify-key-not-for-production").as_bytes())
        .is_err());
    drop(first);
    // The next start reads the same key.
    let second = Application::build(settings.clone(), clock.clone())
        .await
        .unwrap();
    assert!(second
        .state()
        .payments
        .provider()
        .verify_notify(signed(key.as_bytes()).as_bytes())
        .is_ok());
    drop(second);

    settings.payment.allow_sandbox = false;
    let refused = Application::build(settings, clock).await.err().unwrap();
    assert!(
        format!("{refused:#}").contains("PIZZA__PAYMENT__ALLOW_SANDBOX"),
        "{refused:#}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The ledger's compare-and-sets on the suite's database (PostgreSQL with TEST_DATABASE_URL):
/// two sandbox instances (two nodes) settle one trade at once, and refund another at once.
#[tokio::test]
async fn two_nodes_settle_and_refund_a_trade_once() {
    use actors::providers::payment::{PaymentError, REFUND_REFUSED};
    use pizza_order::providers::payment::sandbox::SandboxConfig;
    use std::sync::Arc;
    let app = spawn_app().await;
    let mine = app.app_state.sandbox_payments.clone().unwrap();
    let other = Arc::new(
        SandboxPayments::new(
            SandboxConfig::default(),
            "test-sandbox-notify-key-not-for-production".into(),
            app.app_state.db.clone(),
            app.clock.clone(),
        )
        .unwrap(),
    );
    let now = app.clock.now_ms();
    for id in ["PSETTLE", "PREFUND"] {
        mine.create(&CreatePayment {
            payment_id: id.into(),
            order_no: "OTWONODES".into(),
            amount: Fen(8990),
            subject: "?".into(),
            method: PayMethod::WechatH5,
            notify_url: "http://127.0.0.1:9/n".into(),
            return_url: String::new(),
            client_ip: "203.0.113.1".into(),
            open_id: None,
            expires_at: now + 60_000,
        })
        .await
        .unwrap();
    }
    let nodes = [mine.clone(), other.clone()];
    let outcomes = [
        SettleOutcome::Success,
        SettleOutcome::Fail,
        SettleOutcome::Cancel,
    ];
    let settles: Vec<_> = (0..12)
        .map(|i| {
            let pay = nodes[i % 2].clone();
            let outcome = outcomes[i % 3];
            tokio::spawn(async move { (outcome, pay.settle("PSETTLE", outcome).await) })
        })
        .collect();
    let mut winners = std::collections::HashSet::new();
    for settle in settles {
        let (outcome, result) = settle.await.unwrap();
        if result.is_ok() {
            winners.insert(outcome);
        }
    }
    assert_eq!(winners.len(), 1, "one outcome wins: {winners:?}");

    other
        .settle("PREFUND", SettleOutcome::Success)
        .await
        .unwrap();
    let refunds: Vec<_> = (0..20)
        .map(|i| {
            let pay = nodes[i % 2].clone();
            let id = format!("r{}", i / 2);
            tokio::spawn(async move { pay.refund("PREFUND", &id, Fen(1000)).await })
        })
        .collect();
    let mut ids = std::collections::HashSet::new();
    for refund in refunds {
        match refund.await.unwrap() {
            Ok(r) => {
                ids.insert(r.refund_id);
            }
            Err(PaymentError::Rejected { code, .. }) => assert_eq!(code, REFUND_REFUSED),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(ids.len(), 8, "8 × ¥10 fit in ¥89.90, a ninth does not");
    let total: i64 =
        sqlx::query_scalar("SELECT refunded FROM sandbox_trades WHERE payment_id = 'PREFUND'")
            .fetch_one(app.app_state.db.pool())
            .await
            .unwrap();
    assert_eq!(total, 8000);
}
