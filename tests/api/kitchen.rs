#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The kitchen screen's contract: order lines in the store's language (zh) whatever language the
//! customer ordered in, the flags on the card, and the history of today's closed orders.

use crate::helpers::{demo, spawn_app, Answer, TestApp};
use crate::payments::{ready_to_submit, tablet_login};
use reqwest::Method;
use serde_json::{json, Value};

const EN: &[(&str, &str)] = &[("Accept-Language", "en")];

/// A customer's delivery order from the flagship, cart and submit in English, paid on delivery
/// (so it reaches the store at once): (the customer's token, the orderNo).
async fn cash_order_in_en(
    app: &TestApp,
    phone: &str,
    items: Value,
    extra: Value,
) -> (String, String) {
    let (token, mut body) = ready_to_submit(app, phone, items).await;
    body["paymentType"] = json!("offline");
    body["tableware"] = json!(0);
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let order = app
        .call(
            Method::POST,
            "/api/v1/orders",
            Some(&body),
            Some(&token),
            EN,
        )
        .await;
    let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
    (token, order_no)
}

async fn queue_card(app: &TestApp, staff: &str, order_no: &str) -> Value {
    let queue = app
        .get_auth("/api/v1/tablet/orders", Some(staff))
        .await
        .assert_ok()
        .clone();
    queue
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["orderNo"] == order_no)
        .cloned()
        .unwrap_or_else(|| panic!("{order_no} not in the queue: {queue}"))
}

#[tokio::test]
async fn the_kitchen_reads_zh_lines_and_the_flags_of_an_order_placed_in_en() {
    let app = spawn_app().await;
    let menu = demo();
    let product = |code: &str| {
        menu.products
            .iter()
            .find(|p| p.product_code == code)
            .unwrap()
            .clone()
    };
    let pz011 = product("PZ011");
    let four: Vec<String> = pz011
        .flavors
        .iter()
        .take(4)
        .map(|f| f.flavor_code.clone())
        .collect();
    let pz001 = product("PZ001");
    let extra = pz001.extra_ingredients[0].clone();
    let base = pz001.base_ingredients[0].clone();
    let items = json!([
        {"productCode": "HF001", "selection": {"sizeCode": "14", "pastryCode": "CHEESE",
            "flavorCodes": ["F-SPICY", "F-MARGHERITA"]}},
        {"productCode": "PZ011", "selection": {"sizeCode": "12", "flavorCodes": four}},
        {"productCode": "CB001", "selection": {"combo": {"R1": ["PZ002|12"],
            "R2": ["SD001|", "SD002|"], "R3": ["DR001|", "DR002|"]}}},
        {"productCode": "PZ001", "quantity": 2, "selection": {"sizeCode": "12",
            "extras": {extra.code.clone(): 2}, "removedBase": [base.code.clone()]}},
    ]);
    let (_, order_no) = cash_order_in_en(
        &app,
        "13512380001",
        items,
        json!({"contactless": true, "remark": "ring twice", "tableware": 3, "isNeedInvoice": true,
            "invoice": {"kind": "company", "title": "Acme Ltd", "taxNo": "91310000MA1FL8XQ3K", "email": "ap@acme.com"}}),
    )
    .await;
    let staff = tablet_login(&app, "SH001").await;
    let card = queue_card(&app, &staff, &order_no).await;
    let lines = card["lines"].as_array().unwrap();
    let line = |name: &str| {
        lines
            .iter()
            .find(|l| l["name"] == name)
            .unwrap_or_else(|| panic!("no line {name}: {lines:?}"))
    };

    let half = line("经典双拼比萨");
    assert_eq!(half["flavours"], json!(["香辣鸡肉", "玛格丽特"]));
    assert_eq!(
        (half["size"].as_str(), half["crust"].as_str()),
        (Some("14英寸"), Some("芝心"))
    );
    let quarters = line(&pz011.name.cn);
    let zh_four: Vec<&str> = pz011
        .flavors
        .iter()
        .take(4)
        .map(|f| f.name.cn.as_str())
        .collect();
    assert_eq!(quarters["flavours"], json!(zh_four));
    let combo = line("超值双人餐");
    let pz002 = product("PZ002");
    assert_eq!(combo["combo"][0]["name"], pz002.name.cn.as_str());
    assert_eq!(combo["combo"][0]["size"], "12英寸");
    assert!(combo["combo"][0]["crust"].is_string(), "{combo}");
    let pizza = line(&pz001.name.cn);
    assert_eq!(pizza["quantity"], 2);
    assert_eq!(
        pizza["extras"],
        json!([{"name": extra.name.cn, "quantity": 2}])
    );
    assert_eq!(pizza["removed"], json!([base.name.cn]));
    assert!(
        pizza["options"]
            .as_array()
            .unwrap()
            .contains(&json!(format!("去{}", base.name.cn))),
        "{pizza}"
    );
    // Nothing English reached the kitchen's lines.
    let text = serde_json::to_string(lines).unwrap();
    for word in [
        "Half",
        "Pepperoni",
        "inch",
        "Crust",
        "Classic",
        "Value Meal",
    ] {
        assert!(!text.contains(word), "{word} in {text}");
    }

    assert_eq!(card["contactless"], true);
    assert_eq!(card["remark"], "ring twice");
    assert_eq!(card["cashToCollect"], card["orderAmount"]);
    assert!(card["cashToCollect"].as_f64().unwrap() > 0.0);
    assert_eq!(card["tableware"], 3);
    assert_eq!(
        card["invoice"],
        json!({"kind": "company", "title": "Acme Ltd", "taxNo": "91310000MA1FL8XQ3K", "email": "ap@acme.com"})
    );
    assert_eq!(card["storeName"], "人民广场旗舰店");
    assert_eq!(card["closedBy"], Value::Null);
}

async fn move_order(
    app: &TestApp,
    staff: &str,
    order_no: &str,
    action: &str,
    body: Value,
) -> Value {
    app.post(
        &format!("/api/v1/tablet/orders/{order_no}/{action}"),
        &body,
        Some(staff),
    )
    .await
    .assert_ok()["order"]
        .clone()
}

fn history_nos(answer: &Answer) -> Vec<String> {
    answer.assert_ok()["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["orderNo"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn history_lists_todays_closed_orders_of_the_store_with_search_and_pages() {
    let app = spawn_app().await;
    let one = json!([{"productCode": "SD001", "quantity": 4}]);
    let (_, done) = cash_order_in_en(&app, "13512380011", one.clone(), json!({})).await;
    let (_, refused) = cash_order_in_en(&app, "13512380012", one.clone(), json!({})).await;
    let (customer, cancelled) = cash_order_in_en(&app, "13512380013", one.clone(), json!({})).await;
    let (_, open) = cash_order_in_en(&app, "13512380014", one.clone(), json!({})).await;
    let staff = tablet_login(&app, "SH001").await;

    let mut card = move_order(&app, &staff, &done, "accept", json!({})).await;
    for _ in 0..8 {
        if card["state"] == 8 {
            break;
        }
        app.clock.advance_ms(1_000);
        card = move_order(
            &app,
            &staff,
            &done,
            "advance",
            json!({"from": card["progress"]}),
        )
        .await;
    }
    assert_eq!(card["state"], 8, "{card}");
    app.clock.advance_ms(1_000);
    move_order(
        &app,
        &staff,
        &refused,
        "refuse",
        json!({"reason": "门店太忙"}),
    )
    .await;
    // The customer cancels: the card says so (the tablet's alert reads it).
    app.clock.advance_ms(1_000);
    app.post(
        &format!("/api/v1/orders/{cancelled}/cancel"),
        &json!({}),
        Some(&customer),
    )
    .await
    .assert_ok();

    let all = app.get_auth("/api/v1/tablet/history", Some(&staff)).await;
    assert_eq!(
        history_nos(&all),
        vec![cancelled.clone(), refused.clone(), done.clone()]
    );
    assert_eq!(all.data()["total"], 3);
    assert_eq!(all.data()["hasMore"], false);
    let list = all.data()["list"].as_array().unwrap();
    assert_eq!(list[0]["closedBy"], "customer");
    assert_eq!(list[1]["closedBy"], "store");
    assert_eq!(list[1]["closeNote"], "门店太忙");
    assert_eq!(list[2]["closedBy"], "store");
    assert_eq!(
        list[2]["closeNote"],
        Value::Null,
        "a completion has no reason"
    );
    assert!(!history_nos(&all).contains(&open));

    // Pages.
    let first = app
        .get_auth("/api/v1/tablet/history?pageSize=2", Some(&staff))
        .await;
    assert_eq!(
        history_nos(&first),
        vec![cancelled.clone(), refused.clone()]
    );
    assert_eq!(
        (
            first.data()["total"].as_u64(),
            first.data()["hasMore"].as_bool()
        ),
        (Some(3), Some(true))
    );
    let second = app
        .get_auth("/api/v1/tablet/history?pageSize=2&page=2", Some(&staff))
        .await;
    assert_eq!(history_nos(&second), vec![done.clone()]);
    assert_eq!(second.data()["hasMore"], false);

    // Search: the order number's tail, the phone's tail, nothing.
    let tail = &refused[refused.len() - 6..];
    let by_no = app
        .get_auth(
            &format!("/api/v1/tablet/history?keyword={tail}"),
            Some(&staff),
        )
        .await;
    assert_eq!(history_nos(&by_no), vec![refused.clone()]);
    let by_phone = app
        .get_auth("/api/v1/tablet/history?keyword=5678", Some(&staff))
        .await;
    assert_eq!(by_phone.data()["total"], 3);
    let none = app
        .get_auth("/api/v1/tablet/history?keyword=0000000", Some(&staff))
        .await;
    assert_eq!(history_nos(&none), Vec::<String>::new());

    // Bad input, in the request's language; another store's history is refused or empty.
    let bad = app
        .get_auth("/api/v1/tablet/history?pageSize=0", Some(&staff))
        .await;
    bad.assert_error(400, "400");
    assert_eq!(bad.err_msg(), "每页条数须为1到50");
    let bad_en = app
        .call(
            Method::GET,
            "/api/v1/tablet/history?page=0",
            None,
            Some(&staff),
            EN,
        )
        .await;
    bad_en.assert_error(400, "400");
    assert_eq!(bad_en.err_msg(), "page must be a number from 1 to 1000");
    app.get_auth("/api/v1/tablet/history?storeCode=BJ001", Some(&staff))
        .await
        .assert_error(403, "403");
    app.get_auth("/api/v1/tablet/history", None)
        .await
        .assert_error(401, "401");
    let bj = tablet_login(&app, "BJ001").await;
    let theirs = app.get_auth("/api/v1/tablet/history", Some(&bj)).await;
    assert_eq!(theirs.data()["total"], 0);

    // Tomorrow (China day) the list starts empty.
    app.clock.advance_ms(24 * 3600 * 1000);
    let tomorrow = app.get_auth("/api/v1/tablet/history", Some(&staff)).await;
    assert_eq!(tomorrow.data()["total"], 0);
}
