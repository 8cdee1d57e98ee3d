#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Member privileges given, not only shown (issue 34, item 10; docs/loyalty.md "Privileges"):
//! the birthday treat (a free side in the birthday month, once a China calendar year), two
//! free deliveries a China calendar month at levels 3–4, and priority making at level 4.
//! Coupons go through the coupon ledger under period keys, so the job on every node and the
//! member's own reads issue each period's coupons once.

use crate::cart::{add, Auth};
use crate::cart_coupons::{codes, coupons, yuan};
use crate::checkout::{home_address, submit, submit_body};
use crate::helpers::TestApp;
use actors::domain::money::Fen;
use serde_json::{json, Value};

/// 2026-12-01 00:00 China time (2026-11-30 16:00 UTC): the end of November's coupons.
pub const DECEMBER_1_CHINA: i64 = 1_796_054_400_000;
pub const BIRTHDAY_TEMPLATE: &str = "CP_BIRTHDAY_SIDE";
pub const DELIVERY_TEMPLATE: &str = "CP_MEMBER_FREE_DELIVERY";

/// Qualifying spend (fen) that reaches each level (docs/loyalty.md "Levels").
pub const SILVER: i64 = 50_000;
pub const GOLD: i64 = 200_000;
pub const BLACK: i64 = 500_000;

/// A member registered on `phone` with `birthday` (if any) in their profile and `spend` of
/// qualifying spend, so they join at its level: (token, user id).
pub async fn member(
    app: &TestApp,
    phone: &str,
    birthday: Option<&str>,
    spend: i64,
) -> (String, i64) {
    let (token, uid) = app.customer(phone).await;
    if let Some(birthday) = birthday {
        set_birthday(app, &token, birthday).await;
    }
    if spend > 0 {
        app.app_state
            .loyalty
            .members()
            .record_spend(
                uid,
                "order",
                &format!("spend-{uid}"),
                Fen(spend),
                app.clock.now_ms(),
            )
            .await
            .unwrap();
    }
    let version = app.get("/api/v1/members/agreement").await.assert_ok()["version"]
        .as_str()
        .unwrap()
        .to_string();
    app.post(
        "/api/v1/members/join",
        &json!({"agreementVersion": version}),
        Some(&token),
    )
    .await
    .assert_ok();
    (token, uid)
}

pub async fn set_birthday(app: &TestApp, token: &str, birthday: &str) {
    app.patch(
        "/api/v1/me",
        &json!({"name": "张三", "email": "a@b.cn", "gender": 1, "birthday": birthday}),
        Some(token),
    )
    .await
    .assert_ok();
}

/// The customer's available coupons of `template` (GET /coupons, the coupon list's tab).
async fn listed(app: &TestApp, token: &str, template: &str) -> Vec<Value> {
    let page = app.get_auth("/api/v1/coupons", Some(token)).await;
    page.assert_ok()["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["templateCode"] == template)
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_gold_member_sees_the_birthday_treat_and_two_free_deliveries_at_once() {
    let app = crate::helpers::spawn_app().await;
    let (token, _) = member(&app, "13512370001", Some("1990-11-05"), GOLD).await;
    for read in 0..3 {
        let treat = listed(&app, &token, BIRTHDAY_TEMPLATE).await;
        assert_eq!(treat.len(), 1, "read {read}: one birthday treat: {treat:?}");
        assert_eq!(treat[0]["validTo"], DECEMBER_1_CHINA, "until November ends");
        assert_eq!(treat[0]["kind"], "exchangeProduct");
        assert_eq!(treat[0]["transferable"], false);
        let deliveries = listed(&app, &token, DELIVERY_TEMPLATE).await;
        assert_eq!(deliveries.len(), 2, "read {read}: {deliveries:?}");
        assert!(deliveries.iter().all(|c| c["validTo"] == DECEMBER_1_CHINA));
    }
    // The member centre says what each privilege is and what this member has of it.
    let me = app.get_auth("/api/v1/members/me", Some(&token)).await;
    let privileges = me.assert_ok()["privileges"].clone();
    let codes: Vec<&str> = privileges
        .as_array()
        .unwrap_or_else(|| panic!("{}", me.body))
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["points", "birthday", "delivery"]);
    assert_eq!(
        privileges[1]["status"],
        "本月生日礼已发放，请在优惠券中查看"
    );
    assert_eq!(
        privileges[2]["status"],
        "本月 2 张免配送费券已发放，可用 2 张"
    );
}

#[tokio::test]
async fn each_level_gets_what_its_privileges_say_and_nothing_more() {
    let app = crate::helpers::spawn_app().await;
    let (silver, _) = member(&app, "13512370011", Some("1988-11-30"), SILVER).await;
    let (basic, _) = member(&app, "13512370012", Some("1992-11-01"), 0).await;
    let (gold_march, _) = member(&app, "13512370013", Some("1990-03-09"), GOLD).await;
    let (gold_none, _) = member(&app, "13512370014", None, GOLD).await;
    // A visitor of the programme (no member row) with a November birthday: nothing.
    let (guest, _) = app.customer("13512370015").await;
    set_birthday(&app, &guest, "1991-11-11").await;
    for (who, token, treats, deliveries) in [
        ("silver, born in November", &silver, 1, 0),
        ("level 1, born in November", &basic, 0, 0),
        ("gold, born in March", &gold_march, 0, 2),
        ("gold, no birthday given", &gold_none, 0, 2),
        ("not a member", &guest, 0, 0),
    ] {
        let got = (
            listed(&app, token, BIRTHDAY_TEMPLATE).await.len(),
            listed(&app, token, DELIVERY_TEMPLATE).await.len(),
        );
        assert_eq!(got, (treats, deliveries), "{who}");
    }
    let me = app.get_auth("/api/v1/members/me", Some(&gold_none)).await;
    assert_eq!(
        me.assert_ok()["privileges"][1]["status"],
        "请在个人资料中填写生日，生日当月发放"
    );
    let en = app
        .call(
            reqwest::Method::GET,
            "/api/v1/members/me",
            None,
            Some(&gold_march),
            &[("Accept-Language", "en")],
        )
        .await;
    assert_eq!(
        en.assert_ok()["privileges"][1]["status"],
        "Given in your birthday month (March)"
    );
}

/// The coupons price as the privileges promise: the free side takes exactly its price off,
/// free delivery the fee and never more than the fee (nothing when delivery is already free).
#[tokio::test]
async fn the_privilege_coupons_price_at_checkout() {
    let app = crate::helpers::spawn_app().await;
    let (token, _) = member(&app, "13512370021", Some("1990-11-05"), GOLD).await;
    let address = home_address(&app, &token).await;
    let treat = listed(&app, &token, BIRTHDAY_TEMPLATE).await[0]["couponCode"]
        .as_str()
        .unwrap()
        .to_string();
    // Two wings (¥64): under the flagship's ¥99 free-delivery threshold, so the fee is ¥6.
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    app.add_coupon_item(&token, &treat).await.assert_ok();
    let priced = app.priced_delivery(&token).await;
    let side = crate::helpers::demo()
        .products
        .into_iter()
        .find(|p| p.product_code == "SD003")
        .unwrap()
        .selling_price
        .0;
    assert_eq!(yuan(&priced["priceOfProduct"]), 6400 + side);
    assert_eq!(yuan(&priced["couponDiscountsAmount"]), side, "{priced}");
    assert_eq!(yuan(&priced["couponDeliveryFee"]), 600, "the fee, once");
    assert_eq!(yuan(&priced["orderAmount"]), 6400);
    let applied = codes(&priced["osCoupons"]);
    assert_eq!(
        applied.len(),
        2,
        "the side and one free delivery: {applied:?}"
    );
    assert!(applied.contains(&treat));
    // One more wing pair: ¥128 delivers free already, so no coupon waives anything.
    add(
        &app,
        Auth::User(&token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let priced = app.priced_delivery(&token).await;
    assert_eq!(yuan(&priced["couponDeliveryFee"]), 0);
    assert_eq!(codes(&priced["osCoupons"]), vec![treat.clone()]);
    let reasons = coupons(&app, &token).await;
    let delivery_reasons: Vec<&Value> = reasons["usable"]
        .as_array()
        .unwrap()
        .iter()
        .chain(reasons["unusable"].as_array().unwrap())
        .filter(|c| c["templateCode"] == DELIVERY_TEMPLATE)
        .collect();
    assert!(
        delivery_reasons
            .iter()
            .all(|c| c["applied"] == false && c["saved"] == 0.0),
        "{delivery_reasons:?}"
    );
    let mut body = submit_body(&priced, Some(address), "offline");
    body["osCoupons"] = priced["osCoupons"].clone();
    let order = submit(&app, &token, &body, "k-privileges").await;
    assert_eq!(yuan(&order.assert_ok()["orderAmount"]), 12_800);
}

/// (orderNo, priority) of the tablet's queue, in its order.
async fn queue(app: &TestApp, staff: &str) -> Vec<(String, bool)> {
    let list = app.get_auth("/api/v1/tablet/orders", Some(staff)).await;
    list.assert_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["orderNo"].as_str().unwrap().to_string(),
                c["priority"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// A cash-on-delivery order of two wings (it reaches the store's queue at once).
async fn cod_order(app: &TestApp, token: &str, key: &str) -> String {
    let address = home_address(app, token).await;
    add(
        app,
        Auth::User(token),
        json!([{"productCode": "SD001", "quantity": 2}]),
    )
    .await;
    let priced = app.priced_delivery(token).await;
    let mut body = submit_body(&priced, Some(address), "offline");
    body["osCoupons"] = priced["osCoupons"].clone();
    let order = submit(app, token, &body, key).await;
    order.assert_ok()["orderNo"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_black_members_orders_are_made_first_in_their_stage() {
    let app = crate::helpers::spawn_app().await;
    let (gold, _) = member(&app, "13512370031", None, GOLD).await;
    let (black, black_id) = member(&app, "13512370032", None, BLACK).await;
    let me = app.get_auth("/api/v1/members/me", Some(&black)).await;
    let privileges = me.assert_ok()["privileges"].clone();
    assert_eq!(privileges[3]["code"], "priority", "{privileges}");
    assert_eq!(privileges[3]["status"], "每笔订单自动享有，无需操作");
    let first = cod_order(&app, &gold, "k-gold").await;
    app.clock.advance_ms(60_000);
    let later = cod_order(&app, &black, "k-black").await;
    let staff = crate::payments::tablet_login(&app, "SH001").await;
    assert_eq!(
        queue(&app, &staff).await,
        vec![(later.clone(), true), (first.clone(), false)],
        "the black member's order first, though it came later"
    );
    // Both accepted: the same stage, the same order.
    for order_no in [&first, &later] {
        app.post(
            &format!("/api/v1/tablet/orders/{order_no}/accept"),
            &json!({}),
            Some(&staff),
        )
        .await
        .assert_ok();
    }
    assert_eq!(
        queue(&app, &staff).await,
        vec![(later.clone(), true), (first.clone(), false)]
    );
    // The flag is the order's, decided at submit: a downgrade later does not change it, and
    // the member's next order is no longer a priority one.
    app.app_state
        .loyalty
        .members()
        .change_level(
            black_id,
            4,
            3,
            "downgrade",
            Fen(GOLD),
            None,
            app.clock.now_ms(),
        )
        .await
        .unwrap();
    app.clock.advance_ms(60_000);
    let after = cod_order(&app, &black, "k-black-2").await;
    let listed = queue(&app, &staff).await;
    assert_eq!(listed[0], (later.clone(), true), "{listed:?}");
    assert!(listed.contains(&(after, false)), "{listed:?}");
}

/// Privilege coupons of `user_id` in the ledger, whatever their status: (birthday treats,
/// free deliveries).
async fn ledger(app: &TestApp, user_id: i64) -> (i64, i64) {
    use sqlx::Row;
    let count = |template: &'static str| async move {
        sqlx::query(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM coupons \
             WHERE user_id = $1 AND source = 'privilege' AND template_code = $2",
        )
        .bind(user_id)
        .bind(template)
        .fetch_one(app.app_state.db.pool())
        .await
        .unwrap()
        .try_get::<i64, _>("n")
        .unwrap()
    };
    (
        count(BIRTHDAY_TEMPLATE).await,
        count(DELIVERY_TEMPLATE).await,
    )
}

/// `n` runs of the grant job at once, spread over the nodes (each node its own pool), beside
/// one member's own reads granting at the same time.
async fn job_at_once(nodes: &[actors::loyalty::privileges::Privileges], n: usize, reader: i64) {
    let mut runs = tokio::task::JoinSet::new();
    for i in 0..n {
        let node = nodes[i % nodes.len()].clone();
        runs.spawn(async move {
            node.grant_due().await.unwrap();
            node.grant_due_for(reader).await.unwrap();
        });
    }
    while let Some(run) = runs.join_next().await {
        run.unwrap();
    }
}

#[tokio::test]
async fn the_job_on_two_nodes_at_once_grants_each_period_once() {
    // 2026-11-23, China time. The nodes' own sweeps are off: between the clock's move to
    // December and the level changes made "on 15 December" below, a sweep would grant
    // December by the November levels (seen on PostgreSQL under load), which is the test's
    // set-up racing, not the job. The 16 runs at once in each month are the race under test.
    let app = crate::helpers::spawn_app_with(crate::helpers::MONDAY_NOON_MS, |s| {
        s.loyalty.sweep_ms = 3_600_000
    })
    .await;
    let (_, second) = app.second_node_state().await;
    let nodes = [
        app.app_state.loyalty.privileges(),
        second.loyalty.privileges(),
    ];
    let (black_token, black) = member(&app, "13512370041", Some("1990-11-05"), BLACK).await;
    let (_, silver) = member(&app, "13512370042", Some("1988-11-30"), SILVER).await;
    let (_, gold) = member(&app, "13512370043", Some("1990-03-01"), GOLD).await;
    let (_, basic) = member(&app, "13512370044", Some("1990-11-05"), 0).await;
    let (_, climber) = member(&app, "13512370045", None, SILVER).await;
    let (_, leap) = member(&app, "13512370046", Some("2000-02-29"), SILVER).await;
    let members = [black, silver, gold, basic, climber, leap];
    let check = |want: [(i64, i64); 6], when: &'static str| {
        let app = &app;
        async move {
            for (uid, want) in members.iter().zip(want) {
                assert_eq!(ledger(app, *uid).await, want, "{when}: user {uid}");
            }
        }
    };

    // November, twice: a treat for those born in November at levels 2–4, two deliveries at
    // levels 3–4; nothing for level 1, nothing more the second time.
    for _ in 0..2 {
        job_at_once(&nodes, 16, black).await;
        check([(1, 2), (1, 0), (0, 2), (0, 0), (0, 0), (0, 0)], "November").await;
    }

    // 15 December: gold drops to level 1 (what November gave stays, December gives nothing),
    // the climber reaches gold mid-month (December's deliveries), black moves their birthday
    // to December (no second treat in 2026: the key is the year's).
    app.clock.advance_ms(1_797_307_200_000 - app.clock.now_ms());
    let members_repo = app.app_state.loyalty.members();
    let now = app.clock.now_ms();
    assert!(members_repo
        .change_level(gold, 3, 1, "downgrade", Fen(0), None, now)
        .await
        .unwrap());
    assert!(members_repo
        .change_level(climber, 2, 3, "upgrade", Fen(GOLD), None, now)
        .await
        .unwrap());
    set_birthday(&app, &black_token, "1990-12-05").await;
    job_at_once(&nodes, 16, black).await;
    check([(1, 4), (1, 0), (0, 2), (0, 0), (0, 2), (0, 0)], "December").await;

    // 2026-12-31 16:00 UTC is 1 January 2027 in China: January's deliveries.
    app.clock.advance_ms(1_798_732_800_000 - app.clock.now_ms());
    job_at_once(&nodes, 16, black).await;
    check([(1, 6), (1, 0), (0, 2), (0, 0), (0, 4), (0, 0)], "January").await;

    // Born on 29 February: in a common year, February is still the month. The last China
    // second of February 2027 is UTC 15:59:59 on the 28th.
    app.clock.advance_ms(1_803_830_399_000 - app.clock.now_ms());
    job_at_once(&nodes, 16, black).await;
    check(
        [(1, 8), (1, 0), (0, 2), (0, 0), (0, 6), (1, 0)],
        "February 2027",
    )
    .await;
    // One second later it is March in China: nothing more for February.
    app.clock.advance_ms(1_000);
    job_at_once(&nodes, 8, black).await;
    assert_eq!(ledger(&app, leap).await, (1, 0));
}
