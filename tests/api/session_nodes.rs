#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Sessions are resolved from memory for a few seconds (`accounts::sessions::cached`): a logout
//! on one node ends the session on the others once the bus delivers (with TEST_REDIS_URL), or
//! once their memory of it is older than its max age (nodes without a shared bus). The node
//! that logged out refuses the token at once.

use crate::helpers::spawn_app;
use actors::accounts::sessions::cached::MAX_AGE_MS;
use serde_json::{json, Value};
use std::time::Duration;

async fn me_on(node: &str, token: &str) -> Value {
    reqwest::Client::new()
        .get(format!("{node}/api/v1/me"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_logout_on_one_node_ends_the_session_on_the_other() {
    let a = spawn_app().await;
    let b = a.second_node().await;
    let token = a.register("13512390101").await;
    // Both nodes now trust the session from memory.
    a.get_auth("/api/v1/me", Some(&token)).await.assert_ok();
    assert_eq!(me_on(&b, &token).await["errCode"], "00");

    let out: Value = reqwest::Client::new()
        .post(format!("{b}/api/v1/auth/logout"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(out["errCode"], "00", "{out}");
    assert_eq!(
        me_on(&b, &token).await["errCode"],
        "407",
        "at once where it ended"
    );

    if a.has_redis() {
        // The bus carries it: well under a second, the clock standing still.
        let mut refused = false;
        for _ in 0..500 {
            if a.get_auth("/api/v1/me", Some(&token)).await.err_code() == "407" {
                refused = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(refused, "node A still honours a session ended on node B");
    } else {
        // No bus between them: node A trusts its memory until it is MAX_AGE_MS old (the
        // documented bound), then asks the store again.
        assert_eq!(
            a.get_auth("/api/v1/me", Some(&token)).await.err_code(),
            "00"
        );
        a.clock.advance_ms(MAX_AGE_MS);
        a.get_auth("/api/v1/me", Some(&token))
            .await
            .assert_error(401, "407");
    }
}
