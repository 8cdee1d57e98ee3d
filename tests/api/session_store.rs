#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Sessions live where configured: the database's table, or Redis with TEST_REDIS_URL.

use crate::helpers::{redis_sessions, spawn_app};
use sqlx::Row;

async fn session_rows(app: &crate::helpers::TestApp) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM sessions")
        .fetch_one(app.app_state.db.pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap()
}

#[tokio::test]
async fn sessions_are_kept_in_the_configured_store_and_end_there() {
    let app = spawn_app().await;
    let phone = "13912345681";
    let token = app.register(phone).await;
    let other = app.login(phone, crate::helpers::PASSWORD).await;
    let other = other.assert_ok()["token"].as_str().unwrap().to_string();
    if redis_sessions() {
        assert_eq!(session_rows(&app).await, 0);
        assert_eq!(app.redis_keys("session:*"), 2);
        assert_eq!(app.redis_keys("user-sessions:*"), 1);
    } else {
        assert_eq!(session_rows(&app).await, 2);
    }
    app.post("/api/v1/auth/logout", &serde_json::json!({}), Some(&other))
        .await
        .assert_ok();
    app.get_auth("/api/v1/me", Some(&token)).await.assert_ok();
    app.get_auth("/api/v1/me", Some(&other))
        .await
        .assert_error(401, "407");
    if redis_sessions() {
        assert_eq!(app.redis_keys("session:*"), 1);
    } else {
        assert_eq!(session_rows(&app).await, 1);
    }
    // Closing the account ends the remaining session wherever it lives.
    app.delete("/api/v1/me", Some(&token)).await.assert_ok();
    app.get_auth("/api/v1/me", Some(&token))
        .await
        .assert_error(401, "407");
    assert_eq!(app.redis_keys("session:*"), 0);
}
