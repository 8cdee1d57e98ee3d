#![allow(clippy::unwrap_used, clippy::expect_used)]
//! No password or SMS code reaches a log line. A process-wide subscriber records every event
//! and span field at debug level (what production would log and more) into a buffer; the
//! account flows then run, and the buffer must not hold any of the secrets they used.

use crate::helpers::{code_in, spawn_app, spawn_app_with, MONDAY_NOON_MS, PASSWORD};
use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Clone)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The capture, installed once for the whole test binary (other tests log into it too, which
/// only makes the check stricter).
fn captured() -> Buffer {
    static LOGS: OnceLock<Buffer> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer = Buffer(Arc::new(Mutex::new(Vec::new())));
        let writer = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber)
            .expect("no other global subscriber in the test binary");
        buffer
    })
    .clone()
}

#[tokio::test]
async fn no_password_or_code_is_ever_logged() {
    let logs = captured();
    let app = spawn_app().await;
    let phone = "13612345670";
    let mut secrets = vec![PASSWORD.to_string(), "Changed2027x".to_string()];

    app.send_code(phone, "register").await.assert_ok();
    let code = app.latest_code(phone).await;
    secrets.push(code.clone());
    let token = app
        .post(
            "/api/v1/auth/register",
            &json!({"cellPhone": phone, "smsCode": code, "password": PASSWORD, "privacyAgreed": true}),
            None,
        )
        .await
        .assert_ok()["token"]
        .as_str()
        .unwrap()
        .to_string();
    secrets.push(token.clone());
    app.login(phone, "WrongGuess99").await;
    secrets.push("WrongGuess99".into());
    app.login(phone, PASSWORD).await.assert_ok();
    app.post(
        "/api/v1/auth/password/change",
        &json!({"oldPassword": PASSWORD, "newPassword": "Changed2027x"}),
        Some(&token),
    )
    .await
    .assert_ok();
    // A wrong code and a right one through SMS login.
    let login_code = app.fresh_code(phone, "login").await;
    secrets.push(login_code.clone());
    let wrong = if login_code == "999999" {
        "888888"
    } else {
        "999999"
    };
    app.post(
        "/api/v1/auth/login/sms",
        &json!({"cellPhone": phone, "smsCode": wrong}),
        None,
    )
    .await;
    app.post(
        "/api/v1/auth/login/sms",
        &json!({"cellPhone": phone, "smsCode": login_code}),
        None,
    )
    .await
    .assert_ok();
    assert_eq!(code_in(&app.outbox(phone).await[0]), login_code);

    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    // The capture works: the flows above did log, masked.
    assert!(text.contains("sms code sent"), "nothing captured");
    assert!(text.contains("136****5670"), "no masked phone in the logs");
    for secret in &secrets {
        assert!(
            !contains_standalone(&text, secret),
            "a secret reached the logs: {secret}"
        );
    }
}

/// The secret as a token of its own: a 6-digit code may well occur inside a longer number
/// (a timestamp), which is not a leak.
fn contains_standalone(text: &str, secret: &str) -> bool {
    text.match_indices(secret).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + secret.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit()) && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

#[tokio::test]
async fn the_request_log_names_the_client_our_proxy_saw() {
    let logs = captured();
    let app = spawn_app().await;
    // The client claims 192.0.2.171; our proxy (the test client, trusted) appended 203.0.113.171.
    app.get_with(
        "/api/v1/stores/default",
        &[("X-Forwarded-For", "192.0.2.171, 203.0.113.171")],
    )
    .await
    .assert_ok();
    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(
        text.contains("http.client_ip=203.0.113.171"),
        "no request span with the client address"
    );
    assert!(
        !text.contains("192.0.2.171"),
        "the client's own claim was logged"
    );
}

#[tokio::test]
async fn sampled_out_requests_leave_no_line_but_errors_always_do() {
    let logs = captured();
    let app = spawn_app_with(MONDAY_NOON_MS, |s| s.log.access_sample = 0.0).await;
    app.get("/api/v1/system/time?probe=sampled-out-4714")
        .await
        .assert_ok();
    app.get("/api/v1/no-such-call?probe=error-4715").await;
    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(
        text.lines()
            .any(|l| l.contains("probe=error-4715") && l.contains("status=404")),
        "the error's access line is missing"
    );
    assert!(
        !text.contains("sampled-out-4714"),
        "a sampled-out request was logged"
    );
}
