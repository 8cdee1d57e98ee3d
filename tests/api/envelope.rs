#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::spawn_app;

#[tokio::test]
async fn an_unknown_channel_is_refused_in_both_languages() {
    let app = spawn_app().await;
    let zh = app
        .get_with("/api/v1/cities", &[("X-Channel-Id", "7")])
        .await;
    zh.assert_error(400, "400");
    assert!(zh.err_msg().contains("未知渠道"), "{}", zh.err_msg());
    let en = app
        .get_with(
            "/api/v1/cities",
            &[
                ("X-Channel-Id", "web"),
                ("Accept-Language", "en-US,en;q=0.9"),
            ],
        )
        .await;
    en.assert_error(400, "400");
    assert!(en.err_msg().contains("Unknown channel"), "{}", en.err_msg());
}

#[tokio::test]
async fn every_known_channel_is_accepted() {
    let app = spawn_app().await;
    for id in ["1", "2", "3", "4", "5", "9", "30", "31", "37", "46"] {
        app.get_with("/api/v1/cities", &[("X-Channel-Id", id)])
            .await
            .assert_ok();
    }
}

#[tokio::test]
async fn unknown_api_paths_answer_the_envelope() {
    let app = spawn_app().await;
    let answer = app.get("/api/v1/no-such-thing").await;
    answer.assert_error(404, "404");
    let en = app.get_en("/api/v1/no-such-thing").await;
    assert_eq!(en.err_msg(), "No such endpoint");
}

#[tokio::test]
async fn bad_input_is_a_clear_error_in_the_envelope() {
    let app = spawn_app().await;
    let cases = [
        "/api/v1/stores/SH%20001",
        "/api/v1/stores/88888/menu?orderType=7",
        "/api/v1/stores/88888/menu?orderTime=yesterday",
        "/api/v1/cities/310100/districts?all=yes",
        "/api/v1/stores/by-point?latitude=31.230416&longitude=121.473701&isBookOrder=2",
        "/api/v1/geo/places?keyword=%E5%A4%96%E6%BB%A9&page=0",
    ];
    for path in cases {
        let zh = app.get(path).await;
        zh.assert_error(400, "400");
        let en = app.get_en(path).await;
        assert!(en.err_msg().is_ascii(), "{path}: {}", en.err_msg());
    }
    // A blank keyword is not an error: it finds nothing.
    let blank = app.get("/api/v1/products/search?keyword=").await;
    assert_eq!(blank.assert_ok().as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn client_routes_fall_back_to_the_app() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/menu",
        "/findStore?cityCode=310100",
        "/product/search",
    ] {
        let res = app
            .client
            .get(format!("{}{}", app.address, path))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(
            res.text().await.unwrap().contains("<title>app</title>"),
            "{path}"
        );
    }
}

/// Source maps are never served, and a missing chunk is a 404, not the app's index.html (which a
/// browser would refuse as a script, leaving the app unable to tell a stale chunk from a bad one).
#[tokio::test]
async fn source_maps_and_missing_assets_are_not_found() {
    let app = spawn_app().await;
    let assets = app.static_dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(assets.join("index-abc.js"), "export {};").unwrap();
    std::fs::write(assets.join("index-abc.js.map"), "{\"version\":3}").unwrap();
    std::fs::write(app.static_dir.join("top.js.MAP"), "{}").unwrap();
    let status = |path: &'static str| {
        let url = format!("{}{}", app.address, path);
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status("/assets/index-abc.js").await, 200);
    for path in [
        "/assets/index-abc.js.map",
        "/top.js.MAP",
        "/assets/gone-123.js",
        "/assets/gone-123.css",
        "/anything.map",
    ] {
        assert_eq!(status(path).await, 404, "{path}");
    }
    // Client routes still fall back to the app.
    assert_eq!(status("/tablet").await, 200);
    assert_eq!(status("/order/status").await, 200);
}

/// Spec account §8: the login-required message is 未登录 (en: Not logged in), errCode 401.
#[tokio::test]
async fn a_call_that_needs_a_login_says_not_logged_in() {
    let app = spawn_app().await;
    let zh = app.get("/api/v1/me").await;
    zh.assert_error(401, "401");
    assert_eq!(zh.err_msg(), "未登录");
    let en = app.get_en("/api/v1/orders").await;
    en.assert_error(401, "401");
    assert_eq!(en.err_msg(), "Not logged in");
}

/// getProtocol: the privacy policy and the user agreement, real texts in the request's language,
/// versioned by their update time (the privacy policy's is the one users agree to).
#[tokio::test]
async fn the_agreements_are_served_in_both_languages_with_their_version() {
    let app = spawn_app().await;
    let zh = app
        .get("/api/v1/system/protocol?code=privacyprotocol")
        .await;
    let zh = zh.assert_ok();
    assert_eq!(zh["title"], "个人信息保护政策");
    assert_eq!(zh["updateTime"], app.app_state.privacy_policy_updated_at);
    assert!(zh["version"].as_str().unwrap().starts_with("20"), "{zh}");
    for part in [
        "手机号",
        "收货地址",
        "位置信息",
        "保存期限",
        "支付机构",
        "注销账号",
        "撤回同意",
        "联系我们",
    ] {
        assert!(zh["content"].as_str().unwrap().contains(part), "{part}");
    }
    let en = app
        .get_en("/api/v1/system/protocol?code=useragreement")
        .await;
    let en = en.assert_ok();
    assert_eq!(en["title"], "User Agreement");
    assert!(!en["content"]
        .as_str()
        .unwrap()
        .chars()
        .any(|c| ('\u{3400}'..='\u{9fff}').contains(&c)));
    app.get("/api/v1/system/protocol?code=nothing")
        .await
        .assert_error(404, "404");
}
