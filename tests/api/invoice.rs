#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The invoice at submit (issue 22): refused in the request's language with nothing created
//! when a field is wrong; kept on the order and shown on its detail and the tablet's card.

use crate::cart::{add, Auth};
use crate::checkout::{home_address, orders_of, reserve, submit_body};
use crate::helpers::spawn_app;
use reqwest::Method;
use serde_json::{json, Value};

const CODE: &str = "91310000MA1FL8XQ3K";

#[tokio::test]
async fn a_company_invoice_is_checked_kept_and_shown() {
    let app = spawn_app().await;
    let token = app.register("13512350031").await;
    let address = home_address(&app, &token).await;
    add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
    let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
    let cart = cart.assert_ok().clone();
    let with = |invoice: Value| {
        let mut body = submit_body(&cart, Some(address), "offline");
        body["isNeedInvoice"] = json!(true);
        body["invoice"] = invoice;
        body
    };
    let good = json!({"kind": "company", "title": "上海某某科技有限公司", "taxNo": CODE, "email": "fp@example.cn"});
    let field = |k: &str, v: Value| {
        let mut bad = good.clone();
        bad[k] = v;
        bad
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            Value::Null,
            "请填写发票信息",
            "Please fill in the invoice details",
        ),
        (
            field("kind", json!("shop")),
            "请选择发票抬头类型（个人或单位）",
            "Invoice type must be personal or company",
        ),
        (
            field("title", json!(" ")),
            "请填写发票抬头",
            "Please enter the invoice title",
        ),
        (
            field("title", json!("票".repeat(101))),
            "发票抬头最多100个字",
            "The invoice title can be at most 100 characters",
        ),
        (
            field("title", json!("某某\u{200B}公司")),
            "发票抬头不能包含控制字符或不可见字符",
            "The invoice title cannot contain control or invisible characters",
        ),
        (
            field("taxNo", Value::Null),
            "单位发票请填写税号",
            "Please enter the tax number for a company invoice",
        ),
        (
            field("taxNo", json!("9131000MA1FL8XQ3K")),
            "税号须为15、18或20位数字或大写字母",
            "The tax number must be 15, 18 or 20 digits or capital letters",
        ),
        (
            field("email", json!("")),
            "请填写接收电子发票的邮箱",
            "Please enter the email the e-invoice is sent to",
        ),
        (
            field("email", json!("fp@example")),
            "发票邮箱格式错误",
            "The invoice email is not valid",
        ),
    ];
    for (i, (invoice, zh, en)) in cases.iter().enumerate() {
        for (lang, want) in [("zh", zh), ("en", en)] {
            let key = format!("k-inv-{i}-{lang}");
            let out = app
                .call(
                    Method::POST,
                    "/api/v1/orders",
                    Some(&with(invoice.clone())),
                    Some(&token),
                    &[("Idempotency-Key", key.as_str()), ("Accept-Language", lang)],
                )
                .await;
            out.assert_error(400, "400");
            assert_eq!(out.err_msg(), *want, "{invoice}");
        }
    }
    assert_eq!(
        orders_of(&app, &token).await,
        0,
        "a refused invoice creates nothing"
    );

    let lower = field("taxNo", json!(CODE.to_lowercase()));
    let out = app
        .call(
            Method::POST,
            "/api/v1/orders",
            Some(&with(lower)),
            Some(&token),
            &[("Idempotency-Key", "k-inv-ok")],
        )
        .await;
    let order_no = out.assert_ok()["orderNo"].as_str().unwrap().to_string();
    let detail = app
        .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
        .await;
    let detail = detail.assert_ok();
    assert_eq!(detail["isNeedInvoice"], true);
    assert_eq!(
        detail["invoice"], good,
        "kept as parsed: the tax number upper-cased"
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
    assert_eq!(card["invoice"], good);
}

#[tokio::test]
async fn a_personal_invoice_needs_no_tax_number_and_no_invoice_keeps_none() {
    let app = spawn_app().await;
    let token = app.register("13512350032").await;
    let address = home_address(&app, &token).await;
    for (round, need) in [(0, true), (1, false)] {
        add(&app, Auth::User(&token), json!([{"productCode": "SD001"}])).await;
        let cart = reserve(&app, &token, json!({"orderType": 0, "storeCode": "SH001"})).await;
        let mut body = submit_body(cart.assert_ok(), Some(address), "offline");
        body["isNeedInvoice"] = json!(need);
        body["invoice"] = json!({"kind": "personal", "title": " 张三 ", "email": "z@example.com"});
        let key = format!("k-personal-{round}");
        let out = app
            .call(
                Method::POST,
                "/api/v1/orders",
                Some(&body),
                Some(&token),
                &[("Idempotency-Key", key.as_str())],
            )
            .await;
        let order_no = out.assert_ok()["orderNo"].as_str().unwrap().to_string();
        let detail = app
            .get_auth(&format!("/api/v1/orders/{order_no}"), Some(&token))
            .await;
        let detail = detail.assert_ok();
        assert_eq!(detail["isNeedInvoice"], need);
        let want = if need {
            json!({"kind": "personal", "title": "张三", "taxNo": null, "email": "z@example.com"})
        } else {
            Value::Null
        };
        assert_eq!(detail["invoice"], want);
    }
}
