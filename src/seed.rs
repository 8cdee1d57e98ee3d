//! Loading the demo chain (actors/seed/*.json, embedded in the binary) into the database.

use actors::db::catalogue::CatalogueRepo;
use actors::db::members::{AgreementRow, GiftOption, LevelRow, Privilege};
use actors::db::Db;
use actors::domain::stores::store_rules;
use anyhow::Context;

pub async fn run(db: &Db) -> anyhow::Result<()> {
    let mut catalogue = actors::domain::catalogue::seed::demo_catalogue()
        .context("the embedded demo catalogue is invalid")?;
    // Store data without a store code is rejected and logged, never loaded (spec §5).
    catalogue
        .stores
        .retain(|store| match store_rules::check_store(store) {
            Ok(()) => true,
            Err(err) => {
                tracing::warn!(
                    store = store.name.cn,
                    error = err.message_en(),
                    "门店数据有误: store skipped"
                );
                false
            }
        });
    CatalogueRepo::new(db.clone())
        .upsert(&catalogue)
        .await
        .context("writing the demo catalogue")?;
    seed_staff(db, &catalogue.stores).await?;
    // Coupons first: the levels' gift options name coupon templates.
    seed_coupons(db).await?;
    seed_loyalty(db).await?;
    tracing::info!(
        cities = catalogue.cities.len(),
        stores = catalogue.stores.len(),
        products = catalogue.products.len(),
        "demo chain seeded"
    );
    Ok(())
}

/// The demo staff: `manager` with PIN 246810 at every store (README). One hash serves them all
/// (the same PIN); hashing per store would cost every test server a second of argon2.
pub const DEMO_STAFF_CODE: &str = "manager";
pub const DEMO_STAFF_PIN: &str = "246810";

async fn seed_staff(db: &Db, stores: &[actors::domain::catalogue::Store]) -> anyhow::Result<()> {
    let repo = actors::db::staff::StaffRepo::new(db.clone());
    let have = repo.stores_with_staff().await?;
    let missing: Vec<_> = stores
        .iter()
        .filter(|s| !have.contains(&s.store_code))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let hash = actors::accounts::passwords::hash(DEMO_STAFF_PIN.to_string())
        .await
        .context("hashing the demo PIN")?;
    let now = chrono::Utc::now().timestamp_millis();
    for store in missing {
        repo.insert_if_missing(&store.store_code, DEMO_STAFF_CODE, "店长", &hash, now)
            .await?;
    }
    Ok(())
}

/// The member agreement version in force (GET /members/agreement).
pub const AGREEMENT_VERSION: &str = "2026-11";

fn privilege(code: &str, zh: (&str, &str), en: (&str, &str)) -> Privilege {
    Privilege {
        code: code.into(),
        name_zh: zh.0.into(),
        description_zh: zh.1.into(),
        name_en: en.0.into(),
        description_en: en.1.into(),
    }
}

fn points_option(id: &str, points: i64) -> GiftOption {
    GiftOption {
        option_id: id.into(),
        kind: "points".into(),
        points: Some(points),
        product_code: None,
        template_code: None,
        name_zh: format!("{points} 积分"),
        name_en: format!("{points} points"),
    }
}

fn coupon_option(id: &str, template_code: &str, zh: &str, en: &str) -> GiftOption {
    GiftOption {
        option_id: id.into(),
        kind: "coupon".into(),
        points: None,
        product_code: None,
        template_code: Some(template_code.into()),
        name_zh: zh.into(),
        name_en: en.into(),
    }
}

/// The demo coupon templates and exchange codes (actors/seed/coupons.json, docs/coupons.md).
const COUPONS: &str = include_str!("../actors/seed/coupons.json");

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CouponSeed {
    templates: Vec<actors::domain::loyalty::coupon::CouponTemplate>,
    exchange_codes: Vec<ExchangeCodeSeed>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExchangeCodeSeed {
    code: String,
    template_code: String,
}

fn coupon_seed() -> anyhow::Result<CouponSeed> {
    serde_json::from_str(COUPONS).context("the embedded coupon seed is invalid")
}

/// Whether a template of the seed is not in the database (one seeded before it existed).
pub async fn coupon_templates_missing(db: &Db) -> anyhow::Result<bool> {
    let have: std::collections::HashSet<String> = actors::db::coupons::CouponRepo::new(db.clone())
        .templates()
        .await?
        .into_iter()
        .map(|row| row.template.template_code)
        .collect();
    Ok(coupon_seed()?
        .templates
        .iter()
        .any(|t| !have.contains(&t.template_code)))
}

/// The demo exchange codes are valid until the end of 2027 (China time).
pub const DEMO_CODES_VALID_TO: i64 = 1_830_268_800_000;

/// The coupon templates (rules updated in place, counters kept) and the demo exchange codes
/// (an existing code is left as it is, used or not).
pub async fn seed_coupons(db: &Db) -> anyhow::Result<()> {
    let seed = coupon_seed()?;
    let repo = actors::db::coupons::CouponRepo::new(db.clone());
    let now = chrono::Utc::now().timestamp_millis();
    for t in &seed.templates {
        repo.upsert_template(t, now)
            .await
            .context("seeding the coupon templates")?;
    }
    for c in &seed.exchange_codes {
        repo.add_exchange_code(&c.code, &c.template_code, DEMO_CODES_VALID_TO, now)
            .await
            .context("seeding the exchange codes")?;
    }
    Ok(())
}

/// The four levels (thresholds are qualifying spend in the rolling 365 days), their privileges
/// and gift options, and the member agreement. Seeding twice updates them in place.
pub async fn seed_loyalty(db: &Db) -> anyhow::Result<()> {
    let repo = actors::db::members::MemberRepo::new(db.clone());
    let now = chrono::Utc::now().timestamp_millis();
    let earn = |n: i64| {
        privilege(
            "points",
            ("积分", &format!("每消费 1 元得 {n} 积分")),
            (
                "Points",
                &format!(
                    "{n} point{} for every yuan paid",
                    if n == 1 { "" } else { "s" }
                ),
            ),
        )
    };
    // What each privilege says is what `actors::loyalty::privileges` gives (docs/loyalty.md
    // "Privileges"): the coupons of templates CP_BIRTHDAY_SIDE and CP_MEMBER_FREE_DELIVERY.
    let birthday = privilege(
        "birthday",
        (
            "生日礼",
            "生日当月赠送马苏里拉芝士条一份（兑换券，每年一次，当月有效）",
        ),
        (
            "Birthday treat",
            "Free Mozzarella Cheese Sticks in your birthday month (a voucher, once a year, valid that month)",
        ),
    );
    let delivery = privilege(
        "delivery",
        ("免配送费", "每月两张免配送费券，外送订单可用，当月有效"),
        (
            "Free delivery",
            "Two free-delivery coupons every month for delivery orders, valid that month",
        ),
    );
    let priority = privilege(
        "priority",
        ("优先制作", "您的订单在门店优先制作"),
        ("Priority", "Your orders are made first at the store"),
    );
    let levels = [
        (
            1,
            "普通会员",
            "Member",
            0,
            1,
            vec![earn(1)],
            // A free product is a coupon for it (exchangeProduct): the member adds it to the
            // cart at the next order (addShoppingCarByCoupon), it is given back if that order
            // is cancelled.
            vec![
                points_option("L1-P", 200),
                coupon_option(
                    "L1-C",
                    "CP_COLA",
                    "可口可乐一杯（下单时免费领取）",
                    "A free Coca-Cola with an order",
                ),
            ],
        ),
        (
            2,
            "银卡会员",
            "Silver",
            50_000,
            1,
            vec![earn(1), birthday.clone()],
            vec![
                points_option("L2-P", 500),
                coupon_option(
                    "L2-C",
                    "CP_MEMBER_150_30",
                    "满150减30优惠券",
                    "Coupon: ¥30 off ¥150",
                ),
            ],
        ),
        (
            3,
            "金卡会员",
            "Gold",
            200_000,
            2,
            vec![earn(2), birthday.clone(), delivery.clone()],
            vec![
                points_option("L3-P", 1_000),
                coupon_option(
                    "L3-C",
                    "CP_MEMBER_150_30",
                    "满150减30优惠券",
                    "Coupon: ¥30 off ¥150",
                ),
            ],
        ),
        (
            4,
            "黑金会员",
            "Black",
            500_000,
            3,
            vec![earn(3), birthday, delivery, priority],
            vec![
                points_option("L4-P", 2_000),
                coupon_option(
                    "L4-C",
                    "CP_MEMBER_150_30",
                    "满150减30优惠券",
                    "Coupon: ¥30 off ¥150",
                ),
            ],
        ),
    ];
    for (level, zh, en, threshold, ppy, privileges, gift_options) in levels {
        repo.upsert_level(
            &LevelRow {
                level,
                name_zh: zh.into(),
                name_en: en.into(),
                threshold: actors::domain::money::Fen(threshold),
                points_per_yuan: ppy,
                privileges,
                gift_options,
            },
            now,
        )
        .await
        .context("seeding the member levels")?;
    }
    repo.upsert_agreement(
        &AgreementRow {
            version: AGREEMENT_VERSION.into(),
            title_zh: "会员服务协议".into(),
            title_en: "Member agreement".into(),
            content_zh: "加入会员即表示您同意：消费可获得积分（每消费 1 元按等级获得积分），\
                订单完成 7 天后积分可用；积分于获得次年年底过期；100 积分可抵 1 元，每单最多抵扣 50%；\
                会员等级按近 365 天的实付消费（扣除退款）计算。"
                .into(),
            content_en: "By joining you agree that: paid orders earn points (per yuan, by level), \
                available 7 days after the order is completed; points expire at the end of the \
                year after they were earned; 100 points are worth 1 yuan, up to half of an order; \
                your level follows what you paid (less refunds) in the last 365 days."
                .into(),
        },
        now,
    )
    .await
    .context("seeding the member agreement")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actors::domain::loyalty::coupon::CouponKind;
    use std::collections::HashSet;

    #[test]
    fn coupon_seed_names_real_things_and_covers_the_contract() {
        let seed = coupon_seed().unwrap();
        let demo = actors::domain::catalogue::seed::demo_catalogue().unwrap();
        let products: HashSet<_> = demo.products.iter().map(|p| &p.product_code).collect();
        let categories: HashSet<_> = demo.categories.iter().map(|c| &c.category_code).collect();
        let promotions: HashSet<_> = demo.promotions.iter().map(|p| &p.rule_id).collect();
        let templates: HashSet<_> = seed.templates.iter().map(|t| &t.template_code).collect();
        let mut kinds = HashSet::new();
        for t in &seed.templates {
            kinds.insert(t.kind.type_name());
            if let Some(code) = t.kind.product_code() {
                assert!(products.contains(&code.to_string()), "{code}");
            }
            for c in &t.scope.category_codes {
                assert!(categories.contains(c), "{c}");
            }
            for x in &t.excludes {
                assert!(promotions.contains(x) || templates.contains(x), "{x}");
            }
        }
        assert_eq!(kinds.len(), 5, "one template per kind at least");
        assert!(seed.templates.iter().any(|t| t.total_limit == Some(50)));
        assert!(seed.templates.iter().any(|t| t.per_user_limit == Some(1)));
        assert!(seed
            .templates
            .iter()
            .any(|t| t.excludes.iter().any(|x| promotions.contains(x))));
        let grouped = seed
            .templates
            .iter()
            .filter(|t| t.stack_group.as_deref() == Some("CASH"))
            .count();
        assert_eq!(grouped, 2, "two templates share a stacking group");
        assert!(seed.templates.iter().any(|t| matches!(
            t.kind,
            CouponKind::CashOff { threshold, off } if threshold.0 == 10_000 && off.0 == 2_000
        ) && t.collectable));
        for c in &seed.exchange_codes {
            assert!(c.code.len() >= 12, "{}", c.code);
            assert!(templates.contains(&c.template_code), "{}", c.template_code);
        }
    }

    #[test]
    fn gift_coupon_templates_exist_and_cannot_run_out() {
        let seed = coupon_seed().unwrap();
        let gift = seed
            .templates
            .iter()
            .find(|t| t.template_code == "CP_MEMBER_150_30")
            .unwrap();
        // A gift whose template sold out would retry forever: gift templates are unlimited.
        assert_eq!(gift.total_limit, None);
        assert_eq!(gift.per_user_limit, None);
        assert!(!gift.collectable);
    }

    #[test]
    fn privilege_templates_give_what_the_levels_say() {
        use actors::domain::loyalty::coupon::Validity;
        use actors::domain::loyalty::privileges::{BIRTHDAY_TEMPLATE, FREE_DELIVERY_TEMPLATE};
        let seed = coupon_seed().unwrap();
        let demo = actors::domain::catalogue::seed::demo_catalogue().unwrap();
        let find = |code: &str| {
            seed.templates
                .iter()
                .find(|t| t.template_code == code)
                .unwrap_or_else(|| panic!("{code} is seeded"))
        };
        for code in [BIRTHDAY_TEMPLATE, FREE_DELIVERY_TEMPLATE] {
            let t = find(code);
            // Issued by the server only, to the member only, until the month ends; never sold
            // out (a grant that failed would be retried every run).
            assert_eq!((t.total_limit, t.per_user_limit), (None, None), "{code}");
            assert!(!t.collectable && !t.transferable, "{code}");
            assert_eq!(t.validity, Validity::MonthEnd, "{code}");
        }
        let side = match &find(BIRTHDAY_TEMPLATE).kind {
            CouponKind::ExchangeProduct { product_code } => product_code.clone(),
            other => panic!("the birthday treat is a free product: {other:?}"),
        };
        let product = demo
            .products
            .iter()
            .find(|p| p.product_code == side)
            .unwrap();
        assert_eq!(product.category_code, "SIDE", "a side");
        assert!(
            product.effective_rule.is_none(),
            "sold everywhere, every order type"
        );
        let delivery = find(FREE_DELIVERY_TEMPLATE);
        assert!(matches!(
            delivery.kind,
            CouponKind::FreeDelivery { threshold } if threshold.0 == 0
        ));
    }
}
