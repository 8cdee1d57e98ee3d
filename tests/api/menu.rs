#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::{demo, spawn_app, MONDAY_NOON_MS};
use actors::domain::catalogue::{EffectiveRule, Product, Store};
use serde_json::Value;

const HOUR: i64 = 3_600_000;

fn default_store() -> Store {
    demo().stores.into_iter().find(|s| s.is_default).unwrap()
}

fn listed(menu: &Value) -> Vec<String> {
    menu["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["products"].as_array().unwrap().iter())
        .map(|p| p["productCode"].as_str().unwrap().to_string())
        .collect()
}

/// The one product whose rule limits only the dimension `pick` looks at.
fn limited_by(pick: impl Fn(&EffectiveRule) -> bool) -> Product {
    demo()
        .products
        .into_iter()
        .find(|p| p.is_show && p.effective_rule.as_ref().is_some_and(&pick))
        .expect("the demo chain has such a product")
}

async fn menu_of(app: &crate::helpers::TestApp, store: &str, query: &str) -> Value {
    let answer = app
        .get(&format!("/api/v1/stores/{store}/menu?{query}"))
        .await;
    answer.assert_ok().clone()
}

#[tokio::test]
async fn the_menu_hides_hidden_gift_expired_and_empty() {
    let app = spawn_app().await;
    let demo = demo();
    let store = default_store();
    let menu = menu_of(&app, &store.store_code, "orderType=0").await;
    let categories = menu["categories"].as_array().unwrap();
    assert!(categories.len() >= 5);
    for c in categories {
        assert_ne!(c["categoryName"], "赠品");
        assert!(
            !c["products"].as_array().unwrap().is_empty(),
            "empty category {}",
            c["categoryCode"]
        );
    }
    let codes = listed(&menu);
    assert!(codes.len() >= 30, "{}", codes.len());
    let gift = demo
        .categories
        .iter()
        .find(|c| c.name.cn == "赠品")
        .unwrap();
    for p in &demo.products {
        if !p.is_show || p.category_code == gift.category_code {
            assert!(
                !codes.contains(&p.product_code),
                "{} must be hidden",
                p.product_code
            );
        }
        let expired = p
            .effective_rule
            .as_ref()
            .and_then(|r| r.effective_date.as_ref())
            .is_some_and(|d| d.end.as_str() < "2026-11-23");
        if expired {
            assert!(
                !codes.contains(&p.product_code),
                "{} has expired",
                p.product_code
            );
        }
    }
    let sorts: Vec<i64> = categories
        .iter()
        .map(|c| c["sort"].as_i64().unwrap())
        .collect();
    assert!(sorts.windows(2).all(|w| w[0] <= w[1]));
}

#[tokio::test]
async fn time_limited_products_follow_time_weekday_and_order_type() {
    let app = spawn_app().await;
    let store = default_store().store_code;
    let lunch = limited_by(|r| {
        r.effective_time.is_some()
            && r.effective_day_of_week.is_empty()
            && r.order_types.is_empty()
            && r.effective_stores.is_empty()
            && r.effective_store_groups.is_empty()
    });
    let noon = menu_of(&app, &store, &format!("orderTime={MONDAY_NOON_MS}")).await;
    let evening = menu_of(
        &app,
        &store,
        &format!("orderTime={}", MONDAY_NOON_MS + 7 * HOUR),
    )
    .await;
    assert!(listed(&noon).contains(&lunch.product_code));
    assert!(!listed(&evening).contains(&lunch.product_code));
    // The answer says the very millisecond asked about, also when it was kept from a read
    // earlier in the same second.
    for ms in [0, 1, 999] {
        let menu = menu_of(&app, &store, &format!("orderTime={}", MONDAY_NOON_MS + ms)).await;
        assert_eq!(menu["orderTime"], MONDAY_NOON_MS + ms);
        assert_eq!(listed(&menu), listed(&noon));
    }

    let weekdays = limited_by(|r| {
        !r.effective_day_of_week.is_empty()
            && r.effective_time.is_none()
            && r.effective_stores.is_empty()
            && r.effective_store_groups.is_empty()
            && r.order_types.is_empty()
    });
    let sunday = menu_of(
        &app,
        &store,
        &format!("orderTime={}", MONDAY_NOON_MS - 24 * HOUR),
    )
    .await;
    assert!(listed(&noon).contains(&weekdays.product_code));
    assert!(!listed(&sunday).contains(&weekdays.product_code));

    let delivery_only = limited_by(|r| {
        r.order_types == [0]
            && r.effective_stores.is_empty()
            && r.effective_store_groups.is_empty()
            && r.effective_time.is_none()
            && r.effective_day_of_week.is_empty()
    });
    let pickup = menu_of(&app, &store, "orderType=1").await;
    assert!(listed(&noon).contains(&delivery_only.product_code));
    assert!(!listed(&pickup).contains(&delivery_only.product_code));
}

#[tokio::test]
async fn store_and_group_limited_products_appear_only_there() {
    let app = spawn_app().await;
    let demo = demo();
    let by_store = limited_by(|r| {
        !r.effective_stores.is_empty()
            && r.effective_time.is_none()
            && r.effective_day_of_week.is_empty()
            && r.order_types.is_empty()
    });
    let by_group = limited_by(|r| {
        !r.effective_store_groups.is_empty()
            && r.effective_time.is_none()
            && r.effective_day_of_week.is_empty()
            && r.order_types.is_empty()
    });
    for store in demo.stores.iter() {
        let menu = menu_of(&app, &store.store_code, "orderType=1").await;
        let codes = listed(&menu);
        let rule = by_store.effective_rule.as_ref().unwrap();
        let in_list = rule.effective_stores.contains(&store.store_code);
        let group_ok = rule.effective_store_groups.is_empty()
            || rule.effective_store_groups.contains(&store.group_code);
        assert_eq!(
            codes.contains(&by_store.product_code),
            in_list && group_ok,
            "{} at {}",
            by_store.product_code,
            store.store_code
        );
        let rule = by_group.effective_rule.as_ref().unwrap();
        let in_group = rule.effective_store_groups.contains(&store.group_code);
        let store_ok =
            rule.effective_stores.is_empty() || rule.effective_stores.contains(&store.store_code);
        assert_eq!(
            codes.contains(&by_group.product_code),
            in_group && store_ok,
            "{} at {}",
            by_group.product_code,
            store.store_code
        );
    }
}

#[tokio::test]
async fn a_closed_store_says_so_on_its_menu() {
    let app = spawn_app().await;
    let closed = demo()
        .stores
        .into_iter()
        .find(|s| s.stop_store_notice.is_some())
        .unwrap();
    let menu = menu_of(&app, &closed.store_code, "").await;
    assert_eq!(menu["storeStatus"], "closed");
    assert!(menu["stopStoreNotice"].as_str().unwrap().len() > 3);
}

#[tokio::test]
async fn product_detail_has_everything_the_builder_needs() {
    let app = spawn_app().await;
    let demo = demo();
    let pizza = demo
        .products
        .iter()
        .find(|p| {
            p.product_type == 1 && p.sizes.len() >= 3 && p.is_show && p.effective_rule.is_none()
        })
        .unwrap();
    let answer = app
        .get(&format!("/api/v1/products/{}", pizza.product_code))
        .await;
    let dto = answer.assert_ok();
    assert_eq!(dto["productName"], pizza.name.cn.as_str());
    assert_eq!(dto["sizeList"].as_array().unwrap().len(), pizza.sizes.len());
    assert_eq!(
        dto["sizeList"][0]["price"].as_f64().unwrap(),
        pizza.sizes[0].price.yuan()
    );
    assert_eq!(
        dto["sellingPrice"].as_f64().unwrap(),
        pizza.selling_price.yuan()
    );
    assert!(!dto["pastryList"].as_array().unwrap().is_empty());
    assert!(!dto["additionalIngredientList"]
        .as_array()
        .unwrap()
        .is_empty());
    assert_eq!(dto["detailPageShowNum"]["size"], 4);
    assert_eq!(dto["minSale"], 1);
    let en = app
        .get_en(&format!("/api/v1/products/{}", pizza.product_code))
        .await;
    assert_eq!(en.assert_ok()["productName"], pizza.name.en.as_str());

    let combo = demo
        .products
        .iter()
        .find(|p| p.product_type == 2 && p.is_show && p.effective_rule.is_none())
        .unwrap();
    let dto = app
        .get(&format!("/api/v1/products/{}", combo.product_code))
        .await;
    let rounds = dto.assert_ok()["comboRounds"].as_array().unwrap().clone();
    assert_eq!(rounds.len(), combo.combo_rounds.len());
    assert!(rounds
        .iter()
        .all(|r| !r["choices"].as_array().unwrap().is_empty()
            && r["choices"][0]["productName"].is_string()));

    let halves = demo
        .products
        .iter()
        .find(|p| p.product_type == 9 && p.is_show)
        .unwrap();
    let dto = app
        .get(&format!("/api/v1/products/{}", halves.product_code))
        .await;
    let dto = dto.assert_ok();
    assert_eq!(dto["flavorCount"], 2);
    assert!(dto["flavorList"].as_array().unwrap().len() >= 2);
}

#[tokio::test]
async fn hidden_and_gift_products_have_no_page() {
    let app = spawn_app().await;
    let demo = demo();
    let gift = demo
        .categories
        .iter()
        .find(|c| c.name.cn == "赠品")
        .unwrap();
    let hidden = demo.products.iter().find(|p| !p.is_show).unwrap();
    let gift_product = demo
        .products
        .iter()
        .find(|p| p.category_code == gift.category_code)
        .unwrap();
    for code in [
        &hidden.product_code,
        &gift_product.product_code,
        &"NOPE".to_string(),
    ] {
        app.get(&format!("/api/v1/products/{code}"))
            .await
            .assert_error(404, "404");
    }
}

#[tokio::test]
async fn search_and_hot_words_in_both_languages() {
    let app = spawn_app().await;
    let demo = demo();
    let pizza = demo
        .products
        .iter()
        .find(|p| p.product_type == 1 && p.is_show && p.effective_rule.is_none())
        .unwrap();
    let zh = app
        .get(&format!(
            "/api/v1/products/search?keyword={}",
            pizza.name.cn
        ))
        .await;
    assert!(zh
        .assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["productCode"] == pizza.product_code.as_str()));
    let word = pizza.name.en.to_uppercase();
    let en = app
        .get_en(&format!(
            "/api/v1/products/search?keyword={}",
            word.replace(' ', "%20")
        ))
        .await;
    assert!(en
        .assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["productCode"] == pizza.product_code.as_str()));
    let hidden = demo.products.iter().find(|p| !p.is_show).unwrap();
    let none = app
        .get(&format!(
            "/api/v1/products/search?keyword={}",
            hidden.name.cn
        ))
        .await;
    assert!(!none
        .assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["productCode"] == hidden.product_code.as_str()));
    app.get(&format!(
        "/api/v1/products/search?keyword={}",
        "披".repeat(51)
    ))
    .await
    .assert_error(400, "400");

    let words = app.get("/api/v1/products/hot-words").await;
    let words = words.assert_ok().as_array().unwrap().clone();
    assert_eq!(words.len(), demo.hot_words.len());
    assert_eq!(words[0], demo.hot_words[0].cn.as_str());
    let en = app.get_en("/api/v1/products/hot-words").await;
    assert_eq!(en.assert_ok()[0], demo.hot_words[0].en.as_str());
}
