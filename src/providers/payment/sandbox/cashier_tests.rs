//! The cashier: settling a trade (once) and its signed notify, where the browser goes next,
//! and the page.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::super::tests::{request, sandbox, settled_notify, Receiver, NOW};
use super::super::{cashier_not_found_page, cashier_page, PAGE_SCRIPT};
use super::*;
use actors::clock::Clock;
use actors::providers::payment::{
    parse_form, verify_params, Notify, PaymentProvider, ProviderPaymentStatus,
};
use std::time::Duration;

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
