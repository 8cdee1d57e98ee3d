#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Payments under load (issue 34, items 4 and 5), on one node and on two sharing the database:
//! one Idempotency-Key sent 2 and 50 times at once opens one trade and every answer is that
//! attempt or a 409 in the envelope, never a 500; a second tap with a fresh key reuses the open
//! attempt of the same method; the ceilings on new attempts per order and per user a minute
//! refuse with their words and open nothing. On SQLite, and on PostgreSQL with
//! TEST_DATABASE_URL.

use crate::helpers::TestApp;
use crate::helpers::{backend, spawn_app};
use crate::payments::{pay_at_cashier, unpaid_order};
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::BTreeMap;

/// The defaults of `[payment]` in config/default.toml, which the tests run with.
const PER_ORDER: usize = 10;
const PER_USER_MINUTE: usize = 5;

/// One POST /payments to `node` (a base address): its status and envelope.
async fn pay_on(
    app: &TestApp,
    node: &str,
    token: &str,
    body: &Value,
    key: &str,
    lang: &str,
) -> (u16, Value) {
    let res = app
        .client
        .post(format!("{node}/api/v1/payments"))
        .bearer_auth(token)
        .header("Idempotency-Key", key)
        .header("Accept-Language", lang)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, body)
}

/// `n` requests at once, spread over `nodes` in turn; `key(i)` is request i's key. Answers in
/// request order.
async fn at_once(
    app: &TestApp,
    nodes: &[String],
    token: &str,
    body: Value,
    n: usize,
    key: impl Fn(usize) -> String,
) -> Vec<(u16, Value)> {
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..n {
        let (client, node, token, body, key) = (
            app.client.clone(),
            nodes[i % nodes.len()].clone(),
            token.to_string(),
            body.clone(),
            key(i),
        );
        tasks.spawn(async move {
            let res = client
                .post(format!("{node}/api/v1/payments"))
                .bearer_auth(&token)
                .header("Idempotency-Key", key)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            let text = res.text().await.unwrap();
            let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
            (i, (status, body))
        });
    }
    let mut answers: Vec<(usize, (u16, Value))> = tasks.join_all().await;
    answers.sort_by_key(|(i, _)| *i);
    answers.into_iter().map(|(_, a)| a).collect()
}

/// How many trades the sandbox opened for the order, and how many attempts we wrote.
async fn trades_and_attempts(app: &TestApp, order_no: &str) -> (i64, i64) {
    let count = |sql: &'static str| {
        let db = app.app_state.db.clone();
        let order_no = order_no.to_string();
        async move {
            sqlx::query(sql)
                .bind(order_no)
                .fetch_one(db.pool())
                .await
                .unwrap()
                .try_get::<i64, _>(0)
                .unwrap()
        }
    };
    (
        count("SELECT COUNT(*) FROM sandbox_trades WHERE order_no = $1").await,
        count("SELECT COUNT(*) FROM payments WHERE order_no = $1").await,
    )
}

/// Every answer is the one attempt (200, its payment id) or a 409 that says why, in the
/// envelope; none is anything else (a 500 above all). Answers (attempts, conflicts).
#[track_caller]
fn one_attempt_or_conflict(answers: &[(u16, Value)], payment_id: &str) -> (usize, usize) {
    let mut seen = BTreeMap::new();
    for (status, body) in answers {
        let what = match (status, body["errCode"].as_str()) {
            (200, Some("00")) if body["data"]["paymentId"] == payment_id => "the attempt",
            (409, Some("409")) if !body["errMsg"].as_str().unwrap_or("").is_empty() => "409",
            _ => panic!("an answer that is neither the attempt nor a 409: {status} {body}"),
        };
        *seen.entry(what).or_insert(0usize) += 1;
    }
    (
        seen.get("the attempt").copied().unwrap_or(0),
        seen.get("409").copied().unwrap_or(0),
    )
}

/// The one trade's payment id, checking there is exactly one trade and one attempt.
async fn the_one_attempt(app: &TestApp, order_no: &str, case: &str) -> String {
    assert_eq!(
        trades_and_attempts(app, order_no).await,
        (1, 1),
        "{case} ({}): exactly one trade at the provider and one attempt",
        backend()
    );
    app.app_state
        .payments
        .repo()
        .for_order(order_no)
        .await
        .unwrap()[0]
        .payment_id
        .clone()
}

fn alipay(order_no: &str) -> Value {
    json!({"orderNo": order_no, "method": "alipay_wap"})
}

/// The reported race: a double tap (or a retry racing the first try) with one key, 10 times.
#[tokio::test]
async fn one_key_sent_twice_at_once_opens_one_trade() {
    let app = spawn_app().await;
    let nodes = [app.address.clone()];
    for trial in 0..10 {
        let (token, order_no) = unpaid_order(&app, &format!("135123400{trial:02}")).await;
        let answers = at_once(&app, &nodes, &token, alipay(&order_no), 2, |_| {
            format!("double-tap-{trial}")
        })
        .await;
        let payment_id = the_one_attempt(&app, &order_no, &format!("trial {trial}")).await;
        let (attempts, _) = one_attempt_or_conflict(&answers, &payment_id);
        assert!(
            attempts >= 1,
            "trial {trial}: the first answer is the attempt"
        );
    }
}

#[tokio::test]
async fn fifty_at_once_with_one_key_open_one_trade() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340101").await;
    let nodes = [app.address.clone()];
    let answers = at_once(&app, &nodes, &token, alipay(&order_no), 50, |_| {
        "k50".into()
    })
    .await;
    let payment_id = the_one_attempt(&app, &order_no, "50 at once").await;
    let (attempts, conflicts) = one_attempt_or_conflict(&answers, &payment_id);
    eprintln!(
        "50 at once, one key ({}): {attempts} answered the attempt, {conflicts} × 409",
        backend()
    );
    // Then the key answers the same attempt again.
    let (status, again) = pay_on(&app, &app.address, &token, &alipay(&order_no), "k50", "zh").await;
    assert_eq!(
        (status, &again["data"]["paymentId"]),
        (200, &json!(payment_id))
    );
}

#[tokio::test]
async fn one_key_on_two_nodes_opens_one_trade() {
    let app = spawn_app().await;
    let nodes = [app.address.clone(), app.second_node().await];
    for (n, phone) in [(2, "13512340201"), (50, "13512340202")] {
        let (token, order_no) = unpaid_order(&app, phone).await;
        let answers = at_once(&app, &nodes, &token, alipay(&order_no), n, |_| {
            format!("two-nodes-{n}")
        })
        .await;
        let payment_id = the_one_attempt(&app, &order_no, &format!("{n} on two nodes")).await;
        let (attempts, conflicts) = one_attempt_or_conflict(&answers, &payment_id);
        eprintln!(
            "{n} at once on two nodes, one key ({}): {attempts} answered the attempt, {conflicts} × 409",
            backend()
        );
    }
}

/// The same key with another body while the first is in flight is the documented 409, never
/// a second trade.
#[tokio::test]
async fn one_key_with_two_bodies_at_once_opens_at_most_one_trade() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340301").await;
    let nodes = [app.address.clone(), app.second_node().await];
    let bodies = [
        alipay(&order_no),
        json!({"orderNo": order_no, "method": "wechat_h5"}),
    ];
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..20 {
        let (client, node, token, body) = (
            app.client.clone(),
            nodes[i % 2].clone(),
            token.clone(),
            bodies[i % 2].clone(),
        );
        tasks.spawn(async move {
            let res = client
                .post(format!("{node}/api/v1/payments"))
                .bearer_auth(&token)
                .header("Idempotency-Key", "one-key-two-bodies")
                .json(&body)
                .send()
                .await
                .unwrap();
            (res.status().as_u16(), res.json::<Value>().await.unwrap())
        });
    }
    let answers = tasks.join_all().await;
    let payment_id = the_one_attempt(&app, &order_no, "two bodies").await;
    one_attempt_or_conflict(&answers, &payment_id);
}

/// A second tap with a fresh key (a client that makes one per tap, a second tab) while the
/// first attempt is open: the same attempt again, no second trade. Another method is another
/// attempt.
#[tokio::test]
async fn paying_again_with_the_same_method_reuses_the_open_attempt() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340401").await;
    let (_, first) = pay_on(&app, &app.address, &token, &alipay(&order_no), "a", "zh").await;
    app.clock.advance_ms(60_000);
    let (status, again) = pay_on(&app, &app.address, &token, &alipay(&order_no), "b", "zh").await;
    assert_eq!(status, 200, "{again}");
    for field in ["paymentId", "url", "expiresAt", "payAmount"] {
        assert_eq!(again["data"][field], first["data"][field], "{field}");
    }
    assert_eq!(trades_and_attempts(&app, &order_no).await, (1, 1));

    let wechat = json!({"orderNo": order_no, "method": "wechat_h5"});
    let (status, other) = pay_on(&app, &app.address, &token, &wechat, "c", "zh").await;
    assert_eq!(status, 200, "{other}");
    assert_ne!(other["data"]["paymentId"], first["data"]["paymentId"]);
    assert_eq!(trades_and_attempts(&app, &order_no).await, (2, 2));
}

/// Taps with a fresh key each, at once on two nodes: one trade; the others wait for it and
/// answer it (or a 409 that says it is being processed).
#[tokio::test]
async fn many_taps_with_fresh_keys_on_two_nodes_open_one_trade() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340501").await;
    let nodes = [app.address.clone(), app.second_node().await];
    let answers = at_once(&app, &nodes, &token, alipay(&order_no), 30, |i| {
        format!("tap-{i}")
    })
    .await;
    let payment_id = the_one_attempt(&app, &order_no, "30 fresh keys on two nodes").await;
    let (attempts, conflicts) = one_attempt_or_conflict(&answers, &payment_id);
    eprintln!(
        "30 taps with fresh keys on two nodes ({}): {attempts} answered the attempt, {conflicts} × 409",
        backend()
    );
}

/// Attempts that failed at the cashier are not reused: each retry opens a trade, up to the
/// order's ceiling; past it the customer is told why in their language and nothing is opened.
#[tokio::test]
async fn attempts_past_the_order_ceiling_are_refused_and_open_no_trade() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340601").await;
    for i in 0..PER_ORDER {
        // Fifteen seconds apart: under the per-minute ceiling.
        app.clock.advance_ms(15_000);
        let (status, created) = pay_on(
            &app,
            &app.address,
            &token,
            &alipay(&order_no),
            &format!("retry-{i}"),
            "zh",
        )
        .await;
        assert_eq!(status, 200, "attempt {i}: {created}");
        let id = created["data"]["paymentId"].as_str().unwrap();
        pay_at_cashier(&app, id, "fail").await;
    }
    assert_eq!(
        trades_and_attempts(&app, &order_no).await,
        (PER_ORDER as i64, PER_ORDER as i64)
    );
    app.clock.advance_ms(15_000);
    for (lang, words) in [
        ("zh", "该订单支付次数已达上限（10次），请重新下单"),
        (
            "en",
            "This order has reached its limit of 10 payment attempts; please place the order again",
        ),
    ] {
        let (status, refused) = pay_on(
            &app,
            &app.address,
            &token,
            &alipay(&order_no),
            &format!("past-{lang}"),
            lang,
        )
        .await;
        assert_eq!(
            (status, refused["errCode"].as_str()),
            (409, Some("409")),
            "{refused}"
        );
        assert_eq!(refused["errMsg"], words);
    }
    assert_eq!(
        trades_and_attempts(&app, &order_no).await,
        (PER_ORDER as i64, PER_ORDER as i64),
        "nothing opened past the ceiling"
    );
}

/// New attempts of one user within a minute, across their orders: past the ceiling a 429 with
/// how long to wait; a minute later they may pay again.
#[tokio::test]
async fn a_users_attempts_past_the_minute_ceiling_wait() {
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340701").await;
    for i in 0..PER_USER_MINUTE {
        app.clock.advance_ms(1_000);
        let (status, created) = pay_on(
            &app,
            &app.address,
            &token,
            &alipay(&order_no),
            &format!("quick-{i}"),
            "zh",
        )
        .await;
        assert_eq!(status, 200, "attempt {i}: {created}");
        pay_at_cashier(&app, created["data"]["paymentId"].as_str().unwrap(), "fail").await;
    }
    let (status, refused) = pay_on(
        &app,
        &app.address,
        &token,
        &alipay(&order_no),
        "quick-past",
        "en",
    )
    .await;
    assert_eq!(
        (status, refused["errCode"].as_str()),
        (429, Some("429")),
        "{refused}"
    );
    // The first of the five was 1 s in; the window is a minute from it, 5 s ago.
    assert_eq!(refused["data"]["retryAfterSeconds"], 56);
    assert_eq!(
        refused["errMsg"],
        "Too many payment attempts; please try again in 56 s"
    );
    let (_, zh) = pay_on(
        &app,
        &app.address,
        &token,
        &alipay(&order_no),
        "quick-past-zh",
        "zh",
    )
    .await;
    assert_eq!(zh["errMsg"], "支付尝试过于频繁，请56秒后再试");
    assert_eq!(
        trades_and_attempts(&app, &order_no).await,
        (PER_USER_MINUTE as i64, PER_USER_MINUTE as i64)
    );
    app.clock.advance_ms(56_000);
    let (status, created) = pay_on(
        &app,
        &app.address,
        &token,
        &alipay(&order_no),
        "after-a-minute",
        "zh",
    )
    .await;
    assert_eq!(status, 200, "{created}");
}

/// The key's body hash as the server computes it (`http::edge::idempotency`).
fn body_hash(body: &Value) -> String {
    use sha2::{Digest, Sha256};
    actors::hex::encode(&Sha256::digest(body.to_string().as_bytes()))
}

/// Claims on a key, as the database keeps them: one holder; a twin sees it busy; the answer
/// replaces the claim; a released claim frees the key; an abandoned one is taken over after
/// its lease, and its holder's late answer then changes nothing.
#[tokio::test]
async fn a_key_is_claimed_once_answered_released_and_taken_over() {
    use actors::db::idempotency::{Claim, IdempotencyRepo, Recorded, CLAIM_LEASE_MS};
    let app = spawn_app().await;
    let repo = IdempotencyRepo::new(app.app_state.db.clone());
    let now = app.clock.now_ms();
    let claim = |token: &'static str, hash: &'static str, at: i64| {
        let repo = repo.clone();
        async move { repo.claim("pay:1", "k", hash, token, at).await.unwrap() }
    };
    assert_eq!(claim("t1", "h", now).await, Claim::Held);
    assert_eq!(
        claim("t2", "h", now).await,
        Claim::Busy {
            body_hash: Some("h".into())
        }
    );
    repo.release_claim("pay:1", "k", "t2").await.unwrap();
    assert!(
        matches!(claim("t2", "h", now).await, Claim::Busy { .. }),
        "only its holder releases a claim"
    );
    repo.release_claim("pay:1", "k", "t1").await.unwrap();
    assert_eq!(claim("t2", "h", now).await, Claim::Held, "released: free");

    // t2 goes away without a word; past the lease t3 takes the key over.
    assert!(matches!(
        claim("t3", "h", now + CLAIM_LEASE_MS - 1).await,
        Claim::Busy { .. }
    ));
    assert_eq!(claim("t3", "h", now + CLAIM_LEASE_MS).await, Claim::Held);
    let answer = Recorded {
        body_hash: "h".into(),
        status: 200,
        response: json!({"errCode": "00", "errMsg": "", "data": {"n": 3}}),
    };
    let late = Recorded {
        response: json!({"errCode": "00", "errMsg": "", "data": {"n": 2}}),
        ..answer.clone()
    };
    assert!(!repo
        .answer_claim("pay:1", "k", "t2", &late, now + CLAIM_LEASE_MS)
        .await
        .unwrap());
    assert!(repo
        .answer_claim("pay:1", "k", "t3", &answer, now + CLAIM_LEASE_MS)
        .await
        .unwrap());
    assert_eq!(
        claim("t4", "h", now + CLAIM_LEASE_MS + 1).await,
        Claim::Answered(answer)
    );
    assert_eq!(
        repo.find("pay:1", "k", now + CLAIM_LEASE_MS + 1)
            .await
            .unwrap()
            .map(|r| r.response["data"]["n"].clone()),
        Some(json!(3))
    );
}

/// A request whose node went away mid-work leaves its key claimed: a retry with the key waits
/// for the answer, then is told in the envelope that the request is still being processed
/// (409), and opens nothing; once the claim's lease has run out the retry takes the key over
/// and pays.
#[tokio::test]
async fn a_key_left_claimed_by_a_dead_node_is_waited_for_then_taken_over() {
    use actors::db::idempotency::{IdempotencyRepo, CLAIM_LEASE_MS};
    use pizza_order::http::edge::idempotency::WAIT;
    let app = spawn_app().await;
    let (token, order_no) = unpaid_order(&app, "13512340801").await;
    let scope = format!("pay:{}", app.user_id(&token).await);
    let body = alipay(&order_no);
    IdempotencyRepo::new(app.app_state.db.clone())
        .claim(
            &scope,
            "orphan",
            &body_hash(&body),
            "dead-node",
            app.clock.now_ms(),
        )
        .await
        .unwrap();

    let started = std::time::Instant::now();
    let (status, busy) = pay_on(&app, &app.address, &token, &body, "orphan", "en").await;
    assert!(started.elapsed() >= WAIT, "it waited for the answer first");
    assert_eq!(
        (status, busy["errCode"].as_str()),
        (409, Some("409")),
        "{busy}"
    );
    assert_eq!(
        busy["errMsg"],
        "The same request is still being processed; please try again shortly"
    );
    assert_eq!(trades_and_attempts(&app, &order_no).await, (0, 0));

    app.clock.advance_ms(CLAIM_LEASE_MS);
    let (status, paid) = pay_on(&app, &app.address, &token, &body, "orphan", "zh").await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(trades_and_attempts(&app, &order_no).await, (1, 1));
}
