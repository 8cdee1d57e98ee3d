#![allow(clippy::unwrap_used, clippy::expect_used)]
//! One settlement per order and expiry that asks first (issue 20), through the API and the
//! sandbox: the reported defect (the later attempt paid first, then the earlier one), expiry of
//! an attempt paid at the provider, a provider that cannot answer at expiry, a refund owed.
//! Every interleaving is the model test's (`payment_model`).

use crate::helpers::{spawn_app, Attempt, PaidOrder};
use crate::payments::{order, pay_at_cashier, tablet_login, until_state};
use actors::domain::payments::settlement::REFUND_RETRY_FIRST_MS;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

/// The reported defect: the later attempt paid first, then the earlier one. The first to settle
/// keeps the money; the other is refunded automatically and shown so, with its reason.
#[tokio::test]
async fn the_earlier_attempt_paid_last_is_refunded_as_a_duplicate() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id: first,
    } = app.order_with_attempt("13512370010").await;
    // A minute later the customer switches method.
    app.clock.advance_ms(60_000);
    let second = app.attempt_with(&token, &order_no, "wechat_h5").await;
    assert!(pay_at_cashier(&app, &second, "success").await.body["returnUrl"].is_string());
    until_state(&app, &token, &order_no, 6).await;
    assert!(pay_at_cashier(&app, &first, "success").await.body["returnUrl"].is_string());
    let mut shown = Value::Null;
    for _ in 0..100 {
        shown = app
            .get_auth(&format!("/api/v1/payments/{first}"), Some(&token))
            .await
            .assert_ok()
            .clone();
        if shown["state"] == "refunded" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        (shown["state"].as_str(), shown["refundReason"].as_str()),
        (Some("refunded"), Some("重复支付"))
    );
    let en = app
        .call(
            Method::GET,
            &format!("/api/v1/payments/{first}"),
            None,
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    assert_eq!(en.assert_ok()["refundReason"], "Duplicate payment");

    let o = order(&app, &token, &order_no).await;
    assert_eq!(o["state"], 6);
    assert_eq!(o["paidAmount"], o["orderAmount"], "counted once");
    assert_eq!(
        (
            o["payment"]["paymentId"].as_str(),
            o["payment"]["state"].as_str()
        ),
        (Some(second.as_str()), Some("paid"))
    );
    let attempts: Vec<(String, String, Value)> = o["payments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["paymentId"].as_str().unwrap().to_string(),
                p["state"].as_str().unwrap().to_string(),
                p["refundReason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        attempts,
        vec![
            (first.clone(), "refunded".into(), json!("重复支付")),
            (second.clone(), "paid".into(), Value::Null),
        ]
    );
    // The provider gave the first attempt's money back, once.
    let statement = app
        .app_state
        .payments
        .provider()
        .statement(0, i64::MAX)
        .await
        .unwrap();
    let refunds: Vec<&str> = statement
        .iter()
        .filter(|l| l.kind == actors::providers::payment::StatementKind::Refund)
        .map(|l| l.payment_id.as_str())
        .collect();
    assert_eq!(refunds, vec![first.as_str()]);
}

/// At 30 minutes expiry asks the provider first: an attempt paid there (its notify not through
/// yet) settles the order instead of cancelling it.
#[tokio::test]
async fn expiry_settles_an_attempt_paid_at_the_provider() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id,
    } = app.order_with_attempt("13512370011").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    // The notify never reaches us (lost on the way): only expiry's question can find the
    // payment. (Failing the notify's confirmation query instead raced expiry's own query for
    // the one injected fault.)
    sandbox.lose_next_notify();
    assert!(pay_at_cashier(&app, &payment_id, "success").await.body["returnUrl"].is_string());
    assert!(sandbox
        .notify_delivery(&payment_id)
        .await
        .unwrap()
        .is_some_and(|d| d.attempts == 0 && d.gave_up));
    assert_eq!(
        order(&app, &token, &order_no).await["state"],
        5,
        "not told yet"
    );
    app.clock.advance_ms(31 * 60_000);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 1);
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["payment"]["state"].as_str()),
        (Some(6), Some("paid")),
        "settled, not cancelled"
    );
    assert_eq!(o["paidAmount"], o["orderAmount"]);
}

/// A provider that cannot be reached at expiry: nothing is cancelled on a guess; the next run
/// asks again, closes the attempt at the provider, then cancels the order.
#[tokio::test]
async fn expiry_never_cancels_while_the_provider_cannot_answer() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id,
    } = app.order_with_attempt("13512370012").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    sandbox.fail_next_query(actors::providers::payment::PaymentError::Unavailable(
        "down".into(),
    ));
    app.clock.advance_ms(31 * 60_000);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 0);
    assert_eq!(order(&app, &token, &order_no).await["state"], 5);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 1);
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["payment"]["state"].as_str()),
        (Some(9), Some("closed"))
    );
    pay_at_cashier(&app, &payment_id, "success")
        .await
        .assert_error(409, "409");
}

/// A refund the provider cannot make now is owed (the row says refunding, with its reason)
/// and the housekeeping pass makes it later with the same refund id.
#[tokio::test]
async fn a_refund_the_provider_cannot_make_now_is_owed_and_retried() {
    let app = spawn_app().await;
    let PaidOrder {
        token,
        order_no,
        payment_id,
        ..
    } = app.paid_order("13512370013").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    sandbox.fail_next_refund(actors::providers::payment::PaymentError::Unavailable(
        "down".into(),
    ));
    let cancelled = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    let cancelled = cancelled.assert_ok();
    assert_eq!(
        (
            cancelled["state"].as_u64(),
            cancelled["payment"]["state"].as_str()
        ),
        (Some(3), Some("refunding"))
    );
    // The provider just failed it: the next pass waits the first retry delay out.
    app.clock.advance_ms(REFUND_RETRY_FIRST_MS - 1);
    app.app_state.payments.expire_due().await.unwrap();
    let still = app
        .get_auth(&format!("/api/v1/payments/{payment_id}"), Some(&token))
        .await;
    assert_eq!(still.assert_ok()["state"], "refunding");
    app.clock.advance_ms(1);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 0);
    let p = app
        .get_auth(&format!("/api/v1/payments/{payment_id}"), Some(&token))
        .await;
    assert_eq!(
        (
            p.assert_ok()["state"].as_str(),
            p.assert_ok()["refundReason"].as_str()
        ),
        (Some("refunded"), Some("订单已取消"))
    );
}

/// The customer cancels an unpaid order while two cashier tabs are still open, one of them
/// already paid at the provider (its notify lost). Cancelling closes what can still be paid:
/// the paid one is refunded as cancelled, the other closed at the provider (its cashier takes
/// no money any more), and the order keeps nothing.
#[tokio::test]
async fn cancelling_an_unpaid_order_closes_its_open_attempts() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id: paid,
    } = app.order_with_attempt("13512370014").await;
    let open = app.attempt_with(&token, &order_no, "wechat_h5").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    sandbox.lose_next_notify();
    assert!(pay_at_cashier(&app, &paid, "success").await.body["returnUrl"].is_string());
    assert_eq!(order(&app, &token, &order_no).await["state"], 5, "not told");

    let cancelled = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(cancelled.assert_ok()["state"], 3);
    let p = payment_in(&app, &token, &paid, "zh").await;
    assert_eq!(
        (p["state"].as_str(), p["refundReason"].as_str()),
        (Some("refunded"), Some("订单已取消"))
    );
    let o = payment_in(&app, &token, &open, "en").await;
    assert_eq!(
        (o["state"].as_str(), o["failReason"].as_str()),
        (
            Some("closed"),
            Some("The order was cancelled; this payment is closed")
        )
    );
    // The tab left open takes no money for the cancelled order, and says so.
    let refused = pay_at_cashier(&app, &open, "success").await;
    refused.assert_error(409, "409");
    assert_eq!(refused.body["errMsg"], "该支付已关闭，无法支付");
    let detail = order(&app, &token, &order_no).await;
    assert_eq!(detail["paidAmount"], 0.0);
    assert!(detail["payments"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["state"] == "refunded" || p["state"] == "closed"));
    // Expiry later finds nothing open.
    app.clock.advance_ms(31 * 60_000);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 0);
}

/// A provider that cannot answer when the order is cancelled: the cancel still goes through,
/// and the attempt is left to its expiry, which closes it (never guessing it unpaid).
#[tokio::test]
async fn a_cancel_while_the_provider_is_down_leaves_the_attempt_to_expiry() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id: id,
    } = app.order_with_attempt("13512370015").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    sandbox.fail_next_query(actors::providers::payment::PaymentError::Unavailable(
        "down".into(),
    ));
    let cancelled = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    let cancelled = cancelled.assert_ok();
    assert_eq!(
        (
            cancelled["state"].as_u64(),
            cancelled["payment"]["state"].as_str()
        ),
        (Some(3), Some("pending"))
    );
    app.clock.advance_ms(31 * 60_000);
    assert_eq!(app.app_state.payments.expire_due().await.unwrap(), 1);
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["payment"]["state"].as_str()),
        (Some(3), Some("closed"))
    );
    pay_at_cashier(&app, &id, "success")
        .await
        .assert_error(409, "409");
}

async fn payment_in(app: &crate::helpers::TestApp, token: &str, id: &str, lang: &str) -> Value {
    app.call(
        Method::GET,
        &format!("/api/v1/payments/{id}"),
        None,
        Some(token),
        &[("Accept-Language", lang)],
    )
    .await
    .assert_ok()
    .clone()
}

/// The store refuses a paid order while a second cashier tab is still open: the paid attempt
/// is refunded as refused, the open one closed at the provider, so it takes no money either.
#[tokio::test]
async fn a_refused_order_closes_its_open_attempts() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id: paid,
    } = app.order_with_attempt("13512370016").await;
    let open = app.attempt_with(&token, &order_no, "wechat_h5").await;
    assert!(pay_at_cashier(&app, &paid, "success").await.body["returnUrl"].is_string());
    until_state(&app, &token, &order_no, 6).await;
    let store = order(&app, &token, &order_no).await["storeCode"]
        .as_str()
        .unwrap()
        .to_string();
    let staff = tablet_login(&app, &store).await;
    app.post(
        &format!("/api/v1/tablet/orders/{order_no}/refuse"),
        &json!({"reason": "太忙"}),
        Some(&staff),
    )
    .await
    .assert_ok();
    let p = payment_in(&app, &token, &paid, "en").await;
    assert_eq!(
        (p["state"].as_str(), p["refundReason"].as_str()),
        (Some("refunded"), Some("Refused by the store"))
    );
    assert_eq!(
        payment_in(&app, &token, &open, "zh").await["state"],
        "closed"
    );
    pay_at_cashier(&app, &open, "success")
        .await
        .assert_error(409, "409");
    // The order page: the store's reason, the refund's state, when it was paid and how.
    let detail = order(&app, &token, &order_no).await;
    assert_eq!(detail["refusalReason"], "太忙");
    assert_eq!(detail["payment"]["paymentId"], paid.as_str());
    assert_eq!(detail["payment"]["refundState"], "refunded");
    assert!(
        detail["paidAt"].as_i64().is_some_and(|at| at > 0),
        "{detail}"
    );
    assert_eq!(detail["contactless"], false);
}
