#![allow(clippy::unwrap_used, clippy::expect_used)]
//! SMS codes through the API: cooldown, expiry, one use, one scene, wrong tries, send limits,
//! and the sandbox outbox they are read from.

use crate::helpers::spawn_app;
use serde_json::json;

const MINUTE: i64 = 60_000;

#[tokio::test]
async fn codes_cool_down_expire_and_work_once_for_their_scene() {
    let app = spawn_app().await;
    let phone = "13912345606";
    app.send_code(phone, "login").await.assert_ok();
    app.clock.advance_ms(20_000);
    let early = app.send_code(phone, "login").await;
    early.assert_error(429, "429");
    assert_eq!(early.data()["retryAfterSeconds"], 40);
    assert!(early.err_msg().starts_with("请求频繁，请稍后再试"));
    assert!(early.err_msg().contains("40"), "{}", early.err_msg());
    assert_eq!(early.headers["retry-after"], "40");
    // The cooldown is per scene.
    app.send_code(phone, "register").await.assert_ok();
    let outbox = app.outbox(phone).await;
    assert_eq!(outbox.len(), 2);

    let sms_login =
        |code: &str| json!({"cellPhone": phone, "smsCode": code, "privacyAgreed": true});
    // The newest message is the register code: it does not log in.
    let register_code = crate::helpers::code_in(&outbox[0]);
    let login_code = crate::helpers::code_in(&outbox[1]);
    let wrong_scene = app
        .post("/api/v1/auth/login/sms", &sms_login(&register_code), None)
        .await;
    wrong_scene.assert_error(400, "400");

    // Past five minutes the login code is dead.
    app.clock.advance_ms(5 * MINUTE);
    let expired = app
        .post("/api/v1/auth/login/sms", &sms_login(&login_code), None)
        .await;
    expired.assert_error(400, "400");
    assert_eq!(expired.err_msg(), "验证码已失效，请重新获取");

    // A new code replaces the old one and works exactly once.
    let first = app.fresh_code(phone, "login").await;
    let second = app.fresh_code(phone, "login").await;
    if first != second {
        app.post("/api/v1/auth/login/sms", &sms_login(&first), None)
            .await
            .assert_error(400, "400");
    }
    app.post("/api/v1/auth/login/sms", &sms_login(&second), None)
        .await
        .assert_ok();
    app.post("/api/v1/auth/login/sms", &sms_login(&second), None)
        .await
        .assert_error(400, "400");
}

#[tokio::test]
async fn a_code_dies_after_five_wrong_tries() {
    let app = spawn_app().await;
    let phone = "13912345607";
    let code = app.fresh_code(phone, "login").await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let try_code = |c: &str| json!({"cellPhone": phone, "smsCode": c, "privacyAgreed": true});
    for left in (1..=4).rev() {
        let answer = app
            .post("/api/v1/auth/login/sms", &try_code(wrong), None)
            .await;
        answer.assert_error(400, "400");
        assert_eq!(answer.err_msg(), format!("验证码错误，还可尝试{left}次"));
    }
    let last = app
        .post("/api/v1/auth/login/sms", &try_code(wrong), None)
        .await;
    assert_eq!(last.err_msg(), "验证码错误次数过多，请重新获取");
    let right_too_late = app
        .post("/api/v1/auth/login/sms", &try_code(&code), None)
        .await;
    right_too_late.assert_error(400, "400");
    assert_eq!(right_too_late.err_msg(), "验证码已失效，请重新获取");
}

#[tokio::test]
async fn send_limits_per_phone_per_day_and_per_client_per_hour() {
    let app = spawn_app().await;
    let phone = "13912345608";
    for _ in 0..10 {
        app.clock.advance_ms(MINUTE + 1);
        app.send_code(phone, "login").await.assert_ok();
    }
    app.clock.advance_ms(MINUTE + 1);
    let over = app.send_code(phone, "reset").await;
    over.assert_error(429, "429");
    assert_eq!(over.err_msg(), "今日验证码发送次数已达上限，请明天再试");
    // 12:11 China time now; the next day starts in under 12 hours.
    app.clock.advance_ms(12 * 60 * MINUTE);
    app.send_code(phone, "login").await.assert_ok();

    let from = |ip: &'static str, n: u32| {
        let phone = format!("1371234{n:04}");
        let app = &app;
        async move {
            app.call(
                reqwest::Method::POST,
                "/api/v1/auth/sms-code",
                Some(&json!({"cellPhone": phone, "scene": "login"})),
                None,
                &[("X-Forwarded-For", ip)],
            )
            .await
        }
    };
    for n in 0..20 {
        from("203.0.113.7", n).await.assert_ok();
    }
    from("203.0.113.7", 20).await.assert_error(429, "429");
    from("203.0.113.8", 21).await.assert_ok();
    app.clock.advance_ms(60 * MINUTE + 1);
    from("203.0.113.7", 22).await.assert_ok();
}

#[tokio::test]
async fn the_dev_outbox_lists_newest_first_and_checks_the_phone() {
    let app = spawn_app().await;
    let phone = "13912345616";
    app.send_code(phone, "login").await.assert_ok();
    app.clock.advance_ms(MINUTE);
    app.send_code(phone, "login").await.assert_ok();
    let list = app
        .get(&format!("/api/v1/dev/sms-outbox?cellPhone={phone}"))
        .await;
    let list = list.assert_ok().as_array().unwrap().clone();
    assert_eq!(list.len(), 2);
    assert!(list[0]["sentAt"].as_i64() > list[1]["sentAt"].as_i64());
    app.get("/api/v1/dev/sms-outbox?cellPhone=123")
        .await
        .assert_error(400, "400");
    let en = app
        .call(
            reqwest::Method::POST,
            "/api/v1/auth/sms-code",
            Some(&json!({"cellPhone": phone, "scene": "signup"})),
            None,
            &[("Accept-Language", "en")],
        )
        .await;
    assert_eq!(en.err_msg(), "scene must be register, login or reset");
}
