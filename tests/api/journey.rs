#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue 22, the ordering journey: a closed store takes no items or orders except bookings for
//! a slot it takes, the delivery minimum (起送), the one arrival time every screen reads, and the
//! payment methods of each channel.

use crate::cart::{add, cart_call, Auth};
use crate::checkout::{home_address, reserve, submit, submit_body};
use crate::helpers::{spawn_app, spawn_app_at, TestApp, MONDAY_NOON_MS};
use crate::payments::{pay_at_cashier, tablet_login, until_state};
use reqwest::Method;
use serde_json::{json, Value};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;

async fn set_status(app: &TestApp, staff: &str, status: &str) {
    app.put(
        "/api/v1/tablet/store/status",
        &json!({ "status": status }),
        Some(staff),
    )
    .await
    .assert_ok();
}

async fn add_raw(app: &TestApp, token: &str, items: Value, lang: &str) -> crate::helpers::Answer {
    app.call(
        Method::POST,
        "/api/v1/cart/items",
        Some(&json!({"storeCode": "SH001", "items": items})),
        Some(token),
        &[("Accept-Language", lang)],
    )
    .await
}

/// The first bookable slot tomorrow (China time) for the order type at SH001.
async fn tomorrow_slot(app: &TestApp, token: &str, order_type: u8) -> i64 {
    let slots = app
        .get_auth(
            &format!("/api/v1/orders/reservation/slots?storeCode=SH001&orderType={order_type}"),
            Some(token),
        )
        .await;
    let days = slots.assert_ok()["days"].as_array().unwrap().clone();
    days.iter()
        .skip(1)
        .find_map(|d| {
            d["slots"]
                .as_array()
                .and_then(|s| s.first())
                .and_then(Value::as_i64)
        })
        .expect("SH001 takes bookings for tomorrow")
}

#[tokio::test]
async fn a_closed_store_takes_no_items_or_orders_except_bookings_for_a_slot_it_takes() {
    let app = spawn_app().await;
    let token = app.register("13512390001").await;
    let staff = tablet_login(&app, "SH001").await;
    set_status(&app, &staff, "closed").await;

    // Adding is refused, saying why and offering a booking (SH001 takes them), in both languages.
    let zh = add_raw(&app, &token, json!([{"productCode": "SD001"}]), "zh").await;
    zh.assert_error(400, "400");
    assert_eq!(zh.err_msg(), "门店休息中，请预约稍后的时间或选择其他门店");
    let en = add_raw(&app, &token, json!([{"productCode": "SD001"}]), "en").await;
    en.assert_error(400, "400");
    assert_eq!(
        en.err_msg(),
        "The store is closed for now; book a later time or choose another store"
    );
    let cart = cart_call(&app, Method::GET, "/api/v1/cart", None, Auth::User(&token)).await;
    assert_eq!(cart.assert_ok()["items"], json!([]), "nothing was added");

    // Booked for tomorrow, the same store takes the items and the order.
    let slot = tomorrow_slot(&app, &token, 1).await;
    reserve(
        &app,
        &token,
        json!({"orderType": 1, "storeCode": "SH001", "isBookOrder": true, "orderTime": slot}),
    )
    .await
    .assert_ok();
    let cart = add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    assert_eq!(cart["items"].as_array().unwrap().len(), 1);
    assert_eq!(cart["isBookOrder"], true);
    let placed = submit(
        &app,
        &token,
        &submit_body(&cart, None, "online"),
        "k-booked",
    )
    .await;
    let placed = placed.assert_ok();
    assert_eq!(placed["orderTime"], slot);

    // A store that takes no bookings (SH006, closed in the seed) says only "another store".
    let other = app.register("13512390002").await;
    let refused = app
        .call(
            Method::POST,
            "/api/v1/cart/items",
            Some(&json!({"storeCode": "SH006", "items": [{"productCode": "SD001"}]})),
            Some(&other),
            &[("Accept-Language", "zh")],
        )
        .await;
    refused.assert_error(400, "400");
    assert_eq!(refused.err_msg(), "门店休息中，请选择其他门店");

    // Reopened: adds for now work again.
    set_status(&app, &staff, "open").await;
    add(&app, Auth::User(&other), json!([{"productCode": "SD001"}])).await;
}

#[tokio::test]
async fn outside_its_hours_a_store_fills_carts_but_takes_only_booked_orders() {
    // 02:00 China time on that Monday: outside 10:00–23:59.
    let night = MONDAY_NOON_MS - 10 * HOUR;
    let app = spawn_app_at(night).await;
    let token = app.register("13512390003").await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    let now = app
        .call(
            Method::POST,
            "/api/v1/orders",
            Some(&submit_body(&cart, None, "online")),
            Some(&token),
            &[("Idempotency-Key", "k-now"), ("Accept-Language", "en")],
        )
        .await;
    now.assert_error(400, "400");
    assert_eq!(
        now.err_msg(),
        "The store is not open now; book a time within its hours or choose another store"
    );
    // Booked for noon (the first slot today inside the hours), it goes through.
    let slots = app
        .get_auth(
            "/api/v1/orders/reservation/slots?storeCode=SH001&orderType=1",
            Some(&token),
        )
        .await;
    let first = slots.assert_ok()["days"][0]["slots"][0].as_i64().unwrap();
    let cart = reserve(
        &app,
        &token,
        json!({"orderType": 1, "storeCode": "SH001", "isBookOrder": true, "orderTime": first}),
    )
    .await;
    let booked = submit(
        &app,
        &token,
        &submit_body(cart.assert_ok(), None, "online"),
        "k-book",
    )
    .await;
    assert_eq!(booked.assert_ok()["orderTime"], first);
}

#[tokio::test]
async fn below_the_delivery_minimum_the_cart_says_the_gap_and_submit_is_refused() {
    let app = spawn_app().await;
    let token = app.register("13512390004").await;
    let address = home_address(&app, &token).await;
    // SH001 delivers from ¥20.00; a cola is ¥8.00.
    add(&app, Auth::User(&token), json!([{"productCode": "DR001"}])).await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    assert_eq!(cart["minDeliveryAmount"], 20.0);
    assert_eq!(cart["minDeliveryGap"], 12.0);
    assert_eq!(cart["minDeliveryMsg"], "还差¥12.00起送");
    let en = app
        .call(
            Method::GET,
            "/api/v1/cart",
            None,
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    assert_eq!(en.assert_ok()["minDeliveryMsg"], "¥12.00 more for delivery");

    let body = submit_body(&cart, Some(address), "online");
    let zh = submit(&app, &token, &body, "k-min").await;
    zh.assert_error(400, "400");
    assert_eq!(
        zh.err_msg(),
        "还差¥12.00起送（本店外送¥20.00起送），请再选些商品"
    );
    let en = app
        .call(
            Method::POST,
            "/api/v1/orders",
            Some(&body),
            Some(&token),
            &[("Idempotency-Key", "k-min-en"), ("Accept-Language", "en")],
        )
        .await;
    en.assert_error(400, "400");
    assert_eq!(
        en.err_msg(),
        "Add ¥12.00 more for delivery: this store delivers orders from ¥20.00"
    );
    assert_eq!(crate::checkout::orders_of(&app, &token).await, 0);

    // Pickup has no minimum; delivery at or above it goes through.
    let pickup = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    assert_eq!(pickup.assert_ok()["minDeliveryGap"], 0.0);
    assert_eq!(pickup.data()["minDeliveryMsg"], Value::Null);
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "DR001", "quantity": 2}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    assert_eq!(cart["minDeliveryGap"], 0.0, "¥24.00 reaches ¥20.00");
    submit(
        &app,
        &token,
        &submit_body(&cart, Some(address), "online"),
        "k-ok",
    )
    .await
    .assert_ok();
}

#[tokio::test]
async fn one_arrival_time_on_checkout_the_order_and_the_tablet() {
    let app = spawn_app().await;
    let token = app.register("13512390005").await;
    let address = home_address(&app, &token).await;
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    // Checkout: what the paid order will say, deliveryTime (30 min) from now.
    let now = app.clock.now_ms();
    assert_eq!(cart["arrival"]["kind"], "estimated");
    assert_eq!(cart["arrival"]["at"], now + 30 * MINUTE);

    let placed = submit(
        &app,
        &token,
        &submit_body(&cart, Some(address), "online"),
        "k-a",
    )
    .await;
    let order_no = placed.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let detail = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    assert_eq!(
        detail.assert_ok()["arrival"],
        Value::Null,
        "unpaid: nothing promised"
    );
    let payment = crate::payments::create_payment(&app, &token, &order_no).await;
    let paid = pay_at_cashier(&app, payment["paymentId"].as_str().unwrap(), "success").await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let paid = until_state(&app, &token, &order_no, 6).await;
    let arrival = paid["arrival"].clone();
    assert_eq!(arrival["kind"], "estimated");
    assert!(arrival["at"].as_i64().unwrap() >= now + 30 * MINUTE);

    // The tablet's card says the same.
    let staff = tablet_login(&app, "SH001").await;
    let queue = app.get_auth("/api/v1/tablet/orders", Some(&staff)).await;
    let card = queue
        .assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["orderNo"] == order_no.as_str())
        .cloned()
        .unwrap();
    assert_eq!(card["arrival"], arrival);

    // Time passes with the order waiting: the arrival moves on, on both screens.
    app.clock.advance_ms(20 * MINUTE);
    let later = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let later_at = later.assert_ok()["arrival"]["at"].as_i64().unwrap();
    assert!(
        later_at > arrival["at"].as_i64().unwrap(),
        "an overrun stage pushes it on"
    );
    let queue = app.get_auth("/api/v1/tablet/orders", Some(&staff)).await;
    let card = queue.assert_ok().as_array().unwrap()[0].clone();
    assert_eq!(card["arrival"]["at"], later_at);

    // Walked to delivered: when it was delivered, no countdown.
    let path = |step: &str| format!("/api/v1/tablet/orders/{order_no}/{step}");
    app.post(&path("accept"), &json!({}), Some(&staff))
        .await
        .assert_ok();
    for from in [1, 10, 20, 30, 40] {
        app.clock.advance_ms(MINUTE);
        app.post(&path("advance"), &json!({ "from": from }), Some(&staff))
            .await
            .assert_ok();
    }
    let done = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let done = done.assert_ok();
    assert_eq!(done["arrival"]["kind"], "delivered");
    assert_eq!(done["arrival"]["at"], app.clock.now_ms());
    assert_eq!(done["arrival"]["countdownFrom"], Value::Null);
}

#[tokio::test]
async fn a_booked_order_shows_its_time_and_counts_down_only_near_it() {
    let app = spawn_app().await;
    let token = app.register("13512390006").await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let slot = tomorrow_slot(&app, &token, 1).await;
    let cart = reserve(
        &app,
        &token,
        json!({"orderType": 1, "storeCode": "SH001", "isBookOrder": true, "orderTime": slot}),
    )
    .await;
    let cart = cart.assert_ok().clone();
    assert_eq!(cart["arrival"]["kind"], "booked");
    assert_eq!(cart["arrival"]["at"], slot);
    let placed = submit(&app, &token, &submit_body(&cart, None, "online"), "k-b").await;
    let order_no = placed.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let payment = crate::payments::create_payment(&app, &token, &order_no).await;
    let paid = pay_at_cashier(&app, payment["paymentId"].as_str().unwrap(), "success").await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let paid = until_state(&app, &token, &order_no, 6).await;
    // Booked a day ahead: its time, and a countdown only from two hours before it.
    assert_eq!(
        paid["arrival"],
        json!({"kind": "booked", "at": slot, "countdownFrom": slot - 2 * HOUR})
    );
}

#[tokio::test]
async fn a_payment_method_the_channel_does_not_offer_is_refused() {
    let app = spawn_app().await;
    let token = app.register("13512390007").await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let cart = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    let placed = submit(
        &app,
        &token,
        &submit_body(cart.assert_ok(), None, "online"),
        "k-p",
    )
    .await;
    let order_no = placed.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let pay = |method: &'static str, channel: &'static str, lang: &'static str| {
        let (app, token, order_no) = (&app, token.clone(), order_no.clone());
        async move {
            app.call(
                Method::POST,
                "/api/v1/payments",
                Some(&json!({"orderNo": order_no, "method": method})),
                Some(&token),
                &[("X-Channel-Id", channel), ("Accept-Language", lang)],
            )
            .await
        }
    };
    // Alipay inside WeChat, WeChat's JSAPI pay in a browser, WeChat Pay inside Alipay.
    for (method, channel) in [
        ("alipay_wap", "5"),
        ("wechat_jsapi", "2"),
        ("wechat_jsapi", "1"),
        ("wechat_h5", "9"),
    ] {
        let refused = pay(method, channel, "zh").await;
        refused.assert_error(400, "400");
        assert_eq!(
            refused.err_msg(),
            "当前渠道不支持该支付方式",
            "{method} in {channel}"
        );
    }
    let en = pay("alipay_wap", "5", "en").await;
    assert_eq!(en.err_msg(), "That payment method is not available here");
    // WeChat Pay is offered in a computer's browser (web 2) as in a phone's (wap 1).
    pay("wechat_h5", "2", "zh").await.assert_ok();
}

async fn set_ingredient(
    app: &TestApp,
    staff: &str,
    code: &str,
    sold_out: bool,
) -> crate::helpers::Answer {
    app.put(
        &format!("/api/v1/tablet/ingredients/{code}/availability"),
        &json!({ "soldOut": sold_out }),
        Some(staff),
    )
    .await
}

fn codes(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|i| i[field].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_86ed_topping_or_flavour_leaves_every_product_and_half_that_uses_it() {
    let app = spawn_app().await;
    let staff = tablet_login(&app, "SH001").await;
    let token = app.register("13512390008").await;
    // A pizza with its mushrooms in the cart before the kitchen runs out of them.
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "PZ001", "selection": {"sizeCode": "12"}}]),
    )
    .await;

    for code in [
        "B-MUSHROOM",
        "X-MUSHROOM",
        "F-PEPPERONI",
        "F-HAWAIIAN",
        "F-SUPREME",
    ] {
        let board = set_ingredient(&app, &staff, code, true).await;
        let sold_out = board.assert_ok()["soldOut"].as_array().unwrap().clone();
        assert!(
            sold_out.iter().any(|k| k.as_str().unwrap().ends_with(code)),
            "{code}"
        );
    }
    // A repeat changes nothing; an unknown code is 404 and changes nothing.
    set_ingredient(&app, &staff, "B-MUSHROOM", true)
        .await
        .assert_ok();
    set_ingredient(&app, &staff, "NOPE", true)
        .await
        .assert_error(404, "404");

    // The tablet's list says what is out, by kind.
    let list = app
        .get_auth("/api/v1/tablet/ingredients", Some(&staff))
        .await;
    let list = list.assert_ok().as_array().unwrap().clone();
    let entry = |code: &str| list.iter().find(|i| i["code"] == code).cloned().unwrap();
    assert_eq!(entry("B-MUSHROOM")["kind"], "base");
    assert_eq!(entry("B-MUSHROOM")["soldOut"], true);
    assert_eq!(entry("F-PEPPERONI")["kind"], "flavor");
    assert_eq!(entry("F-VEGGIE")["soldOut"], false);
    assert!(
        entry("F-PEPPERONI")["usedBy"].as_u64().unwrap() >= 2,
        "PZ011 and HF001"
    );

    // The builder: the base topping marked, the extra and the flavours left out.
    let pz001 = app.get("/api/v1/products/PZ001?storeCode=SH001").await;
    let pz001 = pz001.assert_ok();
    let base = pz001["baseIngredientList"].as_array().unwrap();
    let mushroom = base.iter().find(|b| b["code"] == "B-MUSHROOM").unwrap();
    assert_eq!(mushroom["soldOut"], true);
    assert!(!codes(&pz001["additionalIngredientList"], "code").contains(&"X-MUSHROOM".to_string()));
    assert_eq!(pz001["soldOut"], false, "orderable without mushrooms");
    let hf001 = app.get("/api/v1/products/HF001?storeCode=SH001").await;
    let halves = codes(&hf001.assert_ok()["flavorList"], "flavorCode");
    assert!(
        !halves.contains(&"F-PEPPERONI".to_string()) && !halves.contains(&"F-HAWAIIAN".to_string())
    );
    assert!(halves.contains(&"F-VEGGIE".to_string()));
    // The menu: a four-flavour pizza with three flavours left cannot be made; the halves can.
    let menu = app.get("/api/v1/stores/SH001/menu?orderType=1").await;
    let card = |code: &str| {
        menu.data()["categories"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["products"].as_array().unwrap().clone())
            .find(|p| p["productCode"] == code)
            .unwrap()
    };
    menu.assert_ok();
    assert_eq!(card("PZ011")["soldOut"], true);
    assert_eq!(card("HF001")["soldOut"], false);

    // The cart: the line made with mushrooms is disabled, with its reason; submit refuses it.
    let cart = reserve(&app, &token, json!({"orderType": 1, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    assert_eq!(cart["items"], json!([]));
    let off = &cart["saleOutItemsFromShoppingCar"][0];
    assert_eq!(off["productCode"], "PZ001");
    assert_eq!(off["disableReason"], "soldOut");
    let refused = submit(&app, &token, &submit_body(&cart, None, "online"), "k-86").await;
    assert_ne!(refused.err_code(), "00");

    // Adds: with the mushrooms, or a sold-out half, refused; without them, taken.
    let zh = add_raw(
        &app,
        &token,
        json!([{"productCode": "PZ001", "selection": {"sizeCode": "12"}}]),
        "zh",
    )
    .await;
    zh.assert_error(400, "400");
    assert_eq!(zh.err_msg(), "所选的配料或口味已售罄，请重新选择");
    let en = add_raw(&app, &token, json!([{"productCode": "HF001", "selection": {"sizeCode": "12", "flavorCodes": ["F-PEPPERONI", "F-VEGGIE"]}}]), "en").await;
    en.assert_error(400, "400");
    assert_eq!(
        en.err_msg(),
        "A topping or flavour you chose is sold out; please choose again"
    );
    let without = add(
        &app,
        Auth::User(&token),
        json!([
            {"productCode": "PZ001", "selection": {"sizeCode": "12", "removedBase": ["B-MUSHROOM"]}},
            {"productCode": "HF001", "selection": {"sizeCode": "12", "flavorCodes": ["F-MARGHERITA", "F-VEGGIE"]}}
        ]),
    )
    .await;
    assert_eq!(without["items"].as_array().unwrap().len(), 2);

    // Back on sale: in the builder again.
    set_ingredient(&app, &staff, "X-MUSHROOM", false)
        .await
        .assert_ok();
    let pz001 = app.get("/api/v1/products/PZ001?storeCode=SH001").await;
    assert!(
        codes(&pz001.assert_ok()["additionalIngredientList"], "code")
            .contains(&"X-MUSHROOM".to_string())
    );
}
