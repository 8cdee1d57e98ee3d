#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue 20, points 9–12 over real HTTP: security headers on every kind of answer, forwarding
//! headers believed only from trusted proxies, locks a stranger cannot turn against the owner,
//! and error messages in our own words and the request's language.

use crate::helpers::{spawn_app, spawn_app_with, Answer, TestApp, MONDAY_NOON_MS, PASSWORD};
use serde_json::{json, Value};

const MINUTE: i64 = 60_000;

async fn raw_get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = app.client.get(format!("{}{}", app.address, path));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("request")
}

fn header<'a>(res: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    res.headers().get(name).and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn every_kind_of_answer_carries_the_security_headers() {
    let app = spawn_app().await;
    let paths = [
        "/api/v1/stores/default",   // the API
        "/api/v1/no-such-endpoint", // an API error
        "/",                        // the app
        "/order/status",            // a client route of the app
        "/api-docs/",               // Swagger UI
        "/api-docs/swagger-initializer.js",
        "/api-docs/openapi.json",
        "/sandbox/cashier/unknown", // the cashier
        "/sandbox/cashier.js",
        "/sandbox/cashier.css",
        "/health/live",
    ];
    for path in paths {
        let res = raw_get(&app, path, &[]).await;
        let csp =
            header(&res, "content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        for want in [
            "default-src 'self'",
            "script-src 'self';",
            "object-src 'none'",
            "base-uri 'self'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        ] {
            assert!(csp.contains(want), "{path}: {want} missing from {csp}");
        }
        assert!(!csp.contains("unsafe-eval"), "{path}");
        assert_eq!(
            header(&res, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(header(&res, "x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(
            header(&res, "referrer-policy"),
            Some("strict-origin-when-cross-origin"),
            "{path}"
        );
        // Plain HTTP from the test client: no HSTS.
        assert_eq!(header(&res, "strict-transport-security"), None, "{path}");
    }
    // The cashier's own script and style are served as files, with their types.
    let js = raw_get(&app, "/sandbox/cashier.js", &[]).await;
    assert!(header(&js, "content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(js.text().await.unwrap().contains("data-pay-url"));

    // TLS at our (trusted) proxy: HSTS.
    let tls = raw_get(
        &app,
        "/api/v1/stores/default",
        &[("X-Forwarded-Proto", "https")],
    )
    .await;
    assert_eq!(
        header(&tls, "strict-transport-security"),
        Some("max-age=31536000")
    );
}

#[tokio::test]
async fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
    let app = spawn_app_with(MONDAY_NOON_MS, |s| s.server.trusted_proxies.clear()).await;
    // A client claiming TLS gets no HSTS: only our proxy may say so.
    let res = raw_get(
        &app,
        "/api/v1/stores/default",
        &[("X-Forwarded-Proto", "https")],
    )
    .await;
    assert_eq!(header(&res, "strict-transport-security"), None);

    // A new X-Forwarded-For per request does not make a new client: the SMS address limit
    // (20 an hour) is reached all the same.
    for n in 0..20u32 {
        let spoof = format!("203.0.113.{n}");
        send_code_from(&app, &format!("1371234{n:04}"), &spoof)
            .await
            .assert_ok();
    }
    send_code_from(&app, "13712349999", "198.51.100.99")
        .await
        .assert_error(429, "429");

    // Nor does it give a guesser fresh tries: five wrong passwords lock the peer address.
    let phone = "13912345681";
    let code = {
        app.clock.advance_ms(61 * MINUTE);
        send_code_as(&app, phone, "register", "1.1.1.1")
            .await
            .assert_ok();
        app.latest_code(phone).await
    };
    app.post(
        "/api/v1/auth/register",
        &json!({"cellPhone": phone, "smsCode": code, "password": PASSWORD, "privacyAgreed": true}),
        None,
    )
    .await
    .assert_ok();
    for n in 0..5 {
        login_from(&app, phone, "Wrong12345", &format!("192.0.2.{n}"))
            .await
            .assert_error(400, "400");
    }
    login_from(&app, phone, PASSWORD, "192.0.2.200")
        .await
        .assert_error(429, "429");
}

async fn send_code_from(app: &TestApp, phone: &str, forwarded_for: &str) -> Answer {
    send_code_as(app, phone, "login", forwarded_for).await
}

async fn send_code_as(app: &TestApp, phone: &str, scene: &str, forwarded_for: &str) -> Answer {
    app.call(
        reqwest::Method::POST,
        "/api/v1/auth/sms-code",
        Some(&json!({"cellPhone": phone, "scene": scene})),
        None,
        &[("X-Forwarded-For", forwarded_for)],
    )
    .await
}

async fn login_from(app: &TestApp, phone: &str, password: &str, forwarded_for: &str) -> Answer {
    login_as(app, phone, password, forwarded_for, "zh").await
}

async fn login_as(
    app: &TestApp,
    phone: &str,
    password: &str,
    forwarded_for: &str,
    lang: &str,
) -> Answer {
    app.call(
        reqwest::Method::POST,
        "/api/v1/auth/login",
        Some(&json!({"cellPhone": phone, "password": password})),
        None,
        &[
            ("X-Forwarded-For", forwarded_for),
            ("Accept-Language", lang),
        ],
    )
    .await
}

#[tokio::test]
async fn behind_our_proxy_the_client_is_the_first_untrusted_hop() {
    let app = spawn_app().await;
    let phone = "13912345682";
    app.register(phone).await;
    // The guesser writes a new address of its own each time; our proxy appends the real one.
    for n in 0..5 {
        let chain = format!("10.{n}.0.1, 203.0.113.9");
        login_from(&app, phone, "Wrong12345", &chain)
            .await
            .assert_error(400, "400");
    }
    login_from(&app, phone, PASSWORD, "9.9.9.9, 203.0.113.9")
        .await
        .assert_error(429, "429");
    login_from(&app, phone, PASSWORD, "203.0.113.10")
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_stranger_cannot_lock_the_owner_out() {
    let app = spawn_app().await;
    let phone = "13912345683";
    app.register(phone).await;
    let stranger = "203.0.113.66";
    let owner = "198.51.100.7";
    for _ in 0..5 {
        login_from(&app, phone, "Wrong12345", stranger)
            .await
            .assert_error(400, "400");
        app.clock.advance_ms(MINUTE);
    }
    // The stranger's address is locked, with the time left in each language...
    let zh = login_as(&app, phone, PASSWORD, stranger, "zh").await;
    zh.assert_error(429, "429");
    assert_eq!(zh.data()["retryAfterSeconds"], 600);
    assert_eq!(
        zh.err_msg(),
        "密码错误次数过多，请10分钟后再试，或使用短信验证码登录"
    );
    let en = login_as(&app, phone, PASSWORD, stranger, "en-US").await;
    assert_eq!(
        en.err_msg(),
        "Too many wrong passwords, please try again in 10 minutes or log in with an SMS code"
    );
    // ... the owner elsewhere is not.
    login_from(&app, phone, PASSWORD, owner).await.assert_ok();

    // Many addresses together reach the phone's ceiling (20): password logins stop everywhere.
    for n in 0..15 {
        login_from(&app, phone, "Wrong12345", &format!("192.0.2.{n}"))
            .await
            .assert_error(400, "400");
    }
    let everywhere = login_from(&app, phone, PASSWORD, "198.51.100.200").await;
    everywhere.assert_error(429, "429");
    login_from(&app, phone, PASSWORD, owner)
        .await
        .assert_error(429, "429");

    // The owner still logs in with an SMS code, from any address, the stranger's included.
    for from in [owner, stranger] {
        app.clock.advance_ms(61_000);
        send_code_from(&app, phone, from).await.assert_ok();
        let code = app.latest_code(phone).await;
        let sms = app
            .call(
                reqwest::Method::POST,
                "/api/v1/auth/login/sms",
                Some(&json!({"cellPhone": phone, "smsCode": code})),
                None,
                &[("X-Forwarded-For", from)],
            )
            .await;
        assert_eq!(sms.assert_ok()["newUser"], false);
    }
    // And once the window has passed, the password works again.
    app.clock.advance_ms(15 * MINUTE);
    login_from(&app, phone, PASSWORD, owner).await.assert_ok();
}

async fn pin_login(app: &TestApp, staff: &str, pin: &str, from: &str) -> Answer {
    app.call(
        reqwest::Method::POST,
        "/api/v1/tablet/login",
        Some(&json!({"storeCode": "SH002", "staffCode": staff, "pin": pin})),
        None,
        &[("X-Forwarded-For", from), ("Accept-Language", "en")],
    )
    .await
}

#[tokio::test]
async fn a_stranger_cannot_lock_the_store_tablets_out_from_one_address() {
    let app = spawn_app().await;
    let stranger = "203.0.113.77";
    for _ in 0..5 {
        pin_login(&app, "manager", "000000", stranger)
            .await
            .assert_error(400, "400");
    }
    let locked = pin_login(&app, "manager", "246810", stranger).await;
    locked.assert_error(429, "429");
    assert_eq!(
        locked.err_msg(),
        "Too many wrong PINs, please try again in 15 minutes"
    );
    // The store's own tablet, elsewhere, logs in.
    pin_login(&app, "manager", "246810", "198.51.100.8")
        .await
        .assert_ok();
    // Across addresses and staff codes the store's ceiling (30) stops PIN logins everywhere.
    for n in 0..25 {
        pin_login(&app, "nobody", "000000", &format!("192.0.2.{n}"))
            .await
            .assert_error(400, "400");
    }
    pin_login(&app, "manager", "246810", "198.51.100.9")
        .await
        .assert_error(429, "429");
    app.clock.advance_ms(15 * MINUTE);
    pin_login(&app, "manager", "246810", "198.51.100.9")
        .await
        .assert_ok();
}

/// Words of serde, serde_json and Rust's number parsers that must never reach a user.
const PARSER_WORDS: [&str; 10] = [
    "invalid type",
    "expected",
    "line 1",
    "column",
    "invalid digit",
    "ParseIntError",
    "unknown variant",
    "EOF",
    "`",
    "can not parse",
];

#[tokio::test]
async fn malformed_requests_are_answered_in_our_words_and_the_clients_language() {
    let app = spawn_app().await;
    let json = "application/json";
    let big = format!("{{\"cellPhone\":\"{}\"}}", "1".repeat(300 * 1024));
    /// (method, path, content type, body, status, errCode, zh, en)
    type Case<'a> = (
        &'a str,
        &'a str,
        &'a str,
        String,
        u16,
        &'a str,
        &'a str,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/api/v1/auth/login",
            json,
            r#"{"cellPhone": 13812345678, "password": "x"}"#.into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
        (
            "POST",
            "/api/v1/auth/login",
            json,
            r#"{"cellPhone": "13812345678", "#.into(),
            400,
            "400",
            "请求内容不是有效的JSON",
            "The request body is not valid JSON",
        ),
        (
            "POST",
            "/api/v1/auth/login",
            json,
            "".into(),
            400,
            "400",
            "请求内容不是有效的JSON",
            "The request body is not valid JSON",
        ),
        (
            "POST",
            "/api/v1/auth/login",
            "text/plain",
            r#"{"cellPhone": "13812345678"}"#.into(),
            400,
            "400",
            "请求内容须为JSON（Content-Type: application/json）",
            "The request body must be JSON (Content-Type: application/json)",
        ),
        (
            "POST",
            "/api/v1/auth/login",
            json,
            big,
            413,
            "413",
            "请求内容过大",
            "The request body is too large",
        ),
        (
            "POST",
            "/api/v1/cart/items",
            json,
            r#"{"storeCode": "SH001", "items": [{"productCode": "DR001", "quantity": "two"}]}"#
                .into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
        (
            "POST",
            "/api/v1/cart/items",
            json,
            r#"{"storeCode": "SH001", "items": [{"productCode": "DR001", "quantity": -1}]}"#.into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
        (
            "POST",
            "/api/v1/tablet/login",
            json,
            r#"{"storeCode": "SH001", "pin": "1"}"#.into(),
            400,
            "400",
            "缺少字段 staffCode",
            "Missing field staffCode",
        ),
        (
            "POST",
            "/api/v1/tablet/login",
            json,
            r#"[1, 2, 3]"#.into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
        (
            "GET",
            "/api/v1/orders/reservation/slots?orderType=1",
            json,
            String::new(),
            400,
            "400",
            "缺少参数 storeCode",
            "Missing query parameter storeCode",
        ),
        (
            "POST",
            "/sandbox/api/pay/nope",
            json,
            r#"{"outcome": 5}"#.into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
        (
            "POST",
            "/sandbox/api/pay/nope",
            json,
            r#"{"outcome": "maybe"}"#.into(),
            400,
            "400",
            "请求内容的字段类型或取值不正确",
            "A field of the request body has the wrong type or value",
        ),
    ];
    for (method, path, content_type, body, status, code, zh, en) in &cases {
        for (lang, want) in [("zh-CN,zh;q=0.9", zh), ("en", en)] {
            let method: reqwest::Method = method.parse().unwrap();
            let mut req = app
                .client
                .request(method.clone(), format!("{}{}", app.address, path))
                .header("Accept-Language", lang)
                .header("content-type", *content_type);
            if !body.is_empty() || method == reqwest::Method::POST {
                req = req.body(body.clone());
            }
            let res = req.send().await.expect("request");
            let got_status = res.status().as_u16();
            let answer: Value = res.json().await.expect("an envelope");
            let msg = answer["errMsg"].as_str().unwrap_or_default();
            assert_eq!(
                (
                    got_status,
                    answer["errCode"].as_str().unwrap_or_default(),
                    msg
                ),
                (*status, *code, *want),
                "{path} {lang}"
            );
            for word in PARSER_WORDS {
                assert!(!msg.contains(word), "{path}: {word:?} in {msg:?}");
            }
        }
    }
}

#[tokio::test]
async fn a_path_that_does_not_parse_is_answered_in_our_words() {
    let app = spawn_app().await;
    let token = app.register("13912345684").await;
    for (lang, want) in [
        ("zh", "请求路径不正确"),
        ("en", "The request path is not valid"),
    ] {
        let answer = app
            .call(
                reqwest::Method::GET,
                "/api/v1/addresses/not-a-number",
                None,
                Some(&token),
                &[("Accept-Language", lang)],
            )
            .await;
        answer.assert_error(400, "400");
        assert_eq!(answer.err_msg(), want);
    }
}

#[tokio::test]
async fn names_with_hidden_characters_are_refused_with_a_field_error() {
    let app = spawn_app().await;
    let token = app.register("13912345685").await;
    for (lang, want) in [
        ("zh", "姓名不能包含控制字符或不可见字符"),
        ("en", "Name cannot contain control or invisible characters"),
    ] {
        let answer = app
            .call(
                reqwest::Method::PATCH,
                "/api/v1/me",
                Some(&json!({"name": "\u{202E}三张"})),
                Some(&token),
                &[("Accept-Language", lang)],
            )
            .await;
        answer.assert_error(400, "400");
        assert_eq!(answer.data()[0]["field"], "name");
        assert_eq!(answer.data()[0]["message"], want);
    }
}
