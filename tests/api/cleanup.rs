#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The periodic account cleanup, called directly with the manual clock moved past each
//! table's limit: failed logins after their window, SMS codes a day after they died, sessions
//! once expired (by Redis itself when sessions live there).

use crate::helpers::{redis_sessions, spawn_app, TestApp};
use actors::accounts::cleanup::{sweep, Swept};
use sqlx::Row;

const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;

async fn rows(app: &TestApp, table: &str) -> i64 {
    sqlx::query(&format!("SELECT COUNT(*) AS n FROM {table}"))
        .fetch_one(app.app_state.db.pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap()
}

async fn sweep_now(app: &TestApp) -> Swept {
    sweep(
        &app.app_state.db,
        app.app_state.sessions(),
        app.clock.now_ms(),
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn cleanup_deletes_each_kind_of_row_once_it_is_dead() {
    let app = spawn_app().await;
    let phone = "13912345691";
    app.register(phone).await; // one SMS code, one session
    app.login(phone, "Wrong12345")
        .await
        .assert_error(400, "400");
    let in_db = i64::from(!redis_sessions());
    assert_eq!(
        (
            rows(&app, "sms_codes").await,
            rows(&app, "login_failures").await
        ),
        (1, 1)
    );
    assert_eq!(rows(&app, "sessions").await, in_db);
    assert_eq!(
        sweep_now(&app).await,
        Swept::default(),
        "nothing is dead yet"
    );

    // Just inside the lock window the failure still counts; just past it, it goes.
    app.clock.advance_ms(15 * MINUTE - 1);
    assert_eq!(sweep_now(&app).await.login_failures, 0);
    app.clock.advance_ms(1);
    let swept = sweep_now(&app).await;
    assert_eq!((swept.login_failures, swept.sms_codes), (1, 0));
    assert_eq!(rows(&app, "login_failures").await, 0);

    // The code died 5 minutes after it was sent; it is kept a day more for the send limits.
    app.clock.advance_ms(DAY);
    let swept = sweep_now(&app).await;
    assert_eq!((swept.sms_codes, swept.sessions), (1, 0));
    assert_eq!(rows(&app, "sms_codes").await, 0);

    // Sessions last 30 days from their last use.
    app.clock.advance_ms(30 * DAY);
    let swept = sweep_now(&app).await;
    assert_eq!(swept.sessions, u64::try_from(in_db).unwrap());
    assert_eq!(rows(&app, "sessions").await, 0);
    assert_eq!(
        sweep_now(&app).await,
        Swept::default(),
        "sweeping twice is harmless"
    );
}
