//! The sandbox over its persisted ledger: a restart (a second instance over the same database)
//! finds every trade and resumes the notifies; concurrent settles and refunds change things
//! once; the statement reads the ledger.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::tests::{ledger_db, request, sandbox_on, settled_notify, Receiver, HALF_HOUR, NOW};
use super::*;
use actors::domain::money::Fen;
use actors::providers::payment::{
    CloseOutcome, PayMethod, PaymentProvider, ProviderPaymentStatus, StatementKind, REFUND_REFUSED,
};

fn sandbox_with_delays(db: &Db, clock: &Clock, delays: Vec<u64>) -> SandboxPayments {
    SandboxPayments::new(
        SandboxConfig {
            base_url: String::new(),
            notify_retry_delays_ms: delays,
            notify_timeout_ms: 2_000,
        },
        "test-secret-of-the-sandbox".into(),
        db.clone(),
        clock.clone(),
    )
    .unwrap()
}

async fn attempts(pay: &SandboxPayments, id: &str, at_least: u32) -> NotifyDelivery {
    for _ in 0..300 {
        if let Some(d) = pay.notify_delivery(id).await.unwrap() {
            if d.attempts >= at_least {
                return d;
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no attempt {at_least} for {id}");
}

#[actix_web::test]
async fn a_restart_loses_no_trade_and_resumes_the_notify_at_its_next_time() {
    let db = ledger_db().await;
    let clock = Clock::manual(NOW);
    // The first answer is a failure; the next attempt is due a minute later.
    let receiver = Receiver::start(vec!["fail", "success"]).await;
    let before = sandbox_with_delays(&db, &clock, vec![0, 60_000, 60_000]);
    before
        .create(&request("p1", PayMethod::AlipayWap, &receiver.url))
        .await
        .unwrap();
    before
        .create(&request("p2", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    before.settle("p1", SettleOutcome::Success).await.unwrap();
    let first = attempts(&before, "p1", 1).await;
    assert!(!first.delivered && !first.gave_up, "{first:?}");
    // The server stops (its sender is asleep for a minute) and starts again a minute later.
    clock.advance_ms(60_000);
    let after = sandbox_with_delays(&db, &clock, vec![0, 60_000, 60_000]);
    assert_eq!(after.resume_notifies(i64::MAX).await.unwrap(), 1, "p1 only");
    let delivered = settled_notify(&after, "p1").await;
    assert_eq!(
        delivered,
        NotifyDelivery {
            attempts: 2,
            delivered: true,
            gave_up: false,
            last_answer: Some("200 success".into()),
        }
    );
    assert_eq!(receiver.bodies().len(), 2, "one sender per attempt");
    // What the status page and the cashier ask is answered from the ledger.
    assert!(matches!(
        after.query("p1").await,
        Ok(ProviderPaymentStatus::Paid {
            amount: Fen(8990),
            ..
        })
    ));
    assert_eq!(after.query("p2").await, Ok(ProviderPaymentStatus::Pending));
    let cashier = after.cashier_view("p2").await.unwrap().unwrap();
    assert_eq!(
        (cashier.state, cashier.amount),
        (CashierState::Open, Fen(8990))
    );
    // A create repeated after the restart answers the same instructions.
    let again = after
        .create(&request("p2", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    let first_time = before
        .create(&request("p2", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    assert_eq!(again, first_time);
    // Nothing left to resume.
    assert_eq!(after.resume_notifies(i64::MAX).await.unwrap(), 0);
    receiver.handle.stop(false).await;
}

#[actix_web::test]
async fn a_late_notify_is_taken_over_and_a_dead_last_attempt_is_given_up() {
    let db = ledger_db().await;
    let clock = Clock::manual(NOW);
    let receiver = Receiver::start(vec!["success"]).await;
    let pay = sandbox_on(&db, &clock);
    pay.create(&request("p1", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    // A node settled it and died before its first attempt: the row says sending, due now.
    let ledger = Ledger::new(db.clone());
    assert!(ledger
        .settle("p1", SettleOutcome::Success, NOW, "payment_id=p1", NOW)
        .await
        .unwrap());
    // Not late yet: a live node leaves it to its sender.
    assert_eq!(
        pay.resume_notifies(NOW - TAKE_OVER_AFTER_MS).await.unwrap(),
        0
    );
    clock.advance_ms(TAKE_OVER_AFTER_MS + 1);
    let now = clock.now_ms();
    assert_eq!(
        pay.resume_notifies(now - TAKE_OVER_AFTER_MS).await.unwrap(),
        1
    );
    assert!(settled_notify(&pay, "p1").await.delivered);
    assert_eq!(receiver.bodies(), vec![b"payment_id=p1".to_vec()]);

    // Every attempt claimed, the last answer never recorded: given up, nothing sent.
    pay.create(&request("p2", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    assert!(ledger
        .settle("p2", SettleOutcome::Success, now, "payment_id=p2", now)
        .await
        .unwrap());
    for done in 0..5 {
        assert!(ledger.claim_attempt("p2", done, now).await.unwrap());
        assert!(
            !ledger.claim_attempt("p2", done, now).await.unwrap(),
            "one claim per attempt"
        );
    }
    assert_eq!(pay.resume_notifies(i64::MAX).await.unwrap(), 1);
    let given_up = settled_notify(&pay, "p2").await;
    assert!(given_up.gave_up && given_up.attempts == 5, "{given_up:?}");
    assert_eq!(receiver.bodies().len(), 1);
    receiver.handle.stop(false).await;
}

#[actix_web::test]
async fn concurrent_settles_settle_once() {
    let db = ledger_db().await;
    let clock = Clock::manual(NOW);
    let receiver = Receiver::start(vec!["success"]).await;
    // Two nodes over one ledger.
    let a = Arc::new(sandbox_on(&db, &clock));
    let b = Arc::new(sandbox_on(&db, &clock));
    a.create(&request("p1", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for i in 0..12 {
        let pay = if i % 2 == 0 { a.clone() } else { b.clone() };
        let outcome = [
            SettleOutcome::Success,
            SettleOutcome::Fail,
            SettleOutcome::Cancel,
        ][i % 3];
        tasks.push(tokio::spawn(async move {
            (outcome, pay.settle("p1", outcome).await)
        }));
    }
    let mut winners = std::collections::HashSet::new();
    for task in tasks {
        let (outcome, result) = task.await.unwrap();
        match result {
            Ok(_) => {
                winners.insert(outcome);
            }
            Err(e) => assert_eq!(e, SettleError::AlreadySettled),
        }
    }
    assert_eq!(winners.len(), 1, "one outcome wins: {winners:?}");
    assert!(settled_notify(&a, "p1").await.delivered);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(receiver.bodies().len(), 1, "one notify");
    receiver.handle.stop(false).await;
}

#[actix_web::test]
async fn concurrent_refunds_never_exceed_the_payment_and_a_refund_id_applies_once() {
    let db = ledger_db().await;
    let clock = Clock::manual(NOW);
    let a = Arc::new(sandbox_on(&db, &clock));
    let b = Arc::new(sandbox_on(&db, &clock));
    a.create(&request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
        .await
        .unwrap();
    a.settle("p1", SettleOutcome::Success).await.unwrap();
    // 8990 fen; twenty refunds of 1000 under ten ids, each id asked twice, on two nodes.
    let mut tasks = Vec::new();
    for i in 0..20 {
        let pay = if i % 2 == 0 { a.clone() } else { b.clone() };
        let id = format!("r{}", i / 2);
        tasks.push(tokio::spawn(async move {
            pay.refund("p1", &id, Fen(1000)).await
        }));
    }
    let mut done = std::collections::HashMap::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(r) => {
                if let Some(before) = done.insert(r.refund_id.clone(), r.clone()) {
                    assert_eq!(before, r, "the same id answers the same refund");
                }
            }
            Err(PaymentError::Rejected { code, .. }) => assert_eq!(code, REFUND_REFUSED),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(done.len(), 8, "8 × 1000 fit in 8990, a ninth does not");
    let stored = Ledger::new(db.clone()).refunds("p1").await.unwrap();
    assert_eq!(stored.len(), 8);
    assert_eq!(stored.iter().map(|r| r.amount).sum::<Fen>(), Fen(8000));
    assert_eq!(stored.last().unwrap().refunded_total, Fen(8000));
}

#[actix_web::test]
async fn the_statement_and_close_read_the_ledger() {
    let db = ledger_db().await;
    let clock = Clock::manual(NOW);
    let pay = sandbox_on(&db, &clock);
    for id in ["p1", "p2", "p3", "p4"] {
        pay.create(&request(id, PayMethod::WechatH5, "http://127.0.0.1:9/n"))
            .await
            .unwrap();
    }
    pay.settle("p1", SettleOutcome::Success).await.unwrap();
    clock.advance_ms(1_000);
    pay.settle("p2", SettleOutcome::Fail).await.unwrap();
    pay.settle("p3", SettleOutcome::Success).await.unwrap();
    clock.advance_ms(1_000);
    pay.refund("p1", "p1-refund", Fen(8990)).await.unwrap();
    assert_eq!(pay.close("p4").await, Ok(CloseOutcome::Closed));
    assert_eq!(
        pay.close("p4").await,
        Ok(CloseOutcome::Closed),
        "idempotent"
    );
    assert!(matches!(
        pay.close("p3").await,
        Ok(CloseOutcome::Paid {
            amount: Fen(8990),
            ..
        })
    ));
    assert_eq!(
        pay.settle("p4", SettleOutcome::Success).await,
        Err(SettleError::Expired),
        "a closed trade cannot be paid"
    );
    let lines = pay.statement(NOW, NOW + HALF_HOUR).await.unwrap();
    let summary: Vec<(StatementKind, &str, i64)> = lines
        .iter()
        .map(|l| (l.kind, l.payment_id.as_str(), l.at - NOW))
        .collect();
    assert_eq!(
        summary,
        vec![
            (StatementKind::Payment, "p1", 0),
            (StatementKind::Payment, "p3", 1_000),
            (StatementKind::Refund, "p1", 2_000),
        ]
    );
    assert_eq!(lines[2].refund_id.as_deref(), Some("p1-refund"));
    assert!(pay
        .statement(NOW + 1, NOW + 1_000)
        .await
        .unwrap()
        .is_empty());
}
