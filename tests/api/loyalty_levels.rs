#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The level job (issue 23): levels follow the qualifying spend of the rolling 365 days, up as
//! orders complete and down as old spend leaves the window, each change recorded once, also
//! when several nodes run the job at the same time; an upgrade's gift is granted once per level
//! and cycle however often the member goes up and down.

use crate::helpers::{spawn_app, TestApp};
use actors::domain::loyalty::SPEND_WINDOW_MS;
use actors::domain::money::Fen;
use serde_json::json;

const DAY_MS: i64 = 24 * 3_600_000;

async fn new_member(app: &TestApp, phone: &str) -> i64 {
    let token = app.register(phone).await;
    let version = app.get("/api/v1/members/agreement").await.assert_ok()["version"]
        .as_str()
        .unwrap()
        .to_string();
    app.post(
        "/api/v1/members/join",
        &json!({"agreementVersion": version}),
        Some(&token),
    )
    .await
    .assert_ok();
    let uid = app.get_auth("/api/v1/me", Some(&token)).await.assert_ok()["id"]
        .as_i64()
        .unwrap();
    uid
}

/// Read from the database: the sessions of a year ago have long expired.
async fn level(app: &TestApp, uid: i64) -> i64 {
    let m = app.app_state.loyalty.members().member(uid).await.unwrap();
    m.unwrap().level
}

async fn spend(app: &TestApp, uid: i64, key: &str, fen: i64) {
    app.app_state
        .loyalty
        .members()
        .record_spend(uid, "order", key, Fen(fen), app.clock.now_ms())
        .await
        .unwrap();
}

/// (reason, from, to) of every level change, oldest first.
async fn changes(app: &TestApp, uid: i64) -> Vec<(String, Option<i64>, i64)> {
    let mut h: Vec<_> = app
        .app_state
        .loyalty
        .members()
        .history(uid)
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.reason, c.from_level, c.to_level))
        .collect();
    h.reverse();
    h
}

async fn gifts(app: &TestApp, uid: i64) -> usize {
    app.app_state
        .loyalty
        .gifts()
        .for_user(uid)
        .await
        .unwrap()
        .len()
}

/// `n` runs of the level job at once (as `n` nodes would): the moves they made in all.
async fn review_at_once(jobs: actors::loyalty::Loyalty, n: usize) -> usize {
    let mut runs = tokio::task::JoinSet::new();
    for _ in 0..n {
        let jobs = jobs.clone();
        runs.spawn(async move { jobs.review_levels().await.unwrap() });
    }
    runs.join_all().await.into_iter().sum()
}

#[tokio::test]
async fn the_level_job_moves_members_down_as_spend_leaves_the_window_and_records_each_move_once() {
    let app = spawn_app().await;
    let jobs = &app.app_state.loyalty;
    let uid = new_member(&app, "13512390001").await;
    let steady = new_member(&app, "13512390002").await;
    assert_eq!(level(&app, uid).await, 1);
    let welcome_gifts = gifts(&app, uid).await;

    // ¥2,000 spent now: the job raises the member to Gold (3) and grants the upgrade gift.
    spend(&app, uid, "old-1", 200_000).await;
    assert_eq!(jobs.review_levels().await.unwrap(), 1);
    assert_eq!(level(&app, uid).await, 3);
    assert_eq!(gifts(&app, uid).await, welcome_gifts + 1);

    // Ten months on, ¥600 more (Silver on its own); the steady member spends ¥600 every month.
    for month in 0..12 {
        app.clock.advance_ms(30 * DAY_MS);
        spend(&app, steady, &format!("steady-{month}"), 60_000).await;
        if month == 9 {
            spend(&app, uid, "recent-1", 60_000).await;
        }
    }
    // A year and a little after the ¥2,000: it has left the window, the ¥600 has not.
    app.clock
        .advance_ms(SPEND_WINDOW_MS - 360 * DAY_MS + DAY_MS);
    // Several nodes run the job at once: each member moves once.
    let moved = review_at_once(app.app_state.loyalty.clone(), 8).await;
    assert_eq!(level(&app, uid).await, 2, "down to Silver");
    assert_eq!(
        changes(&app, uid).await,
        vec![
            ("join".into(), None, 1),
            ("upgrade".into(), Some(1), 3),
            ("downgrade".into(), Some(3), 2),
        ]
    );
    // The steady member's spend in the window (¥6,000 over the last year … at least ¥5,000)
    // raised them to Black once; counting both members, exactly two moves were made.
    assert_eq!(level(&app, steady).await, 4);
    assert_eq!(
        moved, 2,
        "one move per member, however many nodes ran the job"
    );
    // Run again: nothing to do.
    assert_eq!(jobs.review_levels().await.unwrap(), 0);

    // All spend gone: down to the first level, never below it.
    app.clock.advance_ms(SPEND_WINDOW_MS);
    jobs.review_levels().await.unwrap();
    assert_eq!(level(&app, uid).await, 1);
    assert_eq!(jobs.review_levels().await.unwrap(), 0);
    assert_eq!(level(&app, uid).await, 1);

    // Back up to Gold two calendar years later: a new cycle, so one new gift, granted once
    // however many nodes run the job.
    let before = gifts(&app, uid).await;
    spend(&app, uid, "again-1", 200_000).await;
    assert_eq!(review_at_once(app.app_state.loyalty.clone(), 4).await, 1);
    assert_eq!(level(&app, uid).await, 3);
    assert_eq!(gifts(&app, uid).await, before + 1);
}
