#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Tablet staff login: the demo `manager` / 246810 at every store, the PIN throttle, and that
//! staff and customer tokens do not open each other's doors.

use crate::helpers::spawn_app;
use serde_json::json;

#[tokio::test]
async fn the_demo_manager_logs_in_and_tokens_stay_in_their_lane() {
    let app = spawn_app().await;
    let login = app
        .post(
            "/api/v1/tablet/login",
            &json!({"storeCode": "SH001", "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    let login = login.assert_ok().clone();
    assert_eq!(login["storeCode"], "SH001");
    assert_eq!(login["storeName"], "人民广场旗舰店");
    let staff = login["token"].as_str().unwrap().to_string();
    // Another store's manager has their own account.
    let other = app
        .post(
            "/api/v1/tablet/login",
            &json!({"storeCode": "BJ001", "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    assert_eq!(other.assert_ok()["storeCode"], "BJ001");

    // A staff token is not a customer's, and the other way round.
    app.get_auth("/api/v1/me", Some(&staff))
        .await
        .assert_error(401, "407");
    let customer = app.register("13512360001").await;
    app.post("/api/v1/tablet/logout", &json!({}), Some(&customer))
        .await
        .assert_error(401, "407");
    app.post("/api/v1/tablet/logout", &json!({}), None)
        .await
        .assert_error(401, "401");
    app.post("/api/v1/tablet/logout", &json!({}), Some(&staff))
        .await
        .assert_ok();
    app.post("/api/v1/tablet/logout", &json!({}), Some(&staff))
        .await
        .assert_error(401, "407");
}

#[tokio::test]
async fn wrong_pins_are_refused_and_then_locked() {
    let app = spawn_app().await;
    let wrong = json!({"storeCode": "SH002", "staffCode": "manager", "pin": "000000"});
    for _ in 0..5 {
        let a = app.post("/api/v1/tablet/login", &wrong, None).await;
        a.assert_error(400, "400");
        assert_eq!(a.err_msg(), "门店、工号或PIN错误");
    }
    let locked = app
        .post(
            "/api/v1/tablet/login",
            &json!({"storeCode": "SH002", "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    locked.assert_error(429, "429");
    // Unknown staff answer like a wrong PIN: nothing tells which part was wrong.
    let unknown = app
        .post(
            "/api/v1/tablet/login",
            &json!({"storeCode": "SH003", "staffCode": "nobody", "pin": "246810"}),
            None,
        )
        .await;
    assert_eq!(unknown.err_msg(), "门店、工号或PIN错误");
}
