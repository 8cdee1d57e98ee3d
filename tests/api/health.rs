#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::spawn_app;

#[tokio::test]
async fn live_and_ready_answer() {
    let app = spawn_app().await;
    let live = app.get("/health/live").await;
    assert_eq!(live.status, 200);
    let ready = app.get("/health/ready").await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert_eq!(ready.body["database"], "ok");
}

#[tokio::test]
async fn server_time_is_the_clock() {
    let app = spawn_app().await;
    let answer = app.get("/api/v1/system/time").await;
    assert_eq!(
        answer.assert_ok()["serverTime"],
        crate::helpers::MONDAY_NOON_MS
    );
    app.clock.advance_ms(1_500);
    let answer = app.get("/api/v1/system/time").await;
    assert_eq!(
        answer.assert_ok()["serverTime"],
        crate::helpers::MONDAY_NOON_MS + 1_500
    );
}

#[tokio::test]
async fn page_switch_is_cached_one_minute() {
    let app = spawn_app().await;
    let answer = app.get("/api/v1/system/page-switch").await;
    let data = answer.assert_ok();
    assert!(data["grayPageList"].is_array());
    assert_eq!(data["use1i8n"], true);
    assert_eq!(answer.headers["cache-control"], "public, max-age=60");
}

#[tokio::test]
async fn openapi_documents_every_endpoint_and_has_a_ui() {
    let app = spawn_app().await;
    let doc = app.get("/api-docs/openapi.json").await;
    assert_eq!(doc.status, 200);
    let paths = doc.body["paths"].as_object().unwrap();
    for path in [
        "/system/time",
        "/system/page-switch",
        "/stores/default",
        "/stores/{storeCode}",
        "/stores/by-point",
        "/stores/nearby",
        "/stores/search",
        "/cities",
        "/cities/{cityCode}/districts",
        "/geo/ip",
        "/geo/regeo",
        "/geo/geocode",
        "/geo/places",
        "/geo/tips",
        "/stores/{storeCode}/menu",
        "/products/{productCode}",
        "/products/search",
        "/products/hot-words",
    ] {
        assert!(
            paths.contains_key(&format!("/api/v1{path}")),
            "{path} is not documented"
        );
    }
    let ui = app
        .client
        .get(format!("{}/api-docs/", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(ui.status(), 200);
    assert!(
        ui.text().await.unwrap().contains("swagger"),
        "no swagger ui"
    );
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let a = app.get("/api/v1/system/time").await;
    let b = app.get("/api/v1/system/time").await;
    let id = |x: &crate::helpers::Answer| x.headers["x-request-id"].to_str().unwrap().to_string();
    assert_ne!(id(&a), id(&b));
}
