#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::spawn_app;

#[tokio::test]
async fn ip_location_of_a_local_client_is_the_default_city() {
    let app = spawn_app().await;
    let answer = app.get("/api/v1/geo/ip").await;
    let info = answer.assert_ok();
    assert_eq!(info["locationType"], "ip");
    assert_eq!(info["cityCode"], "310100");
}

#[tokio::test]
async fn reverse_geocode_near_peoples_square() {
    let app = spawn_app().await;
    let answer = app
        .get("/api/v1/geo/regeo?latitude=31.230416&longitude=121.473701")
        .await;
    let info = answer.assert_ok();
    assert_eq!(info["cityCode"], "310100");
    assert_eq!(info["districtCode"], "310101");
    let pois = info["pois"].as_array().unwrap();
    assert!(!pois.is_empty() && pois.len() <= 20);
    // A browser's WGS-84 fix is converted before the lookup.
    let wgs = app
        .get("/api/v1/geo/regeo?latitude=31.232400&longitude=121.469200&coordType=wgs84")
        .await;
    assert_eq!(wgs.assert_ok()["districtCode"], "310101");
    app.get("/api/v1/geo/regeo?latitude=31.23&longitude=121.47")
        .await
        .assert_error(400, "400");
    app.get("/api/v1/geo/regeo?latitude=31.230416&longitude=121.473701&coordType=bd09")
        .await
        .assert_error(400, "400");
}

#[tokio::test]
async fn tips_and_places_search_the_gazetteer() {
    let app = spawn_app().await;
    let tips = app.get("/api/v1/geo/tips?keyword=%E5%A4%96%E6%BB%A9").await; // 外滩
    let list = tips.assert_ok().as_array().unwrap().clone();
    assert!(!list.is_empty() && list.len() <= 15);
    let en = app.get_en("/api/v1/geo/tips?keyword=bund").await;
    assert!(!en.assert_ok().as_array().unwrap().is_empty());
    let places = app.get("/api/v1/geo/places?keyword=%E8%B7%AF&page=1").await; // 路
    let page = places.assert_ok();
    assert_eq!(page["pageSize"], 15);
    app.get("/api/v1/geo/tips?keyword=")
        .await
        .assert_error(400, "400");
    let nowhere = app
        .get("/api/v1/geo/regeo?latitude=51.507400&longitude=-0.127800")
        .await;
    nowhere.assert_error(404, "404");
}
