#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Accounts through the API as the app uses it: codes are read from the sandbox outbox.

use crate::helpers::{spawn_app, TestApp, PASSWORD};
use actors::db::consents::ConsentRepo;
use actors::db::users::UserRepo;
use actors::domain::accounts::Decision;
use serde_json::{json, Value};

const MINUTE: i64 = 60_000;

async fn me(app: &TestApp, token: &str) -> Value {
    app.get_auth("/api/v1/me", Some(token))
        .await
        .assert_ok()
        .clone()
}

fn fields(answer: &crate::helpers::Answer) -> Vec<String> {
    answer
        .data()
        .as_array()
        .unwrap_or_else(|| panic!("no field list: {}", answer.body))
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn register_then_me_shows_a_masked_guest() {
    let app = spawn_app().await;
    let phone = "13912345601";
    let token = app.register(phone).await;
    let answer = app.get_auth("/api/v1/me", Some(&token)).await;
    let me = answer.assert_ok();
    assert_eq!(me["cellPhone"], "139****5601");
    assert!(
        !answer.body.to_string().contains(phone),
        "unmasked phone in {}",
        answer.body
    );
    assert_eq!(me["userKind"], "guest");
    assert_eq!(me["isLoyalty"], false);
    assert_eq!(me["anonymousFlag"], 0);
    assert_eq!(me["userfulPoint"], 0);
    assert_eq!(me["hasPassword"], true);
    assert_eq!(me["consentRequired"], false);
    assert_eq!(me["addressId"], Value::Null);
    // 14 years before 2026-11-23.
    assert_eq!(me["defaultBirthday"], "2012-11-23");
}

#[tokio::test]
async fn protected_calls_need_a_live_token() {
    let app = spawn_app().await;
    app.get_auth("/api/v1/me", None)
        .await
        .assert_error(401, "401");
    let junk = app.get_auth("/api/v1/me", Some("not-a-token")).await;
    junk.assert_error(401, "407");
    assert_eq!(junk.err_msg(), "登录过期!");

    let phone = "13912345602";
    let first = app.register(phone).await;
    let second = app.login(phone, PASSWORD).await.assert_ok()["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(first, second);
    app.post("/api/v1/auth/logout", &json!({}), Some(&first))
        .await
        .assert_ok();
    app.get_auth("/api/v1/me", Some(&first))
        .await
        .assert_error(401, "407");
    // Logging out one device leaves the other logged in.
    me(&app, &second).await;
    app.post("/api/v1/auth/logout", &json!({}), None)
        .await
        .assert_error(401, "401");
}

#[tokio::test]
async fn sessions_expire_after_thirty_idle_days_and_slide_when_used() {
    let app = spawn_app().await;
    let token = app.register("13912345603").await;
    app.clock.advance_ms(20 * 24 * 60 * MINUTE);
    me(&app, &token).await; // used on day 20: good for 30 more days
    app.clock.advance_ms(29 * 24 * 60 * MINUTE);
    me(&app, &token).await;
    app.clock.advance_ms(31 * 24 * 60 * MINUTE);
    app.get_auth("/api/v1/me", Some(&token))
        .await
        .assert_error(401, "407");
}

#[tokio::test]
async fn registration_checks_every_field_and_the_privacy_tick() {
    let app = spawn_app().await;
    let bad = app
        .post(
            "/api/v1/auth/register",
            &json!({"cellPhone": "123", "smsCode": "12", "password": "short"}),
            None,
        )
        .await;
    bad.assert_error(400, "400");
    assert_eq!(
        fields(&bad),
        ["cellPhone", "smsCode", "password", "privacyAgreed"]
    );
    assert_eq!(bad.err_msg(), "手机号格式不正确");

    // Validation does not use up the code.
    let phone = "13912345604";
    let code = app.fresh_code(phone, "register").await;
    let body = |agreed: bool| json!({"cellPhone": phone, "smsCode": code, "password": PASSWORD, "privacyAgreed": agreed});
    let refused = app.post("/api/v1/auth/register", &body(false), None).await;
    assert_eq!(fields(&refused), ["privacyAgreed"]);
    let ok = app.post("/api/v1/auth/register", &body(true), None).await;
    assert_eq!(ok.assert_ok()["newUser"], true);

    // The same phone again: a valid code, then 409.
    let code = app.fresh_code(phone, "register").await;
    let again = app
        .post(
            "/api/v1/auth/register",
            &json!({"cellPhone": phone, "smsCode": code, "password": PASSWORD, "privacyAgreed": true}),
            None,
        )
        .await;
    again.assert_error(409, "409");
}

#[tokio::test]
async fn sms_login_registers_a_new_phone_with_consent() {
    let app = spawn_app().await;
    let phone = "13912345605";
    let code = app.fresh_code(phone, "login").await;
    let login = |code: String, agreed: Option<bool>| {
        let mut body = json!({"cellPhone": phone, "smsCode": code});
        if let Some(a) = agreed {
            body["privacyAgreed"] = json!(a);
        }
        body
    };
    let no_tick = app
        .post("/api/v1/auth/login/sms", &login(code, None), None)
        .await;
    no_tick.assert_error(400, "400");
    assert_eq!(fields(&no_tick), ["privacyAgreed"]);

    let code = app.fresh_code(phone, "login").await;
    let answer = app
        .post("/api/v1/auth/login/sms", &login(code, Some(true)), None)
        .await;
    let data = answer.assert_ok();
    assert_eq!(data["newUser"], true);
    assert_eq!(data["user"]["hasPassword"], false);
    assert_eq!(data["user"]["userKind"], "guest");
    let token = data["token"].as_str().unwrap().to_string();
    let privacy = app.get_auth("/api/v1/me/privacy", Some(&token)).await;
    assert_eq!(privacy.assert_ok()["current"], true);

    // Known phone: no tick needed, same account.
    let code = app.fresh_code(phone, "login").await;
    let again = app
        .post("/api/v1/auth/login/sms", &login(code, None), None)
        .await;
    let again = again.assert_ok();
    assert_eq!(again["newUser"], false);
    assert_eq!(again["user"]["id"], data["user"]["id"]);
}

#[tokio::test]
async fn wrong_passwords_lock_the_phone_for_the_window() {
    let app = spawn_app().await;
    let phone = "13912345609";
    app.register(phone).await;
    for _ in 0..5 {
        let answer = app.login(phone, "Wrong12345").await;
        answer.assert_error(400, "400");
        assert_eq!(answer.err_msg(), "手机号或密码错误");
        app.clock.advance_ms(MINUTE);
    }
    // Locked: even the right password is refused until 15 minutes after the first failure.
    let locked = app.login(phone, PASSWORD).await;
    locked.assert_error(429, "429");
    assert_eq!(locked.data()["retryAfterSeconds"], 600);
    app.clock.advance_ms(10 * MINUTE);
    app.login(phone, PASSWORD).await.assert_ok();

    // An unknown phone answers exactly like a wrong password.
    let unknown = app.login("13712340000", PASSWORD).await;
    unknown.assert_error(400, "400");
    assert_eq!(unknown.err_msg(), "手机号或密码错误");
    app.login("13912345609", "").await.assert_error(400, "400");
}

#[tokio::test]
async fn reset_password_by_code_ends_every_session() {
    let app = spawn_app().await;
    let phone = "13912345610";
    let token = app.register(phone).await;
    let code = app.fresh_code(phone, "reset").await;
    let new_password = "NewPizza2027";
    app.post(
        "/api/v1/auth/password/reset",
        &json!({"cellPhone": phone, "smsCode": code, "password": new_password}),
        None,
    )
    .await
    .assert_ok();
    app.get_auth("/api/v1/me", Some(&token))
        .await
        .assert_error(401, "407");
    app.login(phone, PASSWORD).await.assert_error(400, "400");
    app.login(phone, new_password).await.assert_ok();

    let stranger = "13712340001";
    let code = app.fresh_code(stranger, "reset").await;
    app.post(
        "/api/v1/auth/password/reset",
        &json!({"cellPhone": stranger, "smsCode": code, "password": new_password}),
        None,
    )
    .await
    .assert_error(404, "404");
}

#[tokio::test]
async fn change_password_needs_the_old_one_and_ends_other_sessions() {
    let app = spawn_app().await;
    let phone = "13912345611";
    let here = app.register(phone).await;
    let elsewhere = app.login(phone, PASSWORD).await.assert_ok()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let change = |old: &str, new: &str| json!({"oldPassword": old, "newPassword": new});
    let wrong = app
        .post(
            "/api/v1/auth/password/change",
            &change("Nope12345", "Better2027"),
            Some(&here),
        )
        .await;
    wrong.assert_error(400, "400");
    assert_eq!(fields(&wrong), ["oldPassword"]);
    let weak = app
        .post(
            "/api/v1/auth/password/change",
            &change(PASSWORD, "weak"),
            Some(&here),
        )
        .await;
    assert_eq!(fields(&weak), ["newPassword"]);
    app.post(
        "/api/v1/auth/password/change",
        &change(PASSWORD, "Better2027"),
        Some(&here),
    )
    .await
    .assert_ok();
    me(&app, &here).await;
    app.get_auth("/api/v1/me", Some(&elsewhere))
        .await
        .assert_error(401, "407");
    app.login(phone, "Better2027").await.assert_ok();
}

#[tokio::test]
async fn profile_updates_check_every_field() {
    let app = spawn_app().await;
    let token = app.register("13912345612").await;
    let ok = app
        .patch(
            "/api/v1/me",
            &json!({"name": "张三", "email": "a@b.cn", "gender": 1, "birthday": "1990-01-31"}),
            Some(&token),
        )
        .await;
    let data = ok.assert_ok();
    assert_eq!(
        (
            &data["name"],
            &data["email"],
            &data["gender"],
            &data["birthday"]
        ),
        (
            &json!("张三"),
            &json!("a@b.cn"),
            &json!(1),
            &json!("1990-01-31")
        )
    );
    // Only what is sent changes.
    let partial = app
        .patch("/api/v1/me", &json!({"name": "李四"}), Some(&token))
        .await;
    assert_eq!(partial.assert_ok()["email"], "a@b.cn");

    let bad = app
        .call(
            reqwest::Method::PATCH,
            "/api/v1/me",
            Some(
                &json!({"name": "一二三四五六七八九十一二三四五六", "email": "nope",
                "gender": 7, "birthday": "1909-12-31"}),
            ),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    bad.assert_error(400, "400");
    assert_eq!(fields(&bad), ["name", "email", "gender", "birthday"]);
    assert_eq!(bad.err_msg(), "Name cannot exceed 15 characters");
    let messages: Vec<&str> = bad
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(messages.contains(&"Email format error"), "{messages:?}");
    assert!(messages.contains(&"Birthday cannot be before 1910-01-01"));
    let empty = app
        .patch("/api/v1/me", &json!({"email": ""}), Some(&token))
        .await;
    assert_eq!(empty.err_msg(), "邮箱不能为空");
    let future = app
        .patch(
            "/api/v1/me",
            &json!({"birthday": "2026-11-24"}),
            Some(&token),
        )
        .await;
    assert_eq!(fields(&future), ["birthday"]);
    // Nothing changed.
    assert_eq!(me(&app, &token).await["name"], "李四");
}

#[tokio::test]
async fn privacy_consent_is_recorded_and_asked_again_when_outdated() {
    let app = spawn_app().await;
    let token = app.register("13912345613").await;
    let policy = app.app_state.privacy_policy_updated_at;
    let privacy = app.get_auth("/api/v1/me/privacy", Some(&token)).await;
    let p = privacy.assert_ok();
    assert_eq!(p["policyUpdatedAt"], policy);
    assert_eq!(p["agreedVersion"], policy);
    assert_eq!(p["agreedAt"], app.clock.now_ms());
    assert_eq!(p["current"], true);
    assert_eq!(p["refusedAt"], Value::Null);

    let refuse = app
        .post(
            "/api/v1/me/privacy",
            &json!({"decision": "refuse"}),
            Some(&token),
        )
        .await;
    let r = refuse.assert_ok();
    assert_eq!(r["current"], false);
    assert_eq!(r["refusedAt"], app.clock.now_ms());
    assert_eq!(me(&app, &token).await["consentRequired"], true);
    // Spec account §4: refusing turns the recommendation switch off, agreeing turns it on.
    assert_eq!(me(&app, &token).await["personalizedShowTag"], false);
    app.clock.advance_ms(MINUTE);
    let agree = app
        .post(
            "/api/v1/me/privacy",
            &json!({"decision": "agree"}),
            Some(&token),
        )
        .await;
    assert_eq!(agree.assert_ok()["current"], true);
    assert_eq!(me(&app, &token).await["personalizedShowTag"], true);
    app.post(
        "/api/v1/me/privacy",
        &json!({"decision": "maybe"}),
        Some(&token),
    )
    .await
    .assert_error(400, "400");

    // An agreement to an older version of the policy is not enough.
    let user_id = me(&app, &token).await["id"].as_i64().unwrap();
    ConsentRepo::new(app.app_state.db.clone())
        .record(user_id, Decision::Agree, policy - 1, app.clock.now_ms())
        .await
        .unwrap();
    assert_eq!(me(&app, &token).await["consentRequired"], true);
}

#[tokio::test]
async fn marketing_and_recommendation_switches() {
    let app = spawn_app().await;
    let token = app.register("13912345614").await;
    let m = app
        .patch(
            "/api/v1/me/marketing",
            &json!({"isPersonalizedAgree": true}),
            Some(&token),
        )
        .await;
    assert_eq!(
        m.assert_ok(),
        &json!({"isPersonalizedAgree": true, "isRemindAgain": false})
    );
    app.post(
        "/api/v1/me/recommendation",
        &json!({"flag": 1}),
        Some(&token),
    )
    .await
    .assert_ok();
    app.post(
        "/api/v1/me/recommendation",
        &json!({"flag": 2}),
        Some(&token),
    )
    .await
    .assert_error(400, "400");
    let me = me(&app, &token).await;
    assert_eq!(me["isPersonalizedAgree"], true);
    assert_eq!(me["isRemindAgain"], false);
    assert_eq!(me["personalizedShowTag"], true);
}

#[tokio::test]
async fn closing_the_account_removes_personal_data_and_keeps_a_tombstone() {
    let app = spawn_app().await;
    let phone = "13912345615";
    let token = app.register(phone).await;
    let other_device = app.login(phone, PASSWORD).await.assert_ok()["token"]
        .as_str()
        .unwrap()
        .to_string();
    app.patch(
        "/api/v1/me",
        &json!({"name": "张三", "email": "a@b.cn", "birthday": "1990-01-31"}),
        Some(&token),
    )
    .await
    .assert_ok();
    app.post(
        "/api/v1/addresses",
        &crate::addresses::form("上海市黄浦区西藏中路236号"),
        Some(&token),
    )
    .await
    .assert_ok();
    let id = me(&app, &token).await["id"].as_i64().unwrap();

    app.delete("/api/v1/me", Some(&token)).await.assert_ok();
    for t in [&token, &other_device] {
        app.get_auth("/api/v1/me", Some(t))
            .await
            .assert_error(401, "407");
    }
    app.login(phone, PASSWORD).await.assert_error(400, "400");
    let row = UserRepo::new(app.app_state.db.clone())
        .get(id)
        .await
        .unwrap()
        .expect("the tombstone stays");
    assert!(row.closed_at.is_some());
    assert_eq!(
        (
            row.phone,
            row.name,
            row.email,
            row.birthday,
            row.password_hash
        ),
        (None, None, None, None, None)
    );
    let left = actors::db::addresses::AddressRepo::new(app.app_state.db.clone())
        .list(id)
        .await
        .unwrap();
    assert!(left.is_empty());

    // The phone is free again: a new account.
    let fresh = app.register(phone).await;
    assert_ne!(me(&app, &fresh).await["id"].as_i64().unwrap(), id);
}

#[tokio::test]
async fn every_account_endpoint_is_documented() {
    let app = spawn_app().await;
    let doc = app.get("/api-docs/openapi.json").await.body;
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/auth/sms-code",
        "/auth/register",
        "/auth/login",
        "/auth/login/sms",
        "/auth/logout",
        "/auth/password/reset",
        "/auth/password/change",
        "/me",
        "/me/privacy",
        "/me/marketing",
        "/me/recommendation",
        "/addresses",
        "/addresses/{id}",
        "/addresses/{id}/default",
        "/addresses/smart-read",
        "/dev/sms-outbox",
    ] {
        assert!(
            paths.contains_key(&format!("/api/v1{path}")),
            "{path} missing from the OpenAPI document"
        );
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}
