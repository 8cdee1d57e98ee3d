#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The address book: validation, default and selected rules, the per-user limit, and that
//! one user can never touch another's addresses.

use crate::helpers::{demo, spawn_app, TestApp};
use actors::domain::catalogue::LngLat;
use actors::domain::stores::store_rules::delivers_to;
use serde_json::{json, Value};

/// A point some demo store delivers to: a delivering store's own door.
fn delivered_point() -> LngLat {
    demo()
        .stores
        .iter()
        .map(|s| LngLat {
            lng: s.lng,
            lat: s.lat,
        })
        .find(|p| demo().stores.iter().any(|s| delivers_to(s, *p)))
        .expect("a store that delivers to its own door")
}

/// A valid address form at a delivered point.
pub fn form(base_address: &str) -> Value {
    let p = delivered_point();
    json!({
        "name": "张三",
        "phone": "138 1234 5678",
        "baseAddress": base_address,
        "houseNumber": "5楼501",
        "lat": format!("{:.6}", p.lat),
        "lng": format!("{:.6}", p.lng),
        "cityName": "上海市",
    })
}

async fn add(app: &TestApp, token: &str, body: &Value) -> i64 {
    let answer = app.post("/api/v1/addresses", body, Some(token)).await;
    answer.assert_ok()["id"].as_i64().unwrap()
}

async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    app.get_auth("/api/v1/addresses", Some(token))
        .await
        .assert_ok()
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn add_change_and_list_addresses() {
    let app = spawn_app().await;
    let token = app.register("13512345601").await;
    let mut body = form("上海市黄浦区西藏中路236号");
    body["isDefault"] = json!(true);
    let home = add(&app, &token, &body).await;
    let answer = app
        .get_auth(&format!("/api/v1/addresses/{home}"), Some(&token))
        .await;
    let a = answer.assert_ok();
    assert_eq!(a["phone"], "13812345678");
    assert_eq!(a["isDefault"], true);
    assert_eq!(a["hasScope"], true);
    assert_eq!(a["illegal"], false);
    assert_eq!(a["cityName"], "上海市");

    // Far from every store (Harbin), coordinates as numbers.
    let mut far = form("哈尔滨市道里区中央大街1号");
    far["lat"] = json!(45.773225);
    far["lng"] = json!(126.617399);
    let far_id = add(&app, &token, &far).await;
    let listed = list(&app, &token).await;
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["id"], home, "the default comes first");
    assert_eq!(listed[1]["hasScope"], false);
    assert_eq!(listed[1]["lat"], "45.773225");

    let mut changed = form("上海市黄浦区南京东路1号");
    changed["houseNumber"] = json!("3号楼2单元501室");
    let put = app
        .put(&format!("/api/v1/addresses/{home}"), &changed, Some(&token))
        .await;
    let put = put.assert_ok();
    assert_eq!(put["houseNumber"], "3号楼2单元501室");
    assert_eq!(put["isDefault"], true, "isDefault absent keeps the flag");

    let moved = app
        .post(
            &format!("/api/v1/addresses/{far_id}/default"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(moved.assert_ok()["isDefault"], true);
    let listed = list(&app, &token).await;
    assert_eq!(listed[0]["id"], far_id);
    assert_eq!(listed[1]["isDefault"], false);
    let me = app.get_auth("/api/v1/me", Some(&token)).await;
    assert_eq!(me.assert_ok()["addressId"], far_id);
}

#[tokio::test]
async fn every_field_error_is_answered_at_once() {
    let app = spawn_app().await;
    let token = app.register("13512345602").await;
    let empty = app
        .post("/api/v1/addresses", &json!({}), Some(&token))
        .await;
    empty.assert_error(400, "400");
    let fields: Vec<&str> = empty
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["name", "phone", "baseAddress", "houseNumber", "lat"]
    );
    assert_eq!(empty.err_msg(), "联系人不能为空");

    let mut bad = form("上海市、黄浦区");
    bad["lat"] = json!("31.23");
    bad["houseNumber"] = json!("1".repeat(101));
    let answer = app
        .call(
            reqwest::Method::POST,
            "/api/v1/addresses",
            Some(&bad),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    let messages: Vec<&str> = answer
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "Delivery address cannot contain 、 | '",
            "House number cannot exceed 100 characters",
            "The address is not valid, please choose it again",
        ]
    );
    assert!(list(&app, &token).await.is_empty());
}

#[tokio::test]
async fn the_default_and_the_selected_address_cannot_be_deleted() {
    let app = spawn_app().await;
    let token = app.register("13512345603").await;
    let mut body = form("上海市黄浦区西藏中路236号");
    body["isDefault"] = json!(true);
    let home = add(&app, &token, &body).await;
    let work = add(&app, &token, &form("上海市浦东新区世纪大道100号")).await;
    let spare = add(&app, &token, &form("上海市徐汇区漕溪北路1号")).await;

    let default = app
        .delete(&format!("/api/v1/addresses/{home}"), Some(&token))
        .await;
    default.assert_error(400, "400");
    assert_eq!(default.err_msg(), "默认地址不能删除");
    let selected = app
        .call(
            reqwest::Method::DELETE,
            &format!("/api/v1/addresses/{work}"),
            None,
            Some(&token),
            &[("X-Selected-Address-Id", &work.to_string())],
        )
        .await;
    selected.assert_error(400, "400");
    assert_eq!(selected.err_msg(), "当前选中的地址不能删除");
    // Selecting another address does not protect this one.
    app.call(
        reqwest::Method::DELETE,
        &format!("/api/v1/addresses/{spare}"),
        None,
        Some(&token),
        &[("X-Selected-Address-Id", &work.to_string())],
    )
    .await
    .assert_ok();
    let ids: Vec<i64> = list(&app, &token)
        .await
        .iter()
        .map(|a| a["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&home) && ids.contains(&work));
}

#[tokio::test]
async fn another_users_address_is_not_found_and_stays_as_it_was() {
    let app = spawn_app().await;
    let alice = app.register("13512345604").await;
    let bob = app.register("13512345605").await;
    let mut body = form("上海市黄浦区西藏中路236号");
    body["isDefault"] = json!(true);
    let hers = add(&app, &alice, &body).await;
    let her_other = add(&app, &alice, &form("上海市浦东新区世纪大道100号")).await;
    let before = list(&app, &alice).await;
    let mut his = form("上海市徐汇区漕溪北路1号");
    his["isDefault"] = json!(true);
    let his = add(&app, &bob, &his).await;

    let path = format!("/api/v1/addresses/{hers}");
    app.get_auth(&path, Some(&bob))
        .await
        .assert_error(404, "404");
    app.put(&path, &form("北京市朝阳区三里屯路19号"), Some(&bob))
        .await
        .assert_error(404, "404");
    app.delete(&format!("/api/v1/addresses/{her_other}"), Some(&bob))
        .await
        .assert_error(404, "404");
    app.post(
        &format!("/api/v1/addresses/{her_other}/default"),
        &json!({}),
        Some(&bob),
    )
    .await
    .assert_error(404, "404");
    // Bob's own default survived his failed attempts (they roll back whole).
    let bobs = list(&app, &bob).await;
    assert_eq!(bobs.len(), 1);
    assert_eq!(
        (&bobs[0]["id"], &bobs[0]["isDefault"]),
        (&json!(his), &json!(true))
    );
    let mut changed = form("北京市朝阳区三里屯路19号");
    changed["isDefault"] = json!(true);
    app.put(&path, &changed, Some(&bob))
        .await
        .assert_error(404, "404");
    assert_eq!(list(&app, &bob).await[0]["isDefault"], true);
    assert_eq!(list(&app, &alice).await, before, "nothing changed");
    // And without a token at all: log in first.
    app.get_auth(&path, None).await.assert_error(401, "401");
    app.get_auth("/api/v1/addresses/abc", Some(&alice))
        .await
        .assert_error(400, "400");
}

#[tokio::test]
async fn at_most_twenty_addresses() {
    let app = spawn_app().await;
    let token = app.register("13512345606").await;
    for n in 0..20 {
        add(&app, &token, &form(&format!("上海市黄浦区西藏中路{n}号"))).await;
    }
    let over = app
        .post(
            "/api/v1/addresses",
            &form("上海市黄浦区西藏中路99号"),
            Some(&token),
        )
        .await;
    over.assert_error(400, "400");
    assert_eq!(over.err_msg(), "最多只能保存20个地址，请先删除不用的地址");
    assert_eq!(list(&app, &token).await.len(), 20);
}

#[tokio::test]
async fn smart_paste_splits_a_pasted_contact() {
    let app = spawn_app().await;
    let token = app.register("13512345607").await;
    let answer = app
        .post(
            "/api/v1/addresses/smart-read",
            &json!({"text": "张三 13812345678 上海市黄浦区西藏中路236号 5楼501"}),
            Some(&token),
        )
        .await;
    let read = answer.assert_ok();
    assert_eq!(read["name"], "张三");
    assert_eq!(read["phone"], "13812345678");
    assert!(read["address"].as_str().unwrap().contains("西藏中路236号"));
    app.post(
        "/api/v1/addresses/smart-read",
        &json!({"text": " "}),
        Some(&token),
    )
    .await
    .assert_error(400, "400");
    app.post("/api/v1/addresses/smart-read", &json!({"text": "x"}), None)
        .await
        .assert_error(401, "401");
}

/// Address tags (issue 22): the recipient's title (sex: male 先生 / female 女士) and what the place
/// is (tag: home 家 / company 公司 / school 学校), kept, listed, changed and cleared; anything
/// else refused with its field in the request's language, and nothing stored.
#[tokio::test]
async fn addresses_keep_the_recipients_title_and_the_places_tag() {
    let app = spawn_app().await;
    let token = app.register("13512345690").await;
    let mut body = form("上海市黄浦区西藏中路236号");
    body["sex"] = json!("female");
    body["tag"] = json!("company");
    let id = add(&app, &token, &body).await;
    let book = list(&app, &token).await;
    assert_eq!(
        (book[0]["sex"].as_str(), book[0]["tag"].as_str()),
        (Some("female"), Some("company"))
    );

    // Changed, then cleared with empty values.
    body["sex"] = json!("male");
    body["tag"] = json!("school");
    app.put(&format!("/api/v1/addresses/{id}"), &body, Some(&token))
        .await
        .assert_ok();
    let one = app
        .get_auth(&format!("/api/v1/addresses/{id}"), Some(&token))
        .await;
    assert_eq!(
        (one.data()["sex"].as_str(), one.data()["tag"].as_str()),
        (Some("male"), Some("school"))
    );
    body["sex"] = json!("");
    body["tag"] = Value::Null;
    app.put(&format!("/api/v1/addresses/{id}"), &body, Some(&token))
        .await
        .assert_ok();
    let one = app
        .get_auth(&format!("/api/v1/addresses/{id}"), Some(&token))
        .await;
    assert_eq!(
        (one.data()["sex"].clone(), one.data()["tag"].clone()),
        (Value::Null, Value::Null)
    );

    // Unknown values: 400 with both fields, in zh and en; the book unchanged.
    let mut bad = form("上海市黄浦区西藏中路237号");
    bad["sex"] = json!("先生");
    bad["tag"] = json!("gym");
    let zh = app.post("/api/v1/addresses", &bad, Some(&token)).await;
    zh.assert_error(400, "400");
    let fields: Vec<(String, String)> = zh
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f["message"]
                    .as_str()
                    .or(f["msg"].as_str())
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        fields.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
        ["sex", "tag"],
        "{}",
        zh.body
    );
    assert!(zh.err_msg().contains("先生或女士"), "{}", zh.err_msg());
    let en = app
        .call(
            reqwest::Method::POST,
            "/api/v1/addresses",
            Some(&bad),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    en.assert_error(400, "400");
    assert_eq!(en.err_msg(), "The title must be Mr or Ms");
    assert_eq!(list(&app, &token).await.len(), 1);
}
