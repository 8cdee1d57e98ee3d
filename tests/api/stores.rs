#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::{demo, spawn_app, spawn_app_at, MONDAY_NOON_MS};
use actors::domain::catalogue::{Store, StoreStatus};
use serde_json::Value;

fn default_store() -> Store {
    demo().stores.into_iter().find(|s| s.is_default).unwrap()
}

fn codes(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["storeCode"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn default_store_is_the_chains_default_and_open_at_noon() {
    let app = spawn_app().await;
    let want = default_store();
    let answer = app.get("/api/v1/stores/default").await;
    let store = answer.assert_ok();
    assert_eq!(store["storeCode"], want.store_code.as_str());
    assert_eq!(store["storeName"], want.name.cn.as_str());
    assert_eq!(store["isVirtual"], false);
    assert_eq!(store["isOpen"], true);
    assert_eq!(answer.headers["cache-control"], "public, max-age=30");
    let en = app.get_en("/api/v1/stores/default").await;
    assert_eq!(en.assert_ok()["storeName"], want.name.en.as_str());
}

#[tokio::test]
async fn a_store_by_code_and_the_virtual_store() {
    let app = spawn_app().await;
    for store in demo().stores {
        let answer = app
            .get(&format!("/api/v1/stores/{}", store.store_code))
            .await;
        let dto = answer.assert_ok();
        let methods: Vec<u64> = dto["serviceMethods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_u64().unwrap())
            .collect();
        let mut sorted = methods.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            methods, sorted,
            "{}: serviceMethods sorted",
            store.store_code
        );
        assert!(dto["deliveryTime"].as_u64().unwrap() > 0);
        assert!(!dto["businessHourListText"].as_str().unwrap().is_empty());
        assert!(dto["areaPoints"].is_array());
    }
    let virtual_store = app.get("/api/v1/stores/88888").await;
    let v = virtual_store.assert_ok();
    assert_eq!(v["isVirtual"], true);
    assert_eq!(v["serviceMethods"].as_array().unwrap().len(), 0);
    app.get("/api/v1/stores/NOPE999")
        .await
        .assert_error(404, "404");
}

#[tokio::test]
async fn special_stores_say_what_they_are() {
    let app = spawn_app().await;
    let stores = demo().stores;
    let closed = stores
        .iter()
        .find(|s| s.status == StoreStatus::Closed)
        .unwrap();
    let dto = app
        .get(&format!("/api/v1/stores/{}", closed.store_code))
        .await;
    let dto = dto.assert_ok();
    assert_eq!(dto["status"], "closed");
    assert_eq!(dto["isOpen"], false);
    assert_eq!(
        dto["stopStoreNotice"],
        closed.stop_store_notice.as_ref().unwrap().cn.as_str()
    );

    let pickup_only = stores.iter().find(|s| s.service_methods == [1]).unwrap();
    let dto = app
        .get(&format!("/api/v1/stores/{}", pickup_only.store_code))
        .await;
    assert_eq!(dto.assert_ok()["serviceMethods"], serde_json::json!([1]));

    let booking = stores
        .iter()
        .find(|s| s.book_enable && !s.exclusion_day_list.is_empty())
        .unwrap();
    let dto = app
        .get_en(&format!("/api/v1/stores/{}", booking.store_code))
        .await;
    let dto = dto.assert_ok();
    assert_eq!(dto["bookEnable"], true);
    assert!(dto["bookDays"].as_u64().unwrap() > 0);
    assert!(!dto["exclusionDayList"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn stores_close_outside_business_hours_china_time() {
    // 03:30 China time on Monday = 19:30 UTC on Sunday.
    let app = spawn_app_at(MONDAY_NOON_MS - (8 * 60 + 30) * 60 * 1000).await;
    let store = default_store();
    let dto = app
        .get(&format!("/api/v1/stores/{}", store.store_code))
        .await;
    let dto = dto.assert_ok();
    let late_night = store.business_hours.iter().any(|w| w.end < w.start);
    assert_eq!(dto["isOpen"], late_night, "{}", dto["businessHours"]);
}

#[tokio::test]
async fn by_point_refuses_invalid_and_illegal_coordinates() {
    let app = spawn_app().await;
    let cases = [
        (
            "longitude=121.473701",
            400,
            "通过经纬度获取门店：无效经纬度",
        ),
        (
            "latitude=31.23&longitude=121.473701",
            400,
            "通过经纬度获取门店：无效经纬度",
        ),
        ("latitude=31.230416", 400, "通过经纬度获取门店：无效经纬度"),
        (
            "latitude=0.000000&longitude=0.000000",
            400,
            "不合法的经纬度",
        ),
        (
            "latitude=abcdefgh&longitude=121.473701",
            400,
            "不合法的经纬度",
        ),
        (
            "latitude=95.000000&longitude=121.473701",
            400,
            "不合法的经纬度",
        ),
        (
            "latitude=29.652500&longitude=91.172100",
            404,
            "未查询到门店",
        ),
    ];
    for (query, status, msg) in cases {
        let answer = app.get(&format!("/api/v1/stores/by-point?{query}")).await;
        answer.assert_error(status, "02");
        assert_eq!(answer.err_msg(), msg, "{query}");
    }
    let en = app
        .get_en("/api/v1/stores/by-point?latitude=31.23&longitude=121.47")
        .await;
    assert!(en.err_msg().starts_with("Store lookup"), "{}", en.err_msg());
}

#[tokio::test]
async fn by_point_finds_the_stores_delivering_there_nearest_first() {
    let app = spawn_app().await;
    let store = default_store();
    let query = format!("latitude={:.6}&longitude={:.6}", store.lat, store.lng);
    let answer = app.get(&format!("/api/v1/stores/by-point?{query}")).await;
    let list = answer.assert_ok().as_array().unwrap().clone();
    assert_eq!(list[0]["storeCode"], store.store_code.as_str());
    assert_eq!(list[0]["inRange"], true);
    assert_eq!(list[0]["distance"], "0");
    let distances: Vec<f64> = list
        .iter()
        .map(|s| s["distance"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
    for s in &list {
        assert_eq!(s["inRange"], true);
        assert_ne!(s["status"], "closed");
        assert!(s["serviceMethods"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(0)));
    }
}

#[tokio::test]
async fn a_closed_store_is_never_offered_for_delivery() {
    let app = spawn_app().await;
    let closed = demo()
        .stores
        .into_iter()
        .find(|s| s.status == StoreStatus::Closed)
        .unwrap();
    let query = format!("latitude={:.6}&longitude={:.6}", closed.lat, closed.lng);
    let answer = app.get(&format!("/api/v1/stores/by-point?{query}")).await;
    if answer.err_code() == "00" {
        assert!(!codes(answer.data()).contains(&closed.store_code));
    } else {
        answer.assert_error(404, "02");
    }
}

#[tokio::test]
async fn nearby_lists_nearest_first_and_still_answers_far_away() {
    let app = spawn_app().await;
    let store = default_store();
    let near = app
        .get(&format!(
            "/api/v1/stores/nearby?latitude={:.6}&longitude={:.6}",
            store.lat + 0.001,
            store.lng
        ))
        .await;
    let list = near.assert_ok().as_array().unwrap().clone();
    assert!(!list.is_empty() && list.len() <= 10);
    assert_eq!(list[0]["storeCode"], store.store_code.as_str());
    // Lhasa: no store within 20 km, so "02" with the nearest stores still listed.
    let far = app
        .get("/api/v1/stores/nearby?latitude=29.652500&longitude=91.172100")
        .await;
    assert_eq!((far.status, far.err_code()), (200, "02"), "{}", far.body);
    assert_eq!(far.err_msg(), "附近暂无门店");
    assert!(!far.data().as_array().unwrap().is_empty());
}

#[tokio::test]
async fn search_by_city_district_text_and_point() {
    let app = spawn_app().await;
    let demo = demo();
    let shanghai: Vec<&Store> = demo
        .stores
        .iter()
        .filter(|s| s.city_code == "310100")
        .collect();
    let by_city = app.get("/api/v1/stores/search?cityCode=310100").await;
    assert_eq!(
        by_city.assert_ok().as_array().unwrap().len(),
        shanghai.len()
    );

    let one = shanghai[0];
    let by_district = app
        .get(&format!(
            "/api/v1/stores/search?cityCode=310100&districtCode={}",
            one.district_code
        ))
        .await;
    let found = codes(by_district.assert_ok());
    assert!(found.contains(&one.store_code));
    assert!(
        found.len() < shanghai.len()
            || shanghai
                .iter()
                .all(|s| s.district_code == one.district_code)
    );

    let word = one
        .name
        .en
        .split_whitespace()
        .last()
        .unwrap()
        .to_lowercase();
    let by_text = app
        .get(&format!("/api/v1/stores/search?keyword={word}"))
        .await;
    assert!(
        codes(by_text.assert_ok()).contains(&one.store_code),
        "{word}"
    );

    let by_point = app
        .get(&format!(
            "/api/v1/stores/search?latitude={:.6}&longitude={:.6}",
            one.lat, one.lng
        ))
        .await;
    let list = by_point.assert_ok().as_array().unwrap().clone();
    assert_eq!(list.len(), demo.stores.len());
    assert_eq!(list[0]["storeCode"], one.store_code.as_str());

    let nothing = app.get("/api/v1/stores/search?cityCode=999999").await;
    assert_eq!(nothing.assert_ok().as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn cities_and_districts() {
    let app = spawn_app().await;
    let answer = app.get("/api/v1/cities").await;
    let cities = answer.assert_ok().as_array().unwrap().clone();
    assert!(cities.len() >= 3);
    assert_eq!(answer.headers["cache-control"], "public, max-age=10800");
    let shanghai = cities.iter().find(|c| c["cityCode"] == "310100").unwrap();
    assert_eq!(shanghai["cityCharAt0"], "S");
    assert_eq!(shanghai["cityNameCN"], "上海");

    let districts = app.get("/api/v1/cities/310100/districts?all=1").await;
    assert_eq!(districts.headers["cache-control"], "public, max-age=7200");
    let list = districts.assert_ok().as_array().unwrap().clone();
    assert_eq!(list[0]["districtName"], "全部");
    assert_eq!(list[0]["districtCode"], "");
    assert!(list.len() >= 5);
    let en = app.get_en("/api/v1/cities/310100/districts?all=1").await;
    assert_eq!(en.assert_ok()[0]["districtName"], "All");
    let plain = app.get("/api/v1/cities/310100/districts").await;
    assert_eq!(plain.assert_ok().as_array().unwrap().len(), list.len() - 1);
    app.get("/api/v1/cities/999999/districts")
        .await
        .assert_error(404, "404");
}
