#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Payments through the sandbox provider, its signed notifies (replayed, concurrent, forged,
//! wrong amount), the 30-minute expiry, and the tablet moving a paid order, refusing with a
//! refund, and staying inside its store.

use crate::cart::{add, cart_call, Auth};
use crate::helpers::{demo, spawn_app, Answer, Attempt, PaidOrder, TestApp};
use actors::bus::{Event, PaymentOutcome};
use actors::db::DbError;
use actors::domain::payments::state::PaymentState;
use actors::providers::payment::{encode_form, sign_params};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

const SANDBOX_SECRET: &[u8] = b"test-sandbox-notify-key-not-for-production";

/// A registered customer with an unpaid delivery order from the flagship: (token, orderNo).
pub async fn unpaid_order(app: &TestApp, phone: &str) -> (String, String) {
    let (token, body) =
        ready_to_submit(app, phone, json!([{"productCode": "SD001", "quantity": 4}])).await;
    let order = app.post("/api/v1/orders", &body, Some(&token)).await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
    (token, order_no)
}

/// A registered customer with `items` in a delivery cart at the flagship, to an address of
/// theirs: (token, the submit body with the amounts the customer sees).
pub async fn ready_to_submit(app: &TestApp, phone: &str, items: Value) -> (String, Value) {
    let token = app.register(phone).await;
    let sh001 = demo()
        .stores
        .into_iter()
        .find(|s| s.store_code == "SH001")
        .unwrap();
    let address = json!({"name": "张三", "phone": "13812345678", "baseAddress": "上海市黄浦区西藏中路236号",
        "houseNumber": "5楼501", "lat": format!("{:.6}", sh001.lat), "lng": format!("{:.6}", sh001.lng), "cityName": "上海市"});
    let address = app
        .post("/api/v1/addresses", &address, Some(&token))
        .await
        .assert_ok()["id"]
        .as_i64()
        .unwrap();
    add(app, Auth::User(&token), items).await;
    app.clock.advance_ms(1_000);
    let cart = cart_call(
        app,
        Method::POST,
        "/api/v1/orders/reservation",
        Some(&json!({"orderType": 0, "storeCode": "SH001"})),
        Auth::User(&token),
    )
    .await;
    let cart = cart.assert_ok().clone();
    let body = json!({
        "orderType": 0, "consignAddressId": address, "paymentType": "online", "tableware": 1,
        "orderProductAmount": cart["priceOfProduct"], "activityAmount": cart["discountAmount"],
        "freightAmount": cart["deliveryFeeAfterPE"], "orderAmount": cart["orderAmount"],
    });
    (token, body)
}

pub async fn create_payment(app: &TestApp, token: &str, order_no: &str) -> Value {
    app.post(
        "/api/v1/payments",
        &json!({"orderNo": order_no, "method": "alipay_wap"}),
        Some(token),
    )
    .await
    .assert_ok()
    .clone()
}

pub async fn order(app: &TestApp, token: &str, order_no: &str) -> Value {
    app.get_auth(&format!("/api/v1/orders/{order_no}"), Some(token))
        .await
        .assert_ok()
        .clone()
}

/// Waits (real time: the sandbox notifies in the background) until the order reaches `state`.
pub async fn until_state(app: &TestApp, token: &str, order_no: &str, state: u64) -> Value {
    for _ in 0..100 {
        let o = order(app, token, order_no).await;
        if o["state"] == state {
            return o;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "order {order_no} never reached state {state}: {}",
        order(app, token, order_no).await
    );
}

/// The provider's trade number of an attempt, as it answered at create.
async fn trade_no_of(app: &TestApp, payment_id: &str) -> String {
    let row = app.app_state.payments.repo().get(payment_id).await.unwrap();
    row.unwrap().provider_trade_no.unwrap()
}

pub async fn pay_at_cashier(app: &TestApp, payment_id: &str, outcome: &str) -> Answer {
    app.post(
        &format!("/sandbox/api/pay/{payment_id}"),
        &json!({"outcome": outcome}),
        None,
    )
    .await
}

fn notify_body(payment_id: &str, trade_no: &str, amount_fen: i64, status: &str) -> String {
    let mut params = vec![
        ("payment_id".to_string(), payment_id.to_string()),
        ("trade_no".to_string(), trade_no.to_string()),
        ("status".to_string(), status.to_string()),
        ("amount".to_string(), amount_fen.to_string()),
        ("at".to_string(), "1795406400000".to_string()),
    ];
    let sign = sign_params(SANDBOX_SECRET, &params);
    params.push(("sign".to_string(), sign));
    encode_form(&params)
}

async fn post_notify(app: &TestApp, body: String) -> (u16, String) {
    let res = app
        .client
        .post(format!("{}/api/v1/payments/notify/sandbox", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

#[tokio::test]
async fn paying_at_the_cashier_pays_the_order_and_it_reaches_the_store() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512370001").await;
    let created = create_payment(&app, &token, &order_no).await;
    let payment_id = created["paymentId"].as_str().unwrap().to_string();
    // The Alipay web flow answers a form that takes the browser to the cashier.
    assert!(created["html"]
        .as_str()
        .unwrap()
        .contains(&format!("/sandbox/cashier/{payment_id}")));
    assert_eq!(
        created["payAmount"],
        order(&app, &token, &order_no).await["orderAmount"]
    );
    let record = app
        .get_auth("/api/v1/payments/in-progress", Some(&token))
        .await;
    assert_eq!(record.assert_ok()["orderNo"], order_no.as_str());
    let cashier = app
        .client
        .get(format!("{}/sandbox/cashier/{payment_id}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(cashier.status(), 200);
    assert!(cashier.text().await.unwrap().contains(&order_no));

    let paid = pay_at_cashier(&app, &payment_id, "success").await;
    assert!(paid.body["returnUrl"]
        .as_str()
        .unwrap()
        .starts_with(&format!("/order/status?orderNo={order_no}")));
    let o = until_state(&app, &token, &order_no, 6).await;
    assert_eq!(
        (o["progress"].as_u64(), o["stateLabel"].as_str()),
        (Some(0), Some("已支付"))
    );
    assert_eq!(o["paidAmount"], o["orderAmount"]);
    assert_eq!(o["payment"]["state"], "paid");
    let record = app
        .get_auth("/api/v1/payments/in-progress", Some(&token))
        .await;
    assert_eq!(
        record.assert_ok(),
        &Value::Null,
        "no payment in progress any more"
    );

    // The store's tablet sees it, accepts it and takes it through every stage.
    let staff = tablet_login(&app, "SH001").await;
    let queue = app
        .get_auth("/api/v1/tablet/orders?scope=active", Some(&staff))
        .await;
    let queue = queue.assert_ok().as_array().unwrap().clone();
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0]["orderNo"], order_no.as_str());
    assert_eq!(queue[0]["lines"][0]["quantity"], 4);
    tablet(&app, &staff, &order_no, "accept", json!({}))
        .await
        .assert_ok();
    for from in [1, 10, 20, 30, 40] {
        let moved = tablet(&app, &staff, &order_no, "advance", json!({"from": from})).await;
        moved.assert_ok();
    }
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["progress"].as_u64()),
        (Some(8), Some(50))
    );
    let seqs: Vec<i64> = o["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(
        seqs,
        (1..=8).collect::<Vec<_>>(),
        "created, paid, accepted and five moves: one row each"
    );
    assert!(o["steps"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["done"] == true && s["at"].is_i64()));
    // A stale tap changes nothing.
    tablet(&app, &staff, &order_no, "advance", json!({"from": 40}))
        .await
        .assert_error(409, "409");
    // Comment once the order is done.
    let c = app
        .post(
            &format!("/api/v1/orders/{order_no}/comment"),
            &json!({"rating": 5, "text": "好吃"}),
            Some(&token),
        )
        .await;
    c.assert_ok();
    let again = app
        .post(
            &format!("/api/v1/orders/{order_no}/comment"),
            &json!({"rating": 4}),
            Some(&token),
        )
        .await;
    again.assert_error(409, "409");
}

pub async fn tablet_login(app: &TestApp, store: &str) -> String {
    let login = app
        .post(
            "/api/v1/tablet/login",
            &json!({"storeCode": store, "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    login.assert_ok()["token"].as_str().unwrap().to_string()
}

async fn tablet(app: &TestApp, staff: &str, order_no: &str, action: &str, body: Value) -> Answer {
    app.post(
        &format!("/api/v1/tablet/orders/{order_no}/{action}"),
        &body,
        Some(staff),
    )
    .await
}

#[tokio::test]
async fn a_failed_or_cancelled_payment_can_be_paid_again() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512370002").await;
    let first = create_payment(&app, &token, &order_no).await;
    let back = pay_at_cashier(&app, first["paymentId"].as_str().unwrap(), "fail").await;
    assert!(back.body["returnUrl"]
        .as_str()
        .unwrap()
        .contains("customestatus=1"));
    let o = until_state(&app, &token, &order_no, 4).await;
    assert_eq!(o["stateLabel"], "支付失败");
    let second = create_payment(&app, &token, &order_no).await;
    let back = pay_at_cashier(&app, second["paymentId"].as_str().unwrap(), "cancel").await;
    assert!(back.body["returnUrl"]
        .as_str()
        .unwrap()
        .contains("customestatus=1"));
    let third_id = &app.pay(&token, &order_no).await.payment_id;
    let status = app
        .get_auth(&format!("/api/v1/payments/{third_id}"), Some(&token))
        .await;
    assert_eq!(status.assert_ok()["state"], "paid");
    // Paid: no further attempt.
    let refused = app
        .post(
            "/api/v1/payments",
            &json!({"orderNo": order_no, "method": "alipay_wap"}),
            Some(&token),
        )
        .await;
    refused.assert_error(409, "409");
}

#[tokio::test]
async fn a_notify_applies_once_however_often_it_comes() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512370003").await;
    let created = create_payment(&app, &token, &order_no).await;
    let payment_id = created["paymentId"].as_str().unwrap().to_string();
    let amount = (created["payAmount"].as_f64().unwrap() * 100.0).round() as i64;
    let trade_no = trade_no_of(&app, &payment_id).await;
    let mut events = app.app_state.bus.subscribe();

    // A forged notify, one for a payment we never issued, and one the provider does not
    // confirm (not paid yet) change nothing.
    let mut forged = notify_body(&payment_id, &trade_no, amount, "paid");
    forged = forged.replace("sign=", "sign=00");
    assert_eq!(post_notify(&app, forged).await.0, 400);
    let unknown = post_notify(
        &app,
        notify_body("P0123456789abcdef01234567", &trade_no, amount, "paid"),
    )
    .await;
    assert_eq!(unknown, (400, "fail: unknown payment".to_string()));
    let early = post_notify(&app, notify_body(&payment_id, &trade_no, amount, "paid")).await;
    assert_eq!(
        early,
        (409, "fail: not confirmed by the provider".to_string())
    );
    assert_eq!(order(&app, &token, &order_no).await["state"], 5);

    // Paid at the provider (its own notify races ours below); a notify with another amount
    // or trade number than the provider answers is not confirmed.
    assert!(pay_at_cashier(&app, &payment_id, "success").await.body["returnUrl"].is_string());
    for body in [
        notify_body(&payment_id, &trade_no, amount - 1, "paid"),
        notify_body(&payment_id, "T999", amount, "paid"),
    ] {
        assert_eq!(post_notify(&app, body).await.0, 409);
    }

    // Ten at once, then sixteen replays.
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let (client, url, body) = (
            app.client.clone(),
            format!("{}/api/v1/payments/notify/sandbox", app.address),
            notify_body(&payment_id, &trade_no, amount, "paid"),
        );
        tasks.spawn(async move {
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
    while let Some(done) = tasks.join_next().await {
        assert_eq!(done.unwrap(), (200, "success".to_string()));
    }
    for _ in 0..16 {
        assert_eq!(
            post_notify(&app, notify_body(&payment_id, &trade_no, amount, "paid")).await,
            (200, "success".to_string())
        );
    }
    let o = order(&app, &token, &order_no).await;
    assert_eq!(o["state"], 6);
    let paid_rows = o["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["state"] == 6)
        .count();
    assert_eq!(paid_rows, 1, "one state change");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut results = 0;
    let mut progress = 0;
    while let Ok(event) = events.try_recv() {
        match event {
            Event::PaymentResult {
                result: PaymentOutcome::Paid,
                ..
            } => results += 1,
            Event::OrderProgress { state: 6, .. } => progress += 1,
            _ => {}
        }
    }
    assert_eq!((results, progress), (1, 1), "one event each");
}

#[tokio::test]
async fn an_unpaid_order_is_cancelled_after_thirty_minutes() {
    let app = spawn_app().await;
    let Attempt {
        token,
        order_no,
        payment_id,
    } = app.order_with_attempt("13512370004").await;
    app.clock.advance_ms(29 * 60_000);
    app.app_state.payments.expire_due().await.unwrap();
    assert_eq!(
        order(&app, &token, &order_no).await["state"],
        5,
        "29 minutes: still payable"
    );
    app.clock.advance_ms(61_000);
    app.app_state.payments.expire_due().await.unwrap();
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["stateLabel"].as_str()),
        (Some(9), Some("已取消"))
    );
    let p = app
        .get_auth(&format!("/api/v1/payments/{payment_id}"), Some(&token))
        .await;
    assert_eq!(p.assert_ok()["state"], "closed");
    // Paying the closed attempt now is refused at the cashier.
    pay_at_cashier(&app, &payment_id, "success")
        .await
        .assert_error(409, "409");
}

#[tokio::test]
async fn refusing_a_paid_order_refunds_it_and_tablets_stay_in_their_store() {
    let app = spawn_app().await;
    let PaidOrder {
        token, order_no, ..
    } = app.paid_order("13512370005").await;

    // Another store's manager can neither see nor move it; a customer token is no staff token.
    let other = tablet_login(&app, "SH002").await;
    let queue = app.get_auth("/api/v1/tablet/orders", Some(&other)).await;
    assert_eq!(queue.assert_ok(), &json!([]));
    tablet(&app, &other, &order_no, "accept", json!({}))
        .await
        .assert_error(403, "403");
    tablet(&app, &token, &order_no, "accept", json!({}))
        .await
        .assert_error(401, "407");
    assert_eq!(
        order(&app, &token, &order_no).await["state"],
        6,
        "nothing changed"
    );

    let staff = tablet_login(&app, "SH001").await;
    tablet(&app, &staff, &order_no, "refuse", json!({"reason": " "}))
        .await
        .assert_error(409, "409");
    let refused = tablet(
        &app,
        &staff,
        &order_no,
        "refuse",
        json!({"reason": "原料不足"}),
    )
    .await;
    assert_eq!(refused.assert_ok()["refund"], "refunded");
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["progress"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(o["payment"]["state"], "refunded");
    assert_eq!(
        o["history"].as_array().unwrap().last().unwrap()["note"],
        "原料不足"
    );
}

#[tokio::test]
async fn the_customer_cancels_before_acceptance_and_a_paid_order_is_refunded() {
    let app = spawn_app().await;
    let PaidOrder {
        token, order_no, ..
    } = app.paid_order("13512370006").await;
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
            cancelled["canCancel"].as_bool()
        ),
        (Some(3), Some(false))
    );
    assert_eq!(cancelled["payment"]["state"], "refunded");

    // After acceptance it is too late.
    let PaidOrder {
        token: token2,
        order_no: order2,
        ..
    } = app.paid_order("13512370007").await;
    let staff = tablet_login(&app, "SH001").await;
    tablet(&app, &staff, &order2, "accept", json!({}))
        .await
        .assert_ok();
    let late = app
        .post(
            &format!("/api/v1/orders/{order2}/cancel"),
            &json!({}),
            Some(&token2),
        )
        .await;
    late.assert_error(409, "409");
}

#[tokio::test]
async fn anyone_with_the_view_token_can_follow_an_order() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512370008").await;
    let view = order(&app, &token, &order_no).await["viewToken"]
        .as_str()
        .unwrap()
        .to_string();
    let shared = app
        .get(&format!("/api/v1/orders/{order_no}?viewToken={view}"))
        .await;
    assert_eq!(shared.assert_ok()["orderNo"], order_no.as_str());
    let wrong = app
        .get(&format!(
            "/api/v1/orders/{order_no}?viewToken={}",
            "0".repeat(32)
        ))
        .await;
    wrong.assert_error(404, "404");
}

#[tokio::test]
async fn a_refused_refund_tells_the_customer_to_call_the_store_and_can_be_retried() {
    let app = spawn_app().await;
    let PaidOrder {
        token, order_no, ..
    } = app.paid_order("13512370009").await;
    let sandbox = app.app_state.sandbox_payments.as_ref().unwrap();
    sandbox.fail_next_refund(actors::providers::payment::PaymentError::rejected(
        "01",
        "余额不足",
    ));
    let cancelled = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    cancelled.assert_error(502, "01");
    assert_eq!(cancelled.err_msg(), "退券失败，请联系客服");
    assert_eq!(
        cancelled.data()["storeTel"],
        demo()
            .stores
            .iter()
            .find(|s| s.store_code == "SH001")
            .unwrap()
            .store_tel
            .as_str()
    );
    let o = order(&app, &token, &order_no).await;
    assert_eq!(
        (o["state"].as_u64(), o["payment"]["state"].as_str()),
        (Some(3), Some("refunding")),
        "cancelled, the refund owed"
    );
    assert_eq!(o["payment"]["refundReason"], "订单已取消");
    let retried = app
        .post(
            &format!("/api/v1/orders/{order_no}/refund"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(retried.assert_ok()["payment"]["state"], "refunded");
}

/// A payment's state is parsed once, as the repository reads the row: a value no
/// [`PaymentState`] stores is an error, never a guess.
#[tokio::test]
async fn a_stored_state_that_names_no_payment_state_is_a_read_error() {
    let app = spawn_app().await;
    let Attempt {
        order_no,
        payment_id,
        ..
    } = app.order_with_attempt("13512370010").await;
    let payment_id = payment_id.as_str();
    let repo = app.app_state.payments.repo();
    let row = repo.get(payment_id).await.unwrap().unwrap();
    assert_eq!(row.state, PaymentState::Pending);
    sqlx::query("UPDATE payments SET state = 'Pending' WHERE payment_id = $1")
        .bind(payment_id)
        .execute(app.app_state.db.pool())
        .await
        .unwrap();
    let err = repo.get(payment_id).await.unwrap_err();
    assert!(
        matches!(&err, DbError::Conflict(what) if what == "payment state Pending"),
        "{err}"
    );
    assert!(repo.for_order(&order_no).await.is_err());
}
