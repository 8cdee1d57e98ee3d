#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Coupons over HTTP (issue 24): offers and collecting with their limits, the list's tabs in
//! both languages, exchange by code (one answer for every failure, 10 attempts a minute),
//! transfer (not while locked; the recipient sees it, the sender does not), the chain's
//! templates and issue, a gift that is a coupon, channel 30, and an order's coupon given back
//! once when the order is cancelled.

use crate::coupon_races::{check_invariants, checkout};
use crate::helpers::{spawn_app, TestApp};
use crate::payments::ready_to_submit;
use actors::db::coupons::IssueSource;
use actors::domain::loyalty::coupon::CouponStatus;
use serde_json::{json, Value};

const OPS: &str = "test-ops-token";

async fn tab(app: &TestApp, token: &str, status: &str) -> Value {
    app.get_auth(&format!("/api/v1/coupons?status={status}"), Some(token))
        .await
        .assert_ok()
        .clone()
}

fn codes(page: &Value) -> Vec<String> {
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["couponCode"].as_str().unwrap().to_string())
        .collect()
}

async fn exchange(app: &TestApp, token: &str, code: &str, ip: &str) -> crate::helpers::Answer {
    app.call(
        reqwest::Method::POST,
        "/api/v1/coupons/exchange",
        Some(&json!({"code": code})),
        Some(token),
        &[("X-Forwarded-For", ip)],
    )
    .await
}

#[tokio::test]
async fn offers_collect_and_the_list_in_both_languages() {
    let app = spawn_app().await;
    // Visitors see the offers, and cannot collect.
    let offers = app.get("/api/v1/coupons/offers").await;
    let offers = offers.assert_ok().as_array().unwrap().clone();
    assert!(offers.len() >= 5, "{offers:?}");
    assert!(offers.iter().all(|o| o["canCollect"] == false));
    let limited = offers
        .iter()
        .find(|o| o["ruleId"] == "CP_CASH_50_8")
        .unwrap();
    assert_eq!(limited["remaining"], 50);
    assert_eq!(limited["ruleText"], "满50减8");
    assert_eq!(limited["validText"], "领取后7天内有效");
    let pizza = offers
        .iter()
        .find(|o| o["ruleId"] == "CP_PIZZA_80")
        .unwrap();
    assert_eq!(pizza["ruleText"], "8折，最多减¥30");
    assert_eq!(pizza["scopeText"], "限比萨类商品");
    let side = offers
        .iter()
        .find(|o| o["ruleId"] == "CP_SIDE_9_9")
        .unwrap();
    assert_eq!(side["ruleText"], "满59¥9.9换购 黄金薯角");
    assert!(
        offers.iter().all(|o| o["ruleId"] != "CP_COLA"),
        "not collectable"
    );
    app.post("/api/v1/coupons/collect/CP_CASH_50_8", &json!({}), None)
        .await
        .assert_error(401, "401");

    let token = app.register("13512360001").await;
    let got = app.collect(&token, "CP_CASH_50_8").await;
    let got = got.assert_ok().clone();
    assert_eq!(got["status"], "issued");
    assert_eq!(got["statusLabel"], "可使用");
    assert_eq!(got["kind"], "cashOff");
    assert_eq!(got["scopeText"], "全部商品");
    // Per-user limit 1: the second is refused, in the request's language.
    let again = app.collect(&token, "CP_CASH_50_8").await;
    again.assert_error(409, "409");
    assert_eq!(again.err_msg(), "您已领取过");
    let again = app
        .call(
            reqwest::Method::POST,
            "/api/v1/coupons/collect/CP_CASH_50_8",
            Some(&json!({})),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    assert_eq!(again.err_msg(), "You have already collected this");
    app.collect(&token, "NOPE").await.assert_error(404, "404");
    // Not collectable: as if it did not exist.
    app.collect(&token, "CP_COLA")
        .await
        .assert_error(404, "404");
    let offers = app.get_auth("/api/v1/coupons/offers", Some(&token)).await;
    let offers = offers.assert_ok().as_array().unwrap().clone();
    let limited = offers
        .iter()
        .find(|o| o["ruleId"] == "CP_CASH_50_8")
        .unwrap();
    assert_eq!(
        (
            limited["collected"].clone(),
            limited["canCollect"].clone(),
            limited["remaining"].clone()
        ),
        (json!(1), json!(false), json!(49))
    );
    let cash = offers
        .iter()
        .find(|o| o["ruleId"] == "CP_CASH_100_20")
        .unwrap();
    assert_eq!(cash["canCollect"], true);
    app.collect(&token, "CP_PIZZA_80").await.assert_ok();

    let available = tab(&app, &token, "available").await;
    assert_eq!(available["total"], 2);
    assert_eq!(available["hasMore"], false);
    let en = app
        .call(
            reqwest::Method::GET,
            "/api/v1/coupons",
            None,
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    let en = en.assert_ok();
    let pizza = en["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["templateCode"] == "CP_PIZZA_80")
        .unwrap();
    assert_eq!(pizza["ruleText"], "20% off, up to ¥30");
    assert_eq!(pizza["scopeText"], "Pizzas only");
    assert_eq!(pizza["statusLabel"], "Available");
    assert_eq!(tab(&app, &token, "used").await["total"], 0);
    assert_eq!(tab(&app, &token, "expired").await["total"], 0);
    app.get_auth("/api/v1/coupons?status=bogus", Some(&token))
        .await
        .assert_error(400, "400");
    // Eight days on, the 7-day coupon is in the expired tab (before any sweep).
    app.clock.advance_ms(8 * 86_400_000);
    let expired = tab(&app, &token, "expired").await;
    assert_eq!(expired["total"], 1);
    assert_eq!(expired["list"][0]["status"], "expired");
    assert_eq!(tab(&app, &token, "available").await["total"], 1);

    // Channel 30 has no coupons at all.
    for path in ["/api/v1/coupons", "/api/v1/coupons/offers"] {
        app.call(
            reqwest::Method::GET,
            path,
            None,
            Some(&token),
            &[("X-Channel-Id", "30")],
        )
        .await
        .assert_error(404, "404");
    }
    app.call(
        reqwest::Method::POST,
        "/api/v1/coupons/collect/CP_CASH_100_20",
        Some(&json!({})),
        Some(&token),
        &[("X-Channel-Id", "30")],
    )
    .await
    .assert_error(404, "404");
    check_invariants(&app).await;
}

#[tokio::test]
async fn exchange_answers_every_failure_alike_and_stops_the_eleventh_attempt() {
    let app = spawn_app().await;
    let a = app.register("13512360002").await;
    let b = app.register("13512360003").await;
    // Registered first: registering moves the test clock past the SMS cooldown.
    let c = app.register("13512360004").await;
    let ip = "203.0.113.7";
    let got = exchange(&app, &a, " pizza-2026-welcome-01 ", ip).await;
    let got = got.assert_ok().clone();
    assert_eq!(got["templateCode"], "CP_COLA");
    assert_eq!(got["kind"], "exchangeProduct");
    assert_eq!(got["ruleText"], "兑换 可口可乐");
    assert_eq!(got["productCode"], "DR001");
    // The same customer again (a retried request): the same coupon, nothing new.
    let again = exchange(&app, &a, "PIZZA-2026-WELCOME-01", ip).await;
    assert_eq!(again.assert_ok()["couponCode"], got["couponCode"]);
    // Used by someone else, unknown, too short, expired: one answer.
    let mut answers = Vec::new();
    for code in ["PIZZA-2026-WELCOME-01", "PIZZA-2026-NOSUCH-99", "SHORT", ""] {
        answers.push(exchange(&app, &b, code, "203.0.113.8").await);
    }
    app.app_state
        .coupons
        .repo()
        .add_exchange_code("PIZZA-OLD-CODE-0001", "CP_COLA", app.clock.now_ms() - 1, 0)
        .await
        .unwrap();
    answers.push(exchange(&app, &b, "PIZZA-OLD-CODE-0001", "203.0.113.8").await);
    for a in &answers {
        a.assert_error(400, "400");
        assert_eq!(a.err_msg(), "兑换码无效或已使用");
        assert_eq!(a.data(), &Value::Null);
    }
    // b has made 5 attempts; 5 more pass the throttle, the 11th in the minute is 429.
    for _ in 0..5 {
        exchange(&app, &b, "PIZZA-2026-NOSUCH-99", "203.0.113.8")
            .await
            .assert_error(400, "400");
    }
    let eleventh = exchange(&app, &b, "PIZZA-2026-WELCOME-02", "203.0.113.8").await;
    eleventh.assert_error(429, "429");
    let wait = eleventh.data()["retryAfterSeconds"].as_u64().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Per client address too: a third customer from b's address is stopped, from another is not.
    exchange(&app, &c, "PIZZA-2026-WELCOME-02", "203.0.113.8")
        .await
        .assert_error(429, "429");
    exchange(&app, &c, "PIZZA-2026-WELCOME-02", "203.0.113.9")
        .await
        .assert_ok();
    // A minute later b may try again.
    app.clock.advance_ms(61_000);
    exchange(&app, &b, "PIZZA-2026-WELCOME-03", "203.0.113.8")
        .await
        .assert_ok();
    check_invariants(&app).await;
}

#[tokio::test]
async fn transfer_is_refused_while_locked_and_moves_the_coupon_to_the_recipient() {
    let app = spawn_app().await;
    let sender = app.register("13512360005").await;
    let recipient = app.register("13512360006").await;
    let sender_id = app.user_id(&sender).await;
    let code = app.collected(&sender, "CP_CASH_100_20").await;
    let path = format!("/api/v1/coupons/{code}/transfer");
    // Held by an order: refused.
    checkout(&app, sender_id, &code, "TR0001").await.unwrap();
    assert_eq!(
        tab(&app, &sender, "available").await["list"][0]["statusLabel"],
        "下单中"
    );
    app.post(&path, &json!({"cellPhone": "13512360006"}), Some(&sender))
        .await
        .assert_error(409, "409");
    app.app_state.coupons.order_moved("TR0001", 3).await;
    // Not to oneself, not to a phone without an account, not someone else's coupon.
    app.post(&path, &json!({"cellPhone": "13512360005"}), Some(&sender))
        .await
        .assert_error(400, "400");
    let nobody = app
        .post(&path, &json!({"cellPhone": "13900000000"}), Some(&sender))
        .await;
    nobody.assert_error(400, "400");
    assert_eq!(nobody.err_msg(), "该手机号尚未注册");
    app.post(&path, &json!({"cellPhone": "135"}), Some(&sender))
        .await
        .assert_error(400, "400");
    app.post(
        &path,
        &json!({"cellPhone": "13512360005"}),
        Some(&recipient),
    )
    .await
    .assert_error(404, "404");
    let done = app
        .post(&path, &json!({"cellPhone": "13512360006"}), Some(&sender))
        .await;
    let done = done.assert_ok();
    assert_eq!(done["to"], "135****0006");
    assert_eq!(done["couponCode"], code.as_str());
    // The recipient sees a new coupon (not the sender's code); the sender sees it as used.
    let theirs = tab(&app, &recipient, "available").await;
    assert_eq!(theirs["total"], 1);
    assert_ne!(codes(&theirs)[0], code);
    assert_eq!(theirs["list"][0]["templateCode"], "CP_CASH_100_20");
    assert_eq!(tab(&app, &sender, "available").await["total"], 0);
    let used = tab(&app, &sender, "used").await;
    assert_eq!(used["list"][0]["status"], "transferred");
    let new = app
        .app_state
        .coupons
        .repo()
        .get(&codes(&theirs)[0])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(new.parent_code.as_deref(), Some(code.as_str()));
    // Once only; and a template that is not transferable refuses.
    app.post(&path, &json!({"cellPhone": "13512360006"}), Some(&sender))
        .await
        .assert_error(409, "409");
    let fixed = app.collected(&sender, "CP_PIZZA_80").await;
    app.post(
        &format!("/api/v1/coupons/{fixed}/transfer"),
        &json!({"cellPhone": "13512360006"}),
        Some(&sender),
    )
    .await
    .assert_error(409, "409");
    check_invariants(&app).await;
}

#[tokio::test]
async fn a_cancelled_order_gives_its_coupon_back_once() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512360007", items).await;
    let coupon = app.collected(&token, "CP_CASH_100_20").await;
    // The cart now applies the coupon: submit with what it shows, and the checkout locks it
    // in the order's transaction.
    let (order_no, cart) = app.submit_as_the_cart_shows(&token, body).await;
    assert_eq!(cart["osCoupons"], json!([coupon]));
    let locked = app
        .app_state
        .coupons
        .repo()
        .get(&coupon)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(locked.status, CouponStatus::Locked);
    assert_eq!(locked.order_no.as_deref(), Some(order_no.as_str()));
    app.post(
        &format!("/api/v1/orders/{order_no}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    let repo = app.app_state.coupons.repo();
    let back = repo.get(&coupon).await.unwrap().unwrap();
    assert_eq!(back.status, CouponStatus::Returned);
    // Asked again, swept, hooked again: still one give-back.
    app.post(
        &format!("/api/v1/orders/{order_no}/refund"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.app_state.coupons.sweep().await.unwrap();
    app.app_state.coupons.order_moved(&order_no, 3).await;
    let events = repo.events(&coupon).await.unwrap();
    let returned = events
        .iter()
        .filter(|e| e.to_status == CouponStatus::Returned)
        .count();
    assert_eq!(returned, 1, "{events:?}");
    assert_eq!(
        tab(&app, &token, "available").await["list"][0]["status"],
        "returned"
    );
    check_invariants(&app).await;
}

#[tokio::test]
async fn the_chain_lists_templates_and_issues_once_per_request() {
    let app = spawn_app().await;
    app.get("/api/v1/chain/coupons/templates")
        .await
        .assert_error(401, "401");
    let list = app
        .get_auth("/api/v1/chain/coupons/templates", Some(OPS))
        .await;
    let list = list.assert_ok().as_array().unwrap().clone();
    assert!(list
        .iter()
        .any(|t| t["templateCode"] == "CP_COLA" && t["issued"] == 0));
    let token = app.register("13512360008").await;
    let req = json!({"templateCode": "CP_MEMBER_150_30", "cellPhone": "13512360008", "count": 3, "requestId": "cs-1"});
    let first = app
        .post("/api/v1/chain/coupons/issue", &req, Some(OPS))
        .await;
    let first = first.assert_ok().clone();
    assert_eq!(first["issuedNow"], true);
    assert_eq!(first["couponCodes"].as_array().unwrap().len(), 3);
    let again = app
        .post("/api/v1/chain/coupons/issue", &req, Some(OPS))
        .await;
    assert_eq!(again.assert_ok()["couponCodes"], first["couponCodes"]);
    assert_eq!(again.assert_ok()["issuedNow"], false);
    assert_eq!(tab(&app, &token, "available").await["total"], 3);
    for bad in [
        json!({"templateCode": "CP_COLA", "cellPhone": "13512360008", "count": 0, "requestId": "x"}),
        json!({"templateCode": "CP_COLA", "cellPhone": "13512360008", "count": 101, "requestId": "x"}),
        json!({"templateCode": "CP_COLA", "cellPhone": "13512360008", "count": 1}),
    ] {
        app.post("/api/v1/chain/coupons/issue", &bad, Some(OPS))
            .await
            .assert_error(400, "400");
    }
    let nobody = json!({"templateCode": "CP_COLA", "cellPhone": "13900000001", "count": 1, "requestId": "y"});
    app.post("/api/v1/chain/coupons/issue", &nobody, Some(OPS))
        .await
        .assert_error(400, "400");
    let unknown =
        json!({"templateCode": "NOPE", "cellPhone": "13512360008", "count": 1, "requestId": "z"});
    app.post("/api/v1/chain/coupons/issue", &unknown, Some(OPS))
        .await
        .assert_error(404, "404");
    check_invariants(&app).await;
}

#[tokio::test]
async fn a_coupon_gift_is_delivered_once_as_a_coupon() {
    let app = spawn_app().await;
    let (token, user) = app.customer("13512360009").await;
    let levels = app.app_state.loyalty.members().levels().await.unwrap();
    let option = levels
        .iter()
        .find(|l| l.level == 2)
        .unwrap()
        .gift_options
        .iter()
        .find(|o| o.kind == "coupon")
        .unwrap()
        .clone();
    assert_eq!(option.template_code.as_deref(), Some("CP_MEMBER_150_30"));
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    let grant = actors::db::members::GiftGrant {
        kind: "upgrade",
        cycle: "2026".into(),
        options: vec![option.clone()],
        expires_at: now + 86_400_000,
        order_no: None,
    };
    actors::db::gifts::grant_in(&mut tx, user, 2, &grant, now)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let gifts = app.get_auth("/api/v1/members/gifts", Some(&token)).await;
    let gift = gifts.assert_ok()[0].clone();
    assert_eq!(gift["options"][0]["type"], "coupon");
    let gift_id = gift["giftId"].as_str().unwrap();
    app.post(
        &format!("/api/v1/members/gifts/{gift_id}/claim"),
        &json!({"optionId": option.option_id}),
        Some(&token),
    )
    .await
    .assert_ok();
    // The outbox delivers again (a retry after a crash): still one coupon, keyed by the gift.
    let gifts_repo = app.app_state.loyalty.gifts();
    gifts_repo
        .deliver(gift_id, user, &option.option_id, i64::MAX, now)
        .await
        .unwrap();
    app.app_state.loyalty.deliver_gifts().await.unwrap();
    let mine = tab(&app, &token, "available").await;
    assert_eq!(mine["total"], 1);
    assert_eq!(mine["list"][0]["templateCode"], "CP_MEMBER_150_30");
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    let by_key = actors::db::coupons::by_source_in(&mut tx, IssueSource::Gift, gift_id).await;
    drop(tx);
    assert!(by_key.unwrap().is_some());
    check_invariants(&app).await;
}

/// A give-back that fails where the customer asked is 退券失败，请联系客服 with the store's phone
/// (errCode 01); the sweep gives the coupon back once the database answers again.
#[tokio::test]
async fn a_failed_give_back_says_so_with_the_store_phone_and_the_sweep_finishes_it() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512360010", items).await;
    let coupon = app.collected(&token, "CP_CASH_100_20").await;
    // The checkout locks the coupon the cart applies (submitted as the cart shows it).
    let (order_no, _) = app.submit_as_the_cart_shows(&token, body).await;
    let locked = app
        .app_state
        .coupons
        .repo()
        .get(&coupon)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(locked.status, CouponStatus::Locked);
    // The outbox table goes away for a while: every give-back fails.
    let pool = app.app_state.db.pool();
    sqlx::query("ALTER TABLE coupon_returns RENAME TO coupon_returns_away")
        .execute(pool)
        .await
        .unwrap();
    let cancel = app
        .post(
            &format!("/api/v1/orders/{order_no}/cancel"),
            &json!({}),
            Some(&token),
        )
        .await;
    cancel.assert_error(502, "01");
    assert_eq!(cancel.err_msg(), "退券失败，请联系客服");
    assert!(
        !cancel.data()["storeTel"].as_str().unwrap().is_empty(),
        "{}",
        cancel.body
    );
    let repo = app.app_state.coupons.repo();
    assert_eq!(
        repo.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Locked
    );
    sqlx::query("ALTER TABLE coupon_returns_away RENAME TO coupon_returns")
        .execute(pool)
        .await
        .unwrap();
    // The sweep finds the coupon still locked by a cancelled order and gives it back.
    app.app_state.coupons.sweep().await.unwrap();
    app.app_state.coupons.sweep().await.unwrap();
    assert_eq!(
        repo.get(&coupon).await.unwrap().unwrap().status,
        CouponStatus::Returned
    );
    check_invariants(&app).await;
}

/// Cash on delivery: the coupon stays locked until the order is completed (paid at the door),
/// then used; the chain's full refund gives it back, once.
#[tokio::test]
async fn a_completed_cash_order_uses_its_coupon_and_the_chain_refund_gives_it_back() {
    let app = spawn_app().await;
    // Under the coupon's ¥100, so no cart prices it in (with the cart's coupons merged, the
    // submit then needs no osCoupons); the lock is taken here as the checkout takes it.
    let items = json!([{"productCode": "SD001", "quantity": 2}]);
    let (token, mut body) = ready_to_submit(&app, "13512360011", items).await;
    body["paymentType"] = json!("offline");
    let user = app.user_id(&token).await;
    let coupon = app.collected(&token, "CP_CASH_100_20").await;
    let order_no = app
        .post("/api/v1/orders", &body, Some(&token))
        .await
        .assert_ok()["orderNo"]
        .as_str()
        .unwrap()
        .to_string();
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    actors::db::coupons::CouponRepo::lock_in(
        &mut tx,
        user,
        std::slice::from_ref(&coupon),
        &order_no,
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let repo = app.app_state.coupons.repo();
    let status = || async { repo.get(&coupon).await.unwrap().unwrap().status };
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    let tablet = |path: String, body: Value| {
        let (app, staff) = (&app, staff.clone());
        async move {
            app.post(&path, &body, Some(&staff))
                .await
                .assert_ok()
                .clone()
        }
    };
    tablet(
        format!("/api/v1/tablet/orders/{order_no}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(
        status().await,
        CouponStatus::Locked,
        "accepted, not paid yet"
    );
    for from in [1, 10, 20, 30, 40] {
        tablet(
            format!("/api/v1/tablet/orders/{order_no}/advance"),
            json!({"from": from}),
        )
        .await;
    }
    assert_eq!(
        status().await,
        CouponStatus::Used,
        "completed: paid at the door"
    );
    for _ in 0..2 {
        app.post(
            &format!("/api/v1/chain/orders/{order_no}/refund"),
            &json!({}),
            Some(OPS),
        )
        .await
        .assert_ok();
    }
    assert_eq!(status().await, CouponStatus::Returned);
    let events = repo.events(&coupon).await.unwrap();
    let back = events
        .iter()
        .filter(|e| e.to_status == CouponStatus::Returned)
        .count();
    assert_eq!(back, 1, "{events:?}");
    check_invariants(&app).await;
}
