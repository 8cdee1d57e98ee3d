#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Order type and time, scan-to-order, and submit: amounts recomputed and compared, the
//! Idempotency-Key, the address inside the delivery area, one transaction.

use crate::cart::{add, cart_call, Auth};
use crate::helpers::{demo, spawn_app, Answer, TestApp, MONDAY_NOON_MS};
use reqwest::Method;
use serde_json::{json, Value};

const MINUTE: i64 = 60_000;

pub(crate) async fn reserve(app: &TestApp, token: &str, body: Value) -> Answer {
    app.clock.advance_ms(1_000); // past the 380 ms anti-repeat
    cart_call(
        app,
        Method::POST,
        "/api/v1/orders/reservation",
        Some(&body),
        Auth::User(token),
    )
    .await
}

/// An address at the flagship's door (inside its delivery area).
pub(crate) async fn home_address(app: &TestApp, token: &str) -> i64 {
    let sh001 = demo()
        .stores
        .into_iter()
        .find(|s| s.store_code == "SH001")
        .unwrap();
    let body = json!({
        "name": "张三", "phone": "13812345678", "baseAddress": "上海市黄浦区西藏中路236号",
        "houseNumber": "5楼501", "lat": format!("{:.6}", sh001.lat), "lng": format!("{:.6}", sh001.lng),
        "cityName": "上海市",
    });
    app.post("/api/v1/addresses", &body, Some(token))
        .await
        .assert_ok()["id"]
        .as_i64()
        .unwrap()
}

pub(crate) fn submit_body(cart: &Value, address: Option<i64>, payment: &str) -> Value {
    json!({
        "orderType": cart["orderType"], "isBookOrder": cart["isBookOrder"],
        "plannedDeliverTime": cart["orderTime"], "consignAddressId": address,
        "remark": "少放辣,谢谢$", "contactless": true, "tableware": 2, "isNeedInvoice": false,
        "paymentType": payment,
        "orderProductAmount": cart["priceOfProduct"], "activityAmount": cart["discountAmount"],
        "freightAmount": cart["deliveryFeeAfterPE"], "orderAmount": cart["orderAmount"],
        "shoppingCarVersion": cart["shoppingCarVersion"],
    })
}

pub(crate) async fn submit(app: &TestApp, token: &str, body: &Value, key: &str) -> Answer {
    app.call(
        Method::POST,
        "/api/v1/orders",
        Some(body),
        Some(token),
        &[("Idempotency-Key", key)],
    )
    .await
}

pub(crate) async fn orders_of(app: &TestApp, token: &str) -> i64 {
    let me = app.get_auth("/api/v1/me", Some(token)).await;
    let id = me.assert_ok()["id"]
        .as_i64()
        .or_else(|| me.data()["userId"].as_i64());
    let repo = actors::db::orders::OrderRepo::new(app.app_state.db.clone());
    match id {
        Some(id) => repo.count_for_user(id).await.unwrap(),
        None => panic!("no user id in /me: {}", me.body),
    }
}

#[tokio::test]
async fn reservation_times_follow_the_store() {
    let app = spawn_app().await;
    let token = app.register("13512350001").await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    // Delivery: now + 30 minutes.
    let r = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    // (Registering moved the test clock past the SMS resend interval.)
    let now = app.clock.now_ms();
    assert_eq!(r.assert_ok()["orderTime"], now + 30 * MINUTE);
    // Pickup: now + 15 minutes rounded up to 5: 12:16:03 → 12:20.
    let r = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    let cart = r.assert_ok();
    assert_eq!(cart["orderTime"], MONDAY_NOON_MS + 20 * MINUTE);
    assert_eq!(
        (
            cart["orderType"].as_u64(),
            cart["oldServiceMethod"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(
        cart["deliveryFee"], 0.0,
        "pickup is re-priced without the fee"
    );
    // A repeat within 380 ms.
    let again = cart_call(
        &app,
        Method::POST,
        "/api/v1/orders/reservation",
        Some(&json!({"orderType": 1, "storeCode": "SH001"})),
        Auth::User(&token),
    )
    .await;
    again.assert_error(429, "429");
    assert_eq!(again.err_msg(), "请求频繁，请稍后再试");
    // Booking tomorrow at 12:00 at the flagship (bookDays 3).
    let tomorrow_noon = MONDAY_NOON_MS + 24 * 60 * MINUTE;
    let r = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001", "isBookOrder": true, "orderTime": tomorrow_noon})).await;
    let cart = r.assert_ok();
    assert_eq!(
        (cart["orderTime"].as_i64(), cart["isBookOrder"].as_bool()),
        (Some(tomorrow_noon), Some(true))
    );
    // At 03:00 the store is closed; in five days it is beyond bookDays; SH003 takes none.
    for (body, msg) in [
        (
            json!({"orderType": 0, "storeCode": "SH001", "isBookOrder": true, "orderTime": tomorrow_noon - 9 * 60 * MINUTE}),
            "不在门店营业时间内",
        ),
        (
            json!({"orderType": 0, "storeCode": "SH001", "isBookOrder": true, "orderTime": tomorrow_noon + 4 * 24 * 60 * MINUTE}),
            "",
        ),
        (
            json!({"orderType": 0, "storeCode": "SH003", "isBookOrder": true, "orderTime": tomorrow_noon}),
            "该门店不支持预约",
        ),
        (
            json!({"orderType": 2, "storeCode": "BJ004"}),
            "该门店不支持此服务方式",
        ),
    ] {
        let r = reserve(&app, &token, body.clone()).await;
        r.assert_error(400, "400");
        if !msg.is_empty() {
            assert_eq!(r.err_msg(), msg, "{body}");
        }
    }
    let slots = app
        .get("/api/v1/orders/reservation/slots?storeCode=SH001&orderType=0")
        .await;
    let slots = slots.assert_ok();
    assert_eq!(
        slots["days"].as_array().unwrap().len(),
        4,
        "today and three more days"
    );
    assert_eq!(slots["days"][1]["label"], "明天");
    assert!(slots["days"][1]["slots"]
        .as_array()
        .unwrap()
        .contains(&json!(tomorrow_noon)));
    let none = app
        .get("/api/v1/orders/reservation/slots?storeCode=SH003&orderType=0")
        .await;
    assert_eq!(none.assert_ok()["days"], json!([]));
}

#[tokio::test]
async fn submit_creates_one_order_and_empties_the_cart() {
    let app = spawn_app().await;
    let token = app.register("13512350002").await;
    let address = home_address(&app, &token).await;
    add(&app, Auth::User(&token), json!([{"productCode": "PZ001", "selection": {"sizeCode": "14"}}, {"productCode": "DR001"}])).await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    let body = submit_body(&cart, Some(address), "online");

    // A tampered amount: 409 -6 with the fresh cart, and nothing created.
    let mut tampered = body.clone();
    tampered["orderAmount"] = json!(1.0);
    let refused = submit(&app, &token, &tampered, "k-tampered").await;
    refused.assert_error(409, "-6");
    assert_eq!(refused.data()["orderAmount"], cart["orderAmount"]);
    assert_eq!(orders_of(&app, &token).await, 0);

    let first = submit(&app, &token, &body, "k-1").await;
    let order = first.assert_ok().clone();
    assert_eq!(order["state"], 5);
    assert_eq!(order["orderAmount"], cart["orderAmount"]);
    assert_eq!(order["payable"], cart["orderAmount"]);
    // The same key and body: the first answer again, no second order.
    let replay = submit(&app, &token, &body, "k-1").await;
    assert_eq!(replay.assert_ok()["orderNo"], order["orderNo"]);
    assert_eq!(replay.assert_ok()["orderId"], order["orderId"]);
    // The same key with another body.
    let mut other = body.clone();
    other["tableware"] = json!(5);
    submit(&app, &token, &other, "k-1")
        .await
        .assert_error(409, "409");
    assert_eq!(orders_of(&app, &token).await, 1);

    let cart_after = cart_call(&app, Method::GET, "/api/v1/cart", None, Auth::User(&token)).await;
    assert_eq!(cart_after.assert_ok()["items"], json!([]));
    let detail = app
        .get_auth(
            &format!("/api/v1/orders/{}", order["orderNo"].as_str().unwrap()),
            Some(&token),
        )
        .await;
    let detail = detail.assert_ok();
    assert_eq!(detail["stateLabel"], "待支付");
    assert_eq!(detail["remark"], "【无接触配送】少放辣，谢谢");
    // The contactless note apart, for the app to word it in the reader's language.
    assert_eq!(detail["contactless"], true);
    assert_eq!(detail["remarkText"], "少放辣，谢谢");
    assert_eq!(detail["paidAt"], Value::Null, "not paid yet");
    assert_eq!(detail["refusalReason"], Value::Null);
    // Each line's options in the reader's language, whatever language the order was placed in.
    let pizza_id = detail["lines"][0]["id"].as_str().unwrap().to_string();
    let options_of = |d: &Value| {
        d["lineOptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["lineId"] == pizza_id.as_str())
            .map(|o| o["options"].clone())
            .unwrap()
    };
    let zh_options = options_of(detail);
    assert!(
        zh_options[0].as_str().unwrap().contains("英寸"),
        "{zh_options}"
    );
    let en_detail = app
        .get_with(
            &format!("/api/v1/orders/{}", order["orderNo"].as_str().unwrap()),
            &[
                ("Authorization", &format!("Bearer {token}")),
                ("Accept-Language", "en"),
            ],
        )
        .await;
    let en_options = options_of(en_detail.assert_ok());
    assert!(
        en_options[0].as_str().unwrap().contains("inch"),
        "{en_options}"
    );
    assert!(
        !en_options
            .to_string()
            .chars()
            .any(|c| ('\u{3400}'..='\u{9fff}').contains(&c)),
        "{en_options}"
    );
    assert_eq!(
        en_detail.assert_ok()["storeName"],
        "People's Square Flagship"
    );
    assert_eq!(detail["receiverMobile"], "138****5678");
    assert_eq!(detail["lines"].as_array().unwrap().len(), 2);
    assert_eq!(detail["orderAmount"], cart["orderAmount"]);
    assert_eq!(detail["history"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            detail["history"][0]["state"].as_u64(),
            detail["history"][0]["actor"].as_str()
        ),
        (Some(5), Some("customer"))
    );
    assert_eq!(detail["viewToken"].as_str().unwrap().len(), 32);
    // Somebody else's order is not found.
    let stranger = app.register("13512350003").await;
    let theirs = app
        .get_auth(
            &format!("/api/v1/orders/{}", order["orderNo"].as_str().unwrap()),
            Some(&stranger),
        )
        .await;
    theirs.assert_error(404, "404");
}

#[tokio::test]
async fn concurrent_submits_with_one_key_create_one_order() {
    let app = spawn_app().await;
    let token = app.register("13512350004").await;
    let address = home_address(&app, &token).await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 4}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let body = submit_body(cart.assert_ok(), Some(address), "offline");
    let (a, b, c) = tokio::join!(
        submit(&app, &token, &body, "same-key"),
        submit(&app, &token, &body, "same-key"),
        submit(&app, &token, &body, "same-key"),
    );
    let numbers: Vec<Value> = [a, b, c]
        .iter()
        .map(|r| r.assert_ok()["orderNo"].clone())
        .collect();
    assert!(numbers.iter().all(|n| n == &numbers[0]), "{numbers:?}");
    assert_eq!(orders_of(&app, &token).await, 1);
}

#[tokio::test]
async fn submit_checks_the_address_the_store_and_the_payment() {
    let app = spawn_app().await;
    let token = app.register("13512350005").await;
    // An address far from the flagship.
    let far = json!({"name": "李四", "phone": "13812345679", "baseAddress": "北京市朝阳区建国路1号",
        "houseNumber": "1号", "lat": "39.908722", "lng": "116.397499", "cityName": "北京市"});
    let far = app
        .post("/api/v1/addresses", &far, Some(&token))
        .await
        .assert_ok()["id"]
        .as_i64()
        .unwrap();
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    let out = submit(
        &app,
        &token,
        &submit_body(&cart, Some(far), "online"),
        "k-far",
    )
    .await;
    out.assert_error(400, "-5");
    assert_eq!(out.err_msg(), "地址不在门店配送范围内");
    let none = submit(&app, &token, &submit_body(&cart, None, "online"), "k-none").await;
    none.assert_error(400, "400");
    // Pickup cannot be paid on delivery.
    let pickup = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    let cod = submit(
        &app,
        &token,
        &submit_body(pickup.assert_ok(), None, "offline"),
        "k-cod",
    )
    .await;
    cod.assert_error(400, "400");
    assert_eq!(cod.err_msg(), "货到付款仅限外送订单");
    // Not logged in.
    let anon = app
        .post("/api/v1/orders", &submit_body(&cart, None, "online"), None)
        .await;
    anon.assert_error(401, "401");
    assert_eq!(orders_of(&app, &token).await, 0);
    // Pickup paid online works without an address; the receiver is the account's phone.
    let ok = submit(
        &app,
        &token,
        &submit_body(pickup.assert_ok(), None, "online"),
        "k-pickup",
    )
    .await;
    assert_eq!(ok.assert_ok()["orderType"], 1);
}

#[tokio::test]
async fn a_table_code_makes_a_dine_in_cart_at_that_desk() {
    let app = spawn_app().await;
    let link = app
        .get("/api/v1/dev/table-link?storeCode=SH001&deskNo=A12")
        .await;
    let link = link.assert_ok().clone();
    assert!(link["url"].as_str().unwrap().contains("/menu?storeName="));
    let body = json!({"storeName": link["storeName"], "storeCode": "SH001", "deskNo": "A12", "sign": link["sign"]});
    let scanned = cart_call(
        &app,
        Method::POST,
        "/api/v1/orders/scan",
        Some(&body),
        Auth::None,
    )
    .await;
    let scanned = scanned.assert_ok();
    assert_eq!(scanned["deskNo"], "A12");
    assert_eq!(scanned["expiresAt"], MONDAY_NOON_MS + 3_600_000);
    assert_eq!(scanned["cart"]["orderType"], 2);
    assert_eq!(scanned["cart"]["deskNo"], "A12");
    let mut forged = body.clone();
    forged["deskNo"] = json!("A13");
    let refused = cart_call(
        &app,
        Method::POST,
        "/api/v1/orders/scan",
        Some(&forged),
        Auth::None,
    )
    .await;
    refused.assert_error(400, "400");
    assert_eq!(refused.err_msg(), "无效的桌台二维码");
}

#[tokio::test]
async fn every_cart_and_order_endpoint_is_documented() {
    let app = spawn_app().await;
    let doc = app.get("/api-docs/openapi.json").await.body;
    let paths = doc["paths"].as_object().unwrap();
    for (path, methods) in [
        ("/cart", &["get", "delete"][..]),
        ("/cart/items", &["post", "patch", "delete"]),
        ("/cart/rules", &["post"]),
        ("/cart/clear-unavailable", &["post"]),
        ("/cart/verify", &["post"]),
        ("/orders/reservation", &["post"]),
        ("/orders/reservation/slots", &["get"]),
        ("/orders/scan", &["post"]),
        ("/orders", &["post"]),
        ("/orders/{orderNo}", &["get"]),
        ("/dev/table-link", &["get"]),
    ] {
        for m in methods {
            assert!(
                paths[&format!("/api/v1{path}")].get(*m).is_some(),
                "{m} {path} missing from the OpenAPI document"
            );
        }
    }
}

#[tokio::test]
async fn the_order_list_and_ordering_again() {
    let app = spawn_app().await;
    let token = app.register("13512350006").await;
    let address = home_address(&app, &token).await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "PZ002", "selection": {"sizeCode": "12", "pastryCode": "THIN"}}, {"productCode": "DR003", "selection": {"sizeCode": "L"}, "quantity": 2}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let body = submit_body(cart.assert_ok(), Some(address), "offline");
    let order = submit(&app, &token, &body, "k-list").await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();

    let list = app.get_auth("/api/v1/orders", Some(&token)).await;
    let list = list.assert_ok();
    assert_eq!(list["total"], 1);
    let first = &list["list"][0];
    assert_eq!(
        (first["orderNo"].as_str(), first["stateLabel"].as_str()),
        (Some(order_no.as_str()), Some("货到付款"))
    );
    assert_eq!(first["itemCount"], 3);
    assert_eq!(first["storeName"], "人民广场旗舰店");
    for (filter, total) in [("active", 1), ("unpaid", 0), ("completed", 0), ("7", 1)] {
        let l = app
            .get_auth(&format!("/api/v1/orders?state={filter}"), Some(&token))
            .await;
        assert_eq!(l.assert_ok()["total"], total, "{filter}");
    }
    app.get_auth("/api/v1/orders?state=paid", Some(&token))
        .await
        .assert_error(400, "400");

    let again = app
        .post(
            &format!("/api/v1/orders/{order_no}/reorder"),
            &json!({}),
            Some(&token),
        )
        .await;
    let again = again.assert_ok();
    assert_eq!(again["skipped"], json!([]));
    let items = again["cart"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        (
            items[0]["pizzaSizeCode"].as_str(),
            items[0]["pizzaPastryCode"].as_str()
        ),
        (Some("12"), Some("THIN"))
    );
    assert_eq!(
        (
            items[1]["productCode"].as_str(),
            items[1]["quantity"].as_u64()
        ),
        (Some("DR003"), Some(2))
    );
}

/// The order keeps the breakdown the customer agreed to: the order page and the store's
/// tablet show the same lines and discounts as the cart did, adding up to what is charged.
#[tokio::test]
async fn the_order_and_the_tablet_show_the_breakdown_of_the_cart() {
    let app = spawn_app().await;
    let token = app.register("13512350021").await;
    let address = home_address(&app, &token).await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "PZ001", "selection": {"sizeCode": "14", "quantity": 2}}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    assert_eq!(cart["orderAmount"], 154.4, "R002 and R005 (issue 20)");
    let order = submit(
        &app,
        &token,
        &submit_body(&cart, Some(address), "offline"),
        "k-b",
    )
    .await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let detail = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let detail = detail.assert_ok();
    assert_eq!(detail["breakdown"], cart["breakdown"]);
    let b = &detail["breakdown"];
    let sum = |key: &str| -> f64 {
        b[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| (x["amount"].as_f64().unwrap() * 100.0).round())
            .sum()
    };
    let fen = |v: &Value| (v.as_f64().unwrap() * 100.0).round();
    assert_eq!(
        sum("lines") - sum("discounts") + fen(&b["deliveryFee"]) - fen(&b["deliveryFeeWaived"]),
        fen(&detail["orderAmount"])
    );
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    let queue = app
        .get_auth("/api/v1/tablet/orders?scope=active", Some(&staff))
        .await;
    let queue = queue.assert_ok().as_array().unwrap().clone();
    let card = queue
        .iter()
        .find(|o| o["orderNo"] == order_no.as_str())
        .unwrap();
    assert_eq!(card["breakdown"], cart["breakdown"]);
}
