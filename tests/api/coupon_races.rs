#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Coupons under concurrency (issue 24): 200 claims against 50 left, 50 claims of one user
//! against the per-user limit, 1,000 checkouts locking one coupon, the give-back outbox run
//! twice, concurrently and after a crash, and a model test over random interleavings of
//! issue, lock, use, return, expire and transfer checking the invariants after every step.
//! On SQLite, and on PostgreSQL with TEST_DATABASE_URL.

use crate::helpers::{spawn_app, TestApp};
use actors::coupons::CollectError;
use actors::db::coupons::{give_back_in, CouponLockError, CouponRepo, IssueSource};
use actors::db::users::UserRepo;
use actors::domain::accounts::phone::Phone;
use actors::domain::loyalty::coupon::{CouponKind, CouponStatus, CouponTemplate, Validity};
use actors::domain::money::Fen;
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Arc;

/// A plain cash-off template for the races.
pub fn template(code: &str, total: Option<i64>, per_user: Option<i64>) -> CouponTemplate {
    CouponTemplate {
        template_code: code.into(),
        name: actors::domain::catalogue::Bilingual {
            cn: "测试券".into(),
            en: "Test coupon".into(),
        },
        kind: CouponKind::CashOff {
            threshold: Fen(0),
            off: Fen(500),
        },
        scope: Default::default(),
        effective_rule: None,
        channels: vec![],
        stack_group: None,
        excludes: vec![],
        total_limit: total,
        per_user_limit: per_user,
        validity: Validity::AfterIssue { days: 7 },
        collectable: true,
        transferable: true,
        sort: 0,
    }
}

/// `n` accounts (no password: created as the SMS sign-up does), their ids.
pub async fn users(app: &TestApp, prefix: &str, n: usize) -> Vec<i64> {
    let repo = UserRepo::new(app.app_state.db.clone());
    let now = app.clock.now_ms();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let phone = Phone::parse(&format!("{prefix}{i:04}")).unwrap();
        ids.push(repo.create(&phone, None, now).await.unwrap().unwrap());
    }
    ids
}

/// A bare order row, as a checkout writes it, in `tx`.
pub async fn order_row(
    tx: &mut actors::db::points::Tx,
    order_no: &str,
    user_id: i64,
    state: i64,
    now: i64,
) {
    sqlx::query(
        "INSERT INTO orders (order_no, user_id, store_code, order_type, state, progress, \
         payment_type, is_book, order_time, product_amount, discount_amount, delivery_fee, \
         order_amount, doc, created_at, updated_at) \
         VALUES ($1, $2, 'SH001', 0, $3, 99, 'online', 0, $4, 0, 0, 0, 0, '{}', $4, $4)",
    )
    .bind(order_no)
    .bind(user_id)
    .bind(state)
    .bind(now)
    .execute(&mut **tx)
    .await
    .unwrap();
}

/// A checkout: the order row and the coupon lock in one transaction, committed only if the
/// lock held.
pub async fn checkout(
    app: &TestApp,
    user_id: i64,
    code: &str,
    order_no: &str,
) -> Result<(), CouponLockError> {
    let now = app.clock.now_ms();
    let mut tx = app.app_state.db.pool().begin().await.unwrap();
    order_row(&mut tx, order_no, user_id, 5, now).await;
    CouponRepo::lock_in(&mut tx, user_id, &[code.to_string()], order_no, now).await?;
    tx.commit().await.unwrap();
    Ok(())
}

/// The invariants: every coupon's events chain from nothing to its status (each event leaves
/// the status the previous one reached, along an allowed move); a locked coupon names its
/// order; the counters equal the rows they count.
pub async fn check_invariants(app: &TestApp) {
    let pool = app.app_state.db.pool();
    let repo = app.app_state.coupons.repo();
    let coupons = sqlx::query("SELECT coupon_code, status, order_no FROM coupons")
        .fetch_all(pool)
        .await
        .unwrap();
    for c in &coupons {
        let code: String = c.get("coupon_code");
        let status = CouponStatus::parse(&c.get::<String, _>("status")).unwrap();
        let events = repo.events(&code).await.unwrap();
        let mut at: Option<CouponStatus> = None;
        for e in &events {
            assert_eq!(e.from_status, at, "{code}: {events:?}");
            if let Some(from) = at {
                assert!(from.can_move_to(e.to_status), "{code}: {events:?}");
            }
            at = Some(e.to_status);
        }
        assert_eq!(at, Some(status), "{code}: events replay to the status");
        if status == CouponStatus::Locked {
            assert!(c.get::<Option<String>, _>("order_no").is_some());
        }
    }
    for t in repo.templates().await.unwrap() {
        let rows: i64 = sqlx::query(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM coupons WHERE template_code = $1 AND source <> 'transfer'",
        )
        .bind(&t.template.template_code)
        .fetch_one(pool)
        .await
        .unwrap()
        .get("n");
        assert_eq!(
            t.issued, rows,
            "{}: the counter equals the rows",
            t.template.template_code
        );
        if let Some(limit) = t.template.total_limit {
            assert!(t.issued <= limit);
        }
    }
    let per_user = sqlx::query(
        "SELECT u.template_code, u.user_id, u.issued, \
         (SELECT CAST(COUNT(*) AS BIGINT) FROM coupons c WHERE c.template_code = u.template_code \
          AND c.user_id = u.user_id AND c.source <> 'transfer') AS n FROM coupon_user_counts u",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for r in &per_user {
        assert_eq!(r.get::<i64, _>("issued"), r.get::<i64, _>("n"));
    }
}

#[tokio::test]
async fn two_hundred_claims_against_fifty_left_issue_exactly_fifty() {
    let app = spawn_app().await;
    let repo = app.app_state.coupons.repo();
    app.save_coupon_template(&template("RACE50", Some(60), None))
        .await;
    let ids = users(&app, "1351239", 201).await;
    // Ten issued before: fifty left.
    for _ in 0..10 {
        app.issue_coupon("RACE50", ids[200], IssueSource::Collect, None)
            .await;
    }
    let coupons = Arc::new(app.app_state.coupons.clone());
    let tasks: Vec<_> = ids[..200]
        .iter()
        .map(|&uid| {
            let coupons = coupons.clone();
            tokio::spawn(async move { coupons.collect(uid, "RACE50").await })
        })
        .collect();
    let (mut won, mut gone) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => won += 1,
            Err(CollectError::SoldOut) => gone += 1,
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!((won, gone), (50, 150), "{}", crate::helpers::backend());
    let t = repo.template("RACE50").await.unwrap().unwrap();
    assert_eq!((t.issued, t.remaining()), (60, Some(0)));
    check_invariants(&app).await;
}

#[tokio::test]
async fn fifty_parallel_claims_of_one_user_stop_at_the_per_user_limit() {
    let app = spawn_app().await;
    app.save_coupon_template(&template("LIMIT3", None, Some(3)))
        .await;
    let uid = users(&app, "1351238", 1).await[0];
    let coupons = Arc::new(app.app_state.coupons.clone());
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let coupons = coupons.clone();
            tokio::spawn(async move { coupons.collect(uid, "LIMIT3").await })
        })
        .collect();
    let (mut won, mut limited) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => won += 1,
            Err(CollectError::UserLimit) => limited += 1,
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!((won, limited), (3, 47));
    check_invariants(&app).await;
}

#[tokio::test]
async fn a_thousand_checkouts_locking_one_coupon_one_holds_it() {
    let app = spawn_app().await;
    let repo = app.app_state.coupons.repo();
    app.save_coupon_template(&template("ONCE", None, None))
        .await;
    let uid = users(&app, "1351237", 1).await[0];
    let code = app
        .issue_coupon("ONCE", uid, IssueSource::Collect, None)
        .await;
    let app = Arc::new(app);
    let tasks: Vec<_> = (0..1000)
        .map(|i| {
            let (app, code) = (app.clone(), code.clone());
            tokio::spawn(async move { checkout(&app, uid, &code, &format!("RACE{i:04}")).await })
        })
        .collect();
    let (mut won, mut taken) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(()) => won += 1,
            Err(CouponLockError::Taken(c)) if c == code => taken += 1,
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!((won, taken), (1, 999), "{}", crate::helpers::backend());
    // The one order that committed is the one holding it; no other order row survived.
    let c = repo.get(&code).await.unwrap().unwrap();
    assert_eq!(c.status, CouponStatus::Locked);
    let orders: i64 =
        sqlx::query("SELECT CAST(COUNT(*) AS BIGINT) AS n FROM orders WHERE order_no LIKE 'RACE%'")
            .fetch_one(app.app_state.db.pool())
            .await
            .unwrap()
            .get("n");
    assert_eq!(orders, 1);
    assert_eq!(
        repo.of_order(c.order_no.as_deref().unwrap())
            .await
            .unwrap()
            .len(),
        1
    );
    check_invariants(&app).await;
}

#[tokio::test]
async fn a_give_back_retried_after_a_crash_and_run_concurrently_returns_once() {
    let app = spawn_app().await;
    let repo = app.app_state.coupons.repo();
    let now = app.clock.now_ms();
    app.save_coupon_template(&template("BACK", None, None))
        .await;
    let uid = users(&app, "1351236", 1).await[0];
    let code = app
        .issue_coupon("BACK", uid, IssueSource::Collect, None)
        .await;
    checkout(&app, uid, &code, "CRASH1").await.unwrap();
    // The order closes: its give-back is on the outbox (due in an hour, so the app's own sweep,
    // every 500 ms in tests, leaves it to us); a worker starts it and dies before committing.
    repo.enqueue_return("CRASH1", "cancelled", now + 3_600_000)
        .await
        .unwrap();
    {
        let mut tx = app.app_state.db.pool().begin().await.unwrap();
        let out = give_back_in(&mut tx, "CRASH1", "cancelled", now)
            .await
            .unwrap();
        assert_eq!(out.returned, 1);
        drop(tx); // the crash: nothing committed
    }
    assert_eq!(
        repo.get(&code).await.unwrap().unwrap().status,
        CouponStatus::Locked
    );
    sqlx::query("UPDATE orders SET state = 3 WHERE order_no = 'CRASH1'")
        .execute(app.app_state.db.pool())
        .await
        .unwrap();
    // The retries: ten workers at once, the sweep, and the hook again.
    let coupons = Arc::new(app.app_state.coupons.clone());
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let c = coupons.clone();
        tasks.push(tokio::spawn(async move {
            c.repo()
                .process_return("CRASH1", now)
                .await
                .unwrap()
                .returned
        }));
    }
    let mut returned = 0;
    for t in tasks {
        returned += t.await.unwrap();
    }
    // At most one worker gave it back (the app's own sweep, every 500 ms in tests, may have
    // been first); the events below say it happened exactly once.
    assert!(returned <= 1, "{returned} workers gave it back");
    coupons.sweep().await.unwrap();
    coupons.order_moved("CRASH1", 3).await;
    let events = repo.events(&code).await.unwrap();
    let moves: Vec<_> = events.iter().map(|e| e.to_status).collect();
    assert_eq!(
        moves,
        [
            CouponStatus::Issued,
            CouponStatus::Locked,
            CouponStatus::Returned
        ]
    );
    // Usable again: another order may lock it.
    checkout(&app, uid, &code, "CRASH2").await.unwrap();
    check_invariants(&app).await;
}

#[tokio::test]
async fn the_sweep_gives_back_what_a_closed_order_still_locks_and_uses_what_a_paid_one_does() {
    let app = spawn_app().await;
    let repo = app.app_state.coupons.repo();
    app.save_coupon_template(&template("SWEEP", None, None))
        .await;
    let uid = users(&app, "1351235", 1).await[0];
    let mut codes = Vec::new();
    for (i, state) in [(0, 9), (1, 6), (2, 5)] {
        let code = app
            .issue_coupon("SWEEP", uid, IssueSource::Collect, None)
            .await;
        checkout(&app, uid, &code, &format!("SW{i}")).await.unwrap();
        // The order moved without its hook running (a node died after the move).
        sqlx::query("UPDATE orders SET state = $1 WHERE order_no = $2")
            .bind(state)
            .bind(format!("SW{i}"))
            .execute(app.app_state.db.pool())
            .await
            .unwrap();
        codes.push(code);
    }
    // This sweep, or the app's own (every 500 ms in tests): the outcome is what counts.
    app.app_state.coupons.sweep().await.unwrap();
    let status = |i: usize| {
        let (repo, code) = (repo.clone(), codes[i].clone());
        async move { repo.get(&code).await.unwrap().unwrap().status }
    };
    assert_eq!(
        status(0).await,
        CouponStatus::Returned,
        "expired unpaid: back"
    );
    assert_eq!(status(1).await, CouponStatus::Used, "paid: used");
    assert_eq!(status(2).await, CouponStatus::Locked, "still unpaid: held");
    // Past its validity, a coupon given back is expired instead, and the sweep expires
    // usable coupons past theirs.
    app.clock.advance_ms(8 * 86_400_000);
    app.app_state.coupons.order_moved("SW2", 9).await;
    assert_eq!(status(2).await, CouponStatus::Expired);
    app.app_state.coupons.sweep().await.unwrap();
    assert_eq!(status(0).await, CouponStatus::Expired);
    check_invariants(&app).await;
}

/// The model: a few users and coupons, every move in a random order against a plain oracle of
/// each coupon's status; after every step the statuses agree and the invariants hold.
#[tokio::test]
async fn random_interleavings_keep_every_coupon_in_one_state() {
    use rand::{Rng, SeedableRng};
    let app = spawn_app().await;
    let repo = app.app_state.coupons.repo();
    app.save_coupon_template(&template("MODEL", Some(25), Some(10)))
        .await;
    let ids = users(&app, "1351234", 3).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(24);
    // The oracle: coupon code → (owner, status, order, valid_to).
    let mut oracle: HashMap<String, (i64, CouponStatus, Option<String>, i64)> = HashMap::new();
    let mut issued = 0i64;
    let mut orders = 0;
    // Every state must have been reached, or the walk proved little.
    let mut seen = std::collections::HashSet::new();
    for step in 0..300 {
        // Up to three hours a step: 300 steps pass the 7-day validity twice or so.
        app.clock.advance_ms(rng.gen_range(0..3 * 3_600_000));
        let now = app.clock.now_ms();
        let mut codes: Vec<String> = oracle.keys().cloned().collect();
        codes.sort();
        let pick = |rng: &mut rand::rngs::StdRng| {
            (!codes.is_empty()).then(|| codes[rng.gen_range(0..codes.len())].clone())
        };
        match rng.gen_range(0..7) {
            0 => {
                let uid = ids[rng.gen_range(0..ids.len())];
                let got = repo
                    .issue("MODEL", uid, IssueSource::Collect, None, now)
                    .await;
                match got {
                    Ok(i) => {
                        issued += 1;
                        let c = i.coupon();
                        oracle.insert(
                            c.coupon_code.clone(),
                            (uid, CouponStatus::Issued, None, c.valid_to),
                        );
                    }
                    Err(e) => assert!(
                        issued >= 25 || matches!(e, actors::db::coupons::IssueError::UserLimit),
                        "step {step}: {e}"
                    ),
                }
            }
            1 => {
                if let Some(code) = pick(&mut rng) {
                    let (uid, status, _, to) = oracle[&code].clone();
                    orders += 1;
                    let order_no = format!("MO{orders}");
                    let got = checkout(&app, uid, &code, &order_no).await;
                    let can = status.is_spendable() && now < to;
                    assert_eq!(got.is_ok(), can, "step {step}: lock {status:?}");
                    if can {
                        oracle.insert(code, (uid, CouponStatus::Locked, Some(order_no), to));
                    }
                }
            }
            2 | 3 => {
                // the order is paid (use) or closes (give back)
                if let Some(code) = pick(&mut rng) {
                    let (uid, status, order, to) = oracle[&code].clone();
                    let Some(order_no) = order else { continue };
                    if rng.gen_bool(0.5) {
                        app.app_state.coupons.order_moved(&order_no, 6).await;
                        if status == CouponStatus::Locked {
                            oracle.insert(code, (uid, CouponStatus::Used, Some(order_no), to));
                        }
                    } else {
                        // Closed, or refunded after payment: the outbox, run twice.
                        let reason = if status == CouponStatus::Used {
                            "refund"
                        } else {
                            "cancelled"
                        };
                        let _ = app
                            .app_state
                            .coupons
                            .give_back(&order_no, reason)
                            .await
                            .unwrap();
                        app.app_state
                            .coupons
                            .repo()
                            .process_return(&order_no, now)
                            .await
                            .unwrap();
                        if matches!(status, CouponStatus::Locked | CouponStatus::Used) {
                            let back = if now < to {
                                CouponStatus::Returned
                            } else {
                                CouponStatus::Expired
                            };
                            let keep = (back == CouponStatus::Expired).then_some(order_no);
                            oracle.insert(code, (uid, back, keep, to));
                        }
                    }
                }
            }
            4 => {
                app.app_state.coupons.sweep().await.unwrap();
                for c in oracle.values_mut() {
                    if c.1.is_spendable() && c.3 <= now {
                        c.1 = CouponStatus::Expired;
                    }
                }
            }
            _ => {
                if let Some(code) = pick(&mut rng) {
                    let (uid, status, _, to) = oracle[&code].clone();
                    let to_user = ids[rng.gen_range(0..ids.len())];
                    let got = repo.transfer(&code, uid, to_user, true, now).await;
                    let can = to_user != uid && status.is_spendable() && now < to;
                    assert_eq!(got.is_ok(), can, "step {step}: transfer {status:?} {got:?}");
                    if let Ok(new) = got {
                        oracle.insert(code, (uid, CouponStatus::Transferred, None, to));
                        oracle.insert(new.coupon_code, (to_user, CouponStatus::Issued, None, to));
                    }
                }
            }
        }
        for (code, (uid, status, _, to)) in oracle.iter_mut() {
            let got = repo.get(code).await.unwrap().unwrap();
            // The app's own sweep (every 500 ms in tests) expires what is past its window
            // between our steps: the only move the oracle did not make itself.
            if status.is_spendable() && *to <= now && got.status == CouponStatus::Expired {
                *status = CouponStatus::Expired;
            }
            seen.insert(*status);
            assert_eq!(
                (got.user_id, got.status),
                (*uid, *status),
                "step {step}: {code}"
            );
        }
        if step % 25 == 0 {
            check_invariants(&app).await;
        }
    }
    check_invariants(&app).await;
    let t = repo.template("MODEL").await.unwrap().unwrap();
    assert_eq!(t.issued, issued);
    assert_eq!(
        seen.len(),
        CouponStatus::ALL.len(),
        "states reached: {seen:?}"
    );
}
