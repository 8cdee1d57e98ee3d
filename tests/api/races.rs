#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Limits under concurrency: requests fired at once must not all pass a check made before
//! any of them wrote (the send limits, the address cap, the wrong-password lock).

use crate::addresses::form;
use crate::helpers::{spawn_app, TestApp, PASSWORD};
use serde_json::{json, Value};
use tokio::task::JoinSet;

/// Fires `n` POSTs at once and answers their (HTTP status, errCode) pairs.
async fn at_once(
    app: &TestApp,
    n: usize,
    path: &str,
    body: Value,
    token: Option<&str>,
    forwarded_for: impl Fn(usize) -> String,
) -> Vec<(u16, String)> {
    let mut set = JoinSet::new();
    for i in 0..n {
        let mut req = app
            .client
            .post(format!("{}{}", app.address, path))
            .header("X-Forwarded-For", forwarded_for(i))
            .json(&body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        set.spawn(async move {
            let res = req.send().await.expect("request");
            let status = res.status().as_u16();
            let body: Value = res.json().await.expect("json body");
            (status, body["errCode"].as_str().unwrap_or("").to_string())
        });
    }
    let mut answers = Vec::new();
    while let Some(answer) = set.join_next().await {
        answers.push(answer.expect("task"));
    }
    answers
}

fn count(answers: &[(u16, String)], status: u16, code: &str) -> usize {
    answers
        .iter()
        .filter(|(s, c)| *s == status && c == code)
        .count()
}

#[tokio::test]
async fn ten_codes_at_once_for_one_phone_send_one() {
    let app = spawn_app().await;
    let phone = "13912345671";
    let answers = at_once(
        &app,
        10,
        "/api/v1/auth/sms-code",
        json!({"cellPhone": phone, "scene": "login"}),
        None,
        // A client address each: the phone's own lock must hold the line.
        |i| format!("198.51.100.{i}"),
    )
    .await;
    assert_eq!(count(&answers, 200, "00"), 1, "{answers:?}");
    assert_eq!(count(&answers, 429, "429"), 9, "{answers:?}");
    assert_eq!(app.outbox(phone).await.len(), 1);
}

#[tokio::test]
async fn thirty_addresses_at_once_stop_at_twenty() {
    let app = spawn_app().await;
    let token = app.register("13512345671").await;
    for n in 0..15 {
        app.post(
            "/api/v1/addresses",
            &form(&format!("上海市黄浦区西藏中路{n}号")),
            Some(&token),
        )
        .await
        .assert_ok();
    }
    let answers = at_once(
        &app,
        30,
        "/api/v1/addresses",
        form("上海市黄浦区南京东路1号"),
        Some(&token),
        |_| "198.51.100.72".to_string(),
    )
    .await;
    assert_eq!(count(&answers, 200, "00"), 5, "{answers:?}");
    assert_eq!(count(&answers, 400, "400"), 25, "{answers:?}");
    let listed = app.get_auth("/api/v1/addresses", Some(&token)).await;
    assert_eq!(listed.assert_ok().as_array().unwrap().len(), 20);
}

#[tokio::test]
async fn ten_wrong_passwords_at_once_from_one_address_get_five_tries() {
    let app = spawn_app().await;
    let phone = "13912345673";
    app.register(phone).await;
    let answers = at_once(
        &app,
        10,
        "/api/v1/auth/login",
        json!({"cellPhone": phone, "password": "Wrong12345"}),
        None,
        |_| "203.0.113.5".to_string(),
    )
    .await;
    assert_eq!(count(&answers, 400, "400"), 5, "{answers:?}");
    assert_eq!(count(&answers, 429, "429"), 5, "{answers:?}");
    let locked = app
        .call(
            reqwest::Method::POST,
            "/api/v1/auth/login",
            Some(&json!({"cellPhone": phone, "password": PASSWORD})),
            None,
            &[("X-Forwarded-For", "203.0.113.5")],
        )
        .await;
    locked.assert_error(429, "429");
    // Another address is not locked by them.
    app.login(phone, PASSWORD).await.assert_ok();
}

#[tokio::test]
async fn thirty_wrong_passwords_at_once_from_thirty_addresses_get_twenty_tries() {
    let app = spawn_app().await;
    let phone = "13912345674";
    app.register(phone).await;
    let answers = at_once(
        &app,
        30,
        "/api/v1/auth/login",
        json!({"cellPhone": phone, "password": "Wrong12345"}),
        None,
        |i| format!("198.51.100.{}", 100 + i),
    )
    .await;
    assert_eq!(count(&answers, 400, "400"), 20, "{answers:?}");
    assert_eq!(count(&answers, 429, "429"), 10, "{answers:?}");
    app.login(phone, PASSWORD).await.assert_error(429, "429");
}

#[tokio::test]
async fn forty_wrong_pins_at_once_for_one_store_get_thirty_tries() {
    let app = spawn_app().await;
    let answers = at_once(
        &app,
        40,
        "/api/v1/tablet/login",
        json!({"storeCode": "SH003", "staffCode": "manager", "pin": "000000"}),
        None,
        |i| format!("198.51.100.{}", 10 + i),
    )
    .await;
    assert_eq!(count(&answers, 400, "400"), 30, "{answers:?}");
    assert_eq!(count(&answers, 429, "429"), 10, "{answers:?}");
}

/// Two nodes, each with its own session for the same cart, writing to one database: the
/// version check makes the loser read again and re-apply, so no add is lost.
#[tokio::test]
async fn two_nodes_writing_one_cart_lose_nothing() {
    use actors::carts::{CartKey, CartRegistry, Mutation};
    use actors::db::carts::CartRepo;
    use actors::db::orders::OrderRepo;
    use actors::domain::cart::item::Selection;
    use actors::domain::cart::Cart;
    use std::sync::Arc;

    let app = crate::helpers::spawn_app().await;
    let state = &app.app_state;
    let node = || {
        Arc::new(CartRegistry::new(
            CartRepo::new(state.db.clone()),
            OrderRepo::new(state.db.clone()),
            state.bus.clone(),
            state.clock.clone(),
            actors::actor_thread::start().unwrap(),
        ))
    };
    let (a, b) = (node(), node());
    let key = CartKey::Visitor("c_0123456789abcdef0123456789abcdef".into());
    let add: Mutation = Arc::new(|cart: &mut Cart| {
        cart.add("SD002", Selection::default(), 1, 1, "line".into(), 0)?;
        Ok(true)
    });
    let mut calls = Vec::new();
    for i in 0..40 {
        let (node, key, add) = (
            if i % 2 == 0 { a.clone() } else { b.clone() },
            key.clone(),
            add.clone(),
        );
        calls.push(tokio::spawn(async move {
            node.update(&key, add).await.map(|_| ())
        }));
    }
    let mut contended = 0;
    for call in calls {
        match call.await.unwrap() {
            Ok(()) => {}
            // Five rounds of losing to the other node in a row: the caller is told to retry.
            Err(actors::carts::CartFailure::Contended) => contended += 1,
            Err(e) => panic!("{e}"),
        }
    }
    let stored = a.read(&key).await.unwrap();
    assert_eq!(
        stored.cart.lines[0].quantity + contended,
        40,
        "every add is either stored or refused"
    );
    assert_eq!(stored.version as u32, stored.cart.lines[0].quantity);
}
