#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The member club and the points ledger (issue 23): joining, earning on completion (pending,
//! then available), spending at checkout (held, released on cancel), gifts, the chain's
//! refund, and the races: 1,000 spends of one balance, 100 credits of one order, a refund
//! racing the credit, and a model of interleaved moves against an oracle. Every test ends
//! with a reconcile that finds no mismatch.

use crate::helpers::{spawn_app, TestApp};
use crate::payments::{ready_to_submit, tablet_login};
use actors::db::points::{Account, Applied, PointsError, PointsRepo};
use serde_json::{json, Value};
use std::sync::Arc;

const OPS: &str = "test-ops-token";

async fn reconcile_clean(app: &TestApp) {
    let r = app
        .post("/api/v1/chain/points/reconcile", &json!({}), Some(OPS))
        .await;
    let r = r.assert_ok();
    assert_eq!(r["mismatches"], json!([]), "reconcile: {r}");
}

async fn join(app: &TestApp, token: &str) -> Value {
    let agreement = app.get("/api/v1/members/agreement").await;
    let version = agreement.assert_ok()["version"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(version, "2026-11");
    app.post(
        "/api/v1/members/join",
        &json!({"agreementVersion": version}),
        Some(token),
    )
    .await
    .assert_ok()
    .clone()
}

async fn member(app: &TestApp, token: &str) -> Value {
    app.get_auth("/api/v1/members/me", Some(token))
        .await
        .assert_ok()
        .clone()
}

async fn user_id(app: &TestApp, token: &str) -> i64 {
    app.get_auth("/api/v1/me", Some(token)).await.assert_ok()["id"]
        .as_i64()
        .unwrap()
}

/// A cash-on-delivery order of `items`, submitted with `points` (the amounts as the cart shows
/// them): (order number, the submit answer).
async fn submit_cod(
    app: &TestApp,
    token: &str,
    body: &Value,
    points: i64,
) -> crate::helpers::Answer {
    let mut body = body.clone();
    body["paymentType"] = json!("offline");
    body["pointsDeductions"] = json!(points);
    app.post("/api/v1/orders", &body, Some(token)).await
}

async fn complete(app: &TestApp, staff: &str, order_no: &str) {
    app.post(
        &format!("/api/v1/tablet/orders/{order_no}/accept"),
        &json!({}),
        Some(staff),
    )
    .await
    .assert_ok();
    for from in [1, 10, 20, 30, 40] {
        app.post(
            &format!("/api/v1/tablet/orders/{order_no}/advance"),
            &json!({"from": from}),
            Some(staff),
        )
        .await
        .assert_ok();
    }
}

#[tokio::test]
async fn join_earn_pending_then_available_spend_and_get_back_on_cancel() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512380001", items.clone()).await;

    // A non-member: zero points, computed; no points line in the cart.
    let before = member(&app, &token).await;
    assert_eq!(before["isLoyalty"], false);
    assert_eq!(before["points"]["available"], 0);
    // Joining: the agreement version must be the current one.
    app.post(
        "/api/v1/members/join",
        &json!({"agreementVersion": "2020-01"}),
        Some(&token),
    )
    .await
    .assert_error(400, "400");
    app.post("/api/v1/members/join", &json!({}), Some(&token))
        .await
        .assert_error(400, "400");
    let joined = join(&app, &token).await;
    assert_eq!(joined["isLoyalty"], true);
    assert_eq!(joined["loyaltyLevel"], 1);
    // Joining again changes nothing.
    let again = join(&app, &token).await;
    assert_eq!(again["joinedAt"], joined["joinedAt"]);
    let history = app
        .get_auth("/api/v1/members/levels/history", Some(&token))
        .await;
    assert_eq!(history.assert_ok().as_array().unwrap().len(), 1);
    let me = app.get_auth("/api/v1/me", Some(&token)).await;
    assert_eq!(me.assert_ok()["isLoyalty"], true);

    // The welcome gift: claim its points option.
    let gifts = app.get_auth("/api/v1/members/gifts", Some(&token)).await;
    let gifts = gifts.assert_ok().as_array().unwrap().clone();
    assert_eq!(gifts.len(), 1);
    assert_eq!(gifts[0]["kind"], "welcome");
    let gift_id = gifts[0]["giftId"].as_str().unwrap().to_string();
    let option = gifts[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["type"] == "points")
        .unwrap()
        .clone();
    let claimed = app
        .post(
            &format!("/api/v1/members/gifts/{gift_id}/claim"),
            &json!({"optionId": option["optionId"]}),
            Some(&token),
        )
        .await;
    assert_eq!(claimed.assert_ok()["status"], "claimed");
    app.post(
        &format!("/api/v1/members/gifts/{gift_id}/claim"),
        &json!({"optionId": option["optionId"]}),
        Some(&token),
    )
    .await
    .assert_error(409, "409");
    let gift_points = option["points"].as_i64().unwrap();
    assert_eq!(
        member(&app, &token).await["points"]["available"],
        gift_points
    );

    // Order, complete from the tablet: points pending, on the amount paid.
    let answer = submit_cod(&app, &token, &body, 0).await;
    let order_no = answer.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let paid = answer.assert_ok()["orderAmount"].as_f64().unwrap();
    let staff = tablet_login(&app, "SH001").await;
    complete(&app, &staff, &order_no).await;
    let m = member(&app, &token).await;
    let earned = paid.floor() as i64;
    assert_eq!(m["points"]["pending"], earned, "{m}");
    assert_eq!(m["points"]["available"], gift_points);
    assert!(m["qualifyingSpend"].as_f64().unwrap() >= paid);
    // The refund window (2 s in tests) closes: available.
    app.clock.advance_ms(2_500);
    let m = member(&app, &token).await;
    assert_eq!(m["points"]["pending"], 0);
    let available = gift_points + earned;
    assert_eq!(m["points"]["available"], available);
    let ledger = app
        .get_auth("/api/v1/points/ledger?kind=earned", Some(&token))
        .await;
    assert!(ledger.assert_ok()["total"].as_i64().unwrap() >= 2);
    app.get_auth("/api/v1/points/ledger?kind=bogus", Some(&token))
        .await
        .assert_error(400, "400");

    // The next order: the cart offers points; spend them; the order says so to the fen.
    crate::cart::add(&app, crate::cart::Auth::User(&token), items).await;
    app.clock.advance_ms(1_000);
    let cart = app.get_auth("/api/v1/cart", Some(&token)).await;
    let line = cart.assert_ok()["pointsDeduction"].clone();
    assert_eq!(line["available"], available, "{line}");
    let usable = line["usablePoints"].as_i64().unwrap();
    assert!(usable >= 100, "{line}");
    // More than the cap: refused with the cap in the message.
    submit_cod(&app, &token, &body, usable + 1)
        .await
        .assert_error(400, "400");
    let answer = submit_cod(&app, &token, &body, usable).await;
    let second = answer.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let detail = app
        .get_auth(&format!("/api/v1/orders/{second}"), Some(&token))
        .await;
    let detail = detail.assert_ok();
    assert_eq!(detail["pointsDeductions"], usable);
    assert_eq!(detail["breakdown"]["pointsUsed"], usable);
    assert_eq!(
        (detail["orderAmount"].as_f64().unwrap() * 100.0).round() as i64,
        (paid * 100.0).round() as i64 - usable
    );
    assert_eq!(
        member(&app, &token).await["points"]["available"],
        available - usable
    );
    // Cancel: the points come back.
    app.post(
        &format!("/api/v1/orders/{second}/cancel"),
        &json!({}),
        Some(&token),
    )
    .await
    .assert_ok();
    assert_eq!(member(&app, &token).await["points"]["available"], available);
    reconcile_clean(&app).await;
}

#[tokio::test]
async fn the_chain_refunds_a_completed_order_and_its_points_are_reversed_even_if_spent() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512380002", items).await;
    join(&app, &token).await;
    let answer = submit_cod(&app, &token, &body, 0).await;
    let order_no = answer.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let staff = tablet_login(&app, "SH001").await;
    complete(&app, &staff, &order_no).await;
    app.clock.advance_ms(2_500);
    let earned = member(&app, &token).await["points"]["available"]
        .as_i64()
        .unwrap();
    assert!(earned > 10);
    // The member spends 10 of them (an adjustment down), then the chain refunds the order.
    let uid = user_id(&app, &token).await;
    let adjusted = app
        .post(
            "/api/v1/chain/points/adjust",
            &json!({"cellPhone": "13512380002", "points": -10, "reason": "test", "requestId": "r-1"}),
            Some(OPS),
        )
        .await;
    assert_eq!(adjusted.assert_ok()["available"], earned - 10);
    // Amounts out of range (the extremes of the integer included) are refused and change nothing.
    for points in [i64::MIN, i64::MAX, 100_000_001, -100_000_001, 0] {
        let refused = app
            .post(
                "/api/v1/chain/points/adjust",
                &json!({"cellPhone": "13512380002", "points": points, "reason": "test", "requestId": format!("r-x{points}")}),
                Some(OPS),
            )
            .await;
        assert_eq!(refused.status, 400, "{points}");
    }
    // The same request again adjusts nothing.
    let again = app
        .post(
            "/api/v1/chain/points/adjust",
            &json!({"cellPhone": "13512380002", "points": -10, "reason": "test", "requestId": "r-1"}),
            Some(OPS),
        )
        .await;
    assert_eq!(again.assert_ok()["applied"], false);
    app.post(
        &format!("/api/v1/chain/orders/{order_no}/refund"),
        &json!({}),
        None,
    )
    .await
    .assert_error(401, "401");
    let refunded = app
        .post(
            &format!("/api/v1/chain/orders/{order_no}/refund"),
            &json!({}),
            Some(OPS),
        )
        .await;
    assert_eq!(refunded.assert_ok()["pointsReversed"], true);
    let account = PointsRepo::new(app.app_state.db.clone())
        .account(uid)
        .await
        .unwrap();
    assert_eq!(
        account,
        Account {
            available: 0,
            pending: 0,
            held: 0,
            owed: 10
        }
    );
    // Asked again: nothing more.
    let twice = app
        .post(
            &format!("/api/v1/chain/orders/{order_no}/refund"),
            &json!({}),
            Some(OPS),
        )
        .await;
    assert_eq!(twice.assert_ok()["pointsReversed"], false);
    // A later credit pays what is owed first.
    app.post(
        "/api/v1/chain/points/adjust",
        &json!({"cellPhone": "13512380002", "points": 25, "reason": "goodwill", "requestId": "r-2"}),
        Some(OPS),
    )
    .await
    .assert_ok();
    let account = PointsRepo::new(app.app_state.db.clone())
        .account(uid)
        .await
        .unwrap();
    assert_eq!((account.available, account.owed), (15, 0));
    reconcile_clean(&app).await;
}

/// A member with `points` available (an adjustment), for the races.
async fn member_with(app: &TestApp, phone: &str, points: i64) -> i64 {
    let token = app.register(phone).await;
    join(app, &token).await;
    let uid = user_id(app, &token).await;
    let done = app
        .app_state
        .loyalty
        .adjust(uid, &format!("seed-{phone}"), points, "test")
        .await
        .unwrap();
    assert_eq!(done, Applied::Now);
    uid
}

#[tokio::test]
async fn a_thousand_parallel_spends_of_the_whole_balance_one_succeeds() {
    let app = spawn_app().await;
    let uid = member_with(&app, "13512380003", 5_000).await;
    let repo = Arc::new(PointsRepo::new(app.app_state.db.clone()));
    let now = app.clock.now_ms();
    let tasks: Vec<_> = (0..1000)
        .map(|i| {
            let repo = repo.clone();
            tokio::spawn(async move { repo.hold(uid, &format!("race{i}"), 5_000, now).await })
        })
        .collect();
    let (mut won, mut refused) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(Applied::Now) => won += 1,
            Err(PointsError::NotEnough { .. }) => refused += 1,
            other => panic!("unexpected: {other:?}"),
        }
    }
    assert_eq!((won, refused), (1, 999));
    let account = repo.account(uid).await.unwrap();
    assert_eq!((account.available, account.held), (0, 5_000));
    reconcile_clean(&app).await;
}

#[tokio::test]
async fn parallel_submits_spending_the_same_points_one_order_gets_them() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512380004", items).await;
    join(&app, &token).await;
    let uid = user_id(&app, &token).await;
    app.app_state
        .loyalty
        .adjust(uid, "seed", 150, "test")
        .await
        .unwrap();
    // Ten submits at once, each asking for all 150 points: the cart becomes one order, and
    // the points are held once.
    let app = Arc::new(app);
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let (app, token, body) = (app.clone(), token.clone(), body.clone());
            tokio::spawn(async move {
                submit_cod(&app, &token, &body, 150)
                    .await
                    .err_code()
                    .to_string()
            })
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        if t.await.unwrap() == "00" {
            ok += 1;
        }
    }
    assert_eq!(ok, 1);
    let account = app.app_state.loyalty.points().account(uid).await.unwrap();
    assert_eq!((account.available, account.held), (0, 150));
    reconcile_clean(&app).await;
}

#[tokio::test]
async fn a_hundred_parallel_credits_of_one_order_credit_once() {
    let app = spawn_app().await;
    let items = json!([{"productCode": "SD001", "quantity": 4}]);
    let (token, body) = ready_to_submit(&app, "13512380005", items).await;
    join(&app, &token).await;
    let uid = user_id(&app, &token).await;
    let answer = submit_cod(&app, &token, &body, 0).await;
    let order_no = answer.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let staff = tablet_login(&app, "SH001").await;
    complete(&app, &staff, &order_no).await;
    let pending = app
        .app_state
        .loyalty
        .points()
        .account(uid)
        .await
        .unwrap()
        .pending;
    assert!(pending > 0);
    let loyalty = Arc::new(app.app_state.loyalty.clone());
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let (l, o) = (loyalty.clone(), order_no.clone());
            tokio::spawn(async move { l.order_completed(&o).await.unwrap() })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), Applied::Already);
    }
    // And at the repository, 100 first credits of a fresh order: one.
    let repo = Arc::new(PointsRepo::new(app.app_state.db.clone()));
    let now = app.clock.now_ms();
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let repo = repo.clone();
            tokio::spawn(async move {
                repo.credit_pending(uid, "X-ONE", 77, now + 1, now + 10_000_000, now)
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut now_count = 0;
    for t in tasks {
        if t.await.unwrap() == Applied::Now {
            now_count += 1;
        }
    }
    assert_eq!(now_count, 1);
    let account = repo.account(uid).await.unwrap();
    assert_eq!(account.pending, pending + 77);
    reconcile_clean(&app).await;
}

#[tokio::test]
async fn a_refund_racing_the_credit_leaves_the_ledger_right() {
    let app = spawn_app().await;
    let uid = member_with(&app, "13512380006", 1).await;
    let repo = Arc::new(PointsRepo::new(app.app_state.db.clone()));
    let now = app.clock.now_ms();
    let mut tasks = Vec::new();
    for i in 0..50 {
        let order = format!("RR{i}");
        let (a, b) = (repo.clone(), repo.clone());
        let (o1, o2) = (order.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            a.credit_pending(uid, &o1, 100, now + 1, now + 10_000_000, now)
                .await
                .map(|_| ())
        }));
        tasks.push(tokio::spawn(async move {
            b.reverse_order(uid, &o2, now + 10_000_000, now)
                .await
                .map(|_| ())
        }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    // Whatever the order, every refunded order ends with nothing pending or available from it.
    let account = repo.account(uid).await.unwrap();
    assert_eq!(
        account,
        Account {
            available: 1,
            pending: 0,
            held: 0,
            owed: 0
        }
    );
    // And maturing afterwards makes nothing available.
    let matured = app.app_state.loyalty.mature_for(uid).await.unwrap();
    app.clock.advance_ms(10);
    assert_eq!(matured, 0);
    assert_eq!(repo.account(uid).await.unwrap().available, 1);
    reconcile_clean(&app).await;
}

/// A model of one member's points: every move in a random order, run against the ledger and
/// against a plain oracle; after each move the balances agree, and at the end the reconcile.
#[tokio::test]
async fn interleaved_moves_agree_with_a_simple_oracle() {
    use rand::{Rng, SeedableRng};
    let app = spawn_app().await;
    let uid = member_with(&app, "13512380007", 1).await;
    let repo = PointsRepo::new(app.app_state.db.clone());
    let base = app.clock.now_ms();
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);

    #[derive(Clone, Copy, PartialEq)]
    enum Lot {
        Pending,
        Available,
        Reversed,
    }
    // The oracle: lots (points, remaining, expiry, state) by order, holds by key with what
    // they took from which lot and their state (0 held, 1 captured, 2 released).
    type OracleLot = (String, i64, i64, i64, Lot);
    type OracleHold = (String, i64, Vec<(usize, i64)>, u8);
    struct Oracle {
        acc: Account,
        lots: Vec<OracleLot>,
        holds: Vec<OracleHold>,
        reversed: Vec<String>,
    }
    let mut o = Oracle {
        acc: Account {
            available: 1,
            ..Account::default()
        },
        // The seed adjustment's lot (expires far away).
        lots: vec![("seed".into(), 1, 1, i64::MAX, Lot::Available)],
        holds: Vec::new(),
        reversed: Vec::new(),
    };
    let mut now = base;
    for step in 0..400 {
        now += rng.gen_range(0..50);
        let n_orders = 12;
        let op = rng.gen_range(0..7);
        match op {
            0 => {
                // credit
                let i = rng.gen_range(0..n_orders);
                let key = format!("M{i}");
                let pts = rng.gen_range(1..300);
                let expiry = base + rng.gen_range(100..30_000);
                repo.credit_pending(uid, &key, pts, now, expiry, now)
                    .await
                    .unwrap();
                let credited = o.lots.iter().any(|l| l.0 == key);
                if !credited && !o.reversed.contains(&key) {
                    o.lots.push((key, pts, pts, expiry, Lot::Pending));
                    o.acc.pending += pts;
                }
            }
            1 => {
                // mature everything due
                for lot in repo.due_lots_of(uid, now).await.unwrap() {
                    repo.mature(lot.id, uid, now).await.unwrap();
                }
                for l in o.lots.iter_mut().filter(|l| l.4 == Lot::Pending) {
                    l.4 = Lot::Available;
                    let pay = o.acc.owed.min(l.1);
                    o.acc.owed -= pay;
                    l.2 = l.1 - pay;
                    o.acc.pending -= l.1;
                    o.acc.available += l.1 - pay;
                }
            }
            2 => {
                // spend-hold
                let key = format!("H{step}");
                let want = rng.gen_range(1..400);
                let got = repo.hold(uid, &key, want, now).await;
                // Spendable: available lots not expired at `now`.
                let mut idx: Vec<usize> = (0..o.lots.len())
                    .filter(|&k| {
                        o.lots[k].4 == Lot::Available && o.lots[k].2 > 0 && o.lots[k].3 > now
                    })
                    .collect();
                idx.sort_by_key(|&k| (o.lots[k].3, k));
                let spendable: i64 = idx.iter().map(|&k| o.lots[k].2).sum();
                if spendable >= want {
                    assert!(matches!(got, Ok(Applied::Now)), "step {step}: {got:?}");
                    let mut left = want;
                    let mut taken = Vec::new();
                    for k in idx {
                        if left == 0 {
                            break;
                        }
                        let t = o.lots[k].2.min(left);
                        o.lots[k].2 -= t;
                        left -= t;
                        taken.push((k, t));
                    }
                    o.acc.available -= want;
                    o.acc.held += want;
                    o.holds.push((key, want, taken, 0));
                } else {
                    assert!(
                        matches!(got, Err(PointsError::NotEnough { .. })),
                        "step {step}: {got:?}"
                    );
                }
            }
            3 | 4 => {
                // capture or release a held hold
                if let Some(h) = o.holds.iter_mut().find(|h| h.3 == 0) {
                    if op == 3 {
                        repo.capture(&h.0, now).await.unwrap();
                        h.3 = 1;
                        o.acc.held -= h.1;
                    } else {
                        repo.give_back(&h.0, now).await.unwrap();
                        h.3 = 2;
                        o.acc.held -= h.1;
                        o.acc.available += h.1;
                        for (k, t) in h.2.clone() {
                            o.lots[k].2 += t;
                        }
                    }
                }
            }
            5 => {
                // refund-reverse an order
                let i = rng.gen_range(0..n_orders);
                let key = format!("M{i}");
                repo.reverse_order(uid, &key, i64::MAX, now).await.unwrap();
                if !o.reversed.contains(&key) {
                    o.reversed.push(key.clone());
                    if let Some(k) = o.lots.iter().position(|l| l.0 == key) {
                        match o.lots[k].4 {
                            Lot::Pending => {
                                o.acc.pending -= o.lots[k].1;
                                o.lots[k].4 = Lot::Reversed;
                                o.lots[k].2 = 0;
                            }
                            Lot::Available => {
                                let pts = o.lots[k].1;
                                let take = pts.min(o.acc.available);
                                // The order's own lot first, then soonest-expiring.
                                let mut left = take;
                                let first = o.lots[k].2.min(left);
                                o.lots[k].2 -= first;
                                left -= first;
                                let mut idx: Vec<usize> = (0..o.lots.len())
                                    .filter(|&j| {
                                        j != k && o.lots[j].4 == Lot::Available && o.lots[j].2 > 0
                                    })
                                    .collect();
                                idx.sort_by_key(|&j| (o.lots[j].3, j));
                                for j in idx {
                                    let t = o.lots[j].2.min(left);
                                    o.lots[j].2 -= t;
                                    left -= t;
                                }
                                assert_eq!(
                                    left, 0,
                                    "step {step}: the oracle could not take {take}"
                                );
                                o.acc.available -= take;
                                o.acc.owed += pts - take;
                            }
                            Lot::Reversed => {}
                        }
                    }
                }
            }
            _ => {
                // expire what is due
                for lot in repo.expired_lots(now, 1000).await.unwrap() {
                    repo.expire_lot(lot.id, uid, now).await.unwrap();
                }
                for l in o
                    .lots
                    .iter_mut()
                    .filter(|l| l.4 == Lot::Available && l.3 <= now)
                {
                    o.acc.available -= l.2;
                    l.2 = 0;
                }
            }
        }
        let got = repo.account(uid).await.unwrap();
        assert_eq!(got, o.acc, "step {step} (op {op})");
        assert!(got.available >= 0 && got.pending >= 0 && got.held >= 0 && got.owed >= 0);
    }
    reconcile_clean(&app).await;
}
