//! Invariants of the demo chain. Each role the API and the app rely on (default store,
//! pickup-only, closed, booking, gift, hidden, expired, time-limited products …) is checked
//! to exist, so editing the JSON cannot silently remove one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::domain::catalogue::product_type::ALL as ALL_TYPES;
use crate::domain::catalogue::product_type::{COMBO, JUICE, PIZZA, SINGLE, TWO_FLAVOUR};
use crate::domain::catalogue::{EffectiveRule, LngLat, StoreStatus, DELIVERY, GIFT_CATEGORY_NAME};
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// The demo chain's "today" (the integration tests' clock runs on 2026-11-23).
const TODAY: &str = "2026-11-21";
const TEST_DAY: &str = "2026-11-23";

fn demo() -> Catalogue {
    demo_catalogue().expect("the seed files parse")
}

fn public_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/public"))
}

// ----------------------------------------------------------------- helpers

/// Ray casting: is the point inside the (unclosed) polygon?
fn inside(point: LngLat, polygon: &[LngLat]) -> bool {
    let mut inside = false;
    let mut j = polygon.len().wrapping_sub(1);
    for i in 0..polygon.len() {
        let (a, b) = (polygon[i], polygon[j]);
        if (a.lat > point.lat) != (b.lat > point.lat)
            && point.lng < (b.lng - a.lng) * (point.lat - a.lat) / (b.lat - a.lat) + a.lng
        {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Great-circle distance in km.
fn km(a: LngLat, b: LngLat) -> f64 {
    let (la1, la2) = (a.lat.to_radians(), b.lat.to_radians());
    let dlat = la2 - la1;
    let dlng = (b.lng - a.lng).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * 6378.137 * h.sqrt().asin()
}

fn point(lng: f64, lat: f64) -> LngLat {
    LngLat { lng, lat }
}

/// "HH:MM:SS" as seconds since midnight.
fn hms(text: &str) -> Option<u32> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 3 || parts.iter().any(|p| p.len() != 2) {
        return None;
    }
    let n: Vec<u32> = parts
        .iter()
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    (n[0] < 24 && n[1] < 60 && n[2] < 60).then(|| n[0] * 3600 + n[1] * 60 + n[2])
}

/// "YYYY-MM-DD", checked loosely (month 1–12, day 1–31).
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && (1..=12).contains(&parts[1].parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&parts[2].parse::<u32>().unwrap_or(0))
}

fn is_phone(tel: &str) -> bool {
    let Some((area, number)) = tel.split_once('-') else {
        return false;
    };
    area.starts_with('0')
        && (3..=4).contains(&area.len())
        && number.len() == 8
        && tel
            .bytes()
            .filter(|b| *b != b'-')
            .all(|b| b.is_ascii_digit())
        && !tel.contains("10000000")
}

fn bilingual_ok(text: &Bilingual) -> bool {
    !text.cn.trim().is_empty() && !text.en.trim().is_empty()
}

/// Keys of `raw` that the typed value does not know: a misspelt field is silently ignored
/// by serde, so it would fall back to its default without this check.
fn unknown_keys(raw: &Value, typed: &Value, path: &str, out: &mut Vec<String>) {
    match (raw, typed) {
        (Value::Object(raw), Value::Object(typed)) => {
            for (key, value) in raw {
                match typed.get(key) {
                    Some(t) => unknown_keys(value, t, &format!("{path}.{key}"), out),
                    None => out.push(format!("{path}.{key}")),
                }
            }
        }
        (Value::Array(raw), Value::Array(typed)) => {
            for (i, (r, t)) in raw.iter().zip(typed).enumerate() {
                unknown_keys(r, t, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn check_known_keys<T: Serialize>(name: &str, raw: &str, typed: &T) {
    let raw: Value = serde_json::from_str(raw).unwrap();
    let typed = serde_json::to_value(typed).unwrap();
    let mut out = Vec::new();
    unknown_keys(&raw, &typed, name, &mut out);
    assert!(out.is_empty(), "unknown fields in the seed: {out:?}");
}

fn rule(p: &Product) -> Option<&EffectiveRule> {
    p.effective_rule.as_ref()
}

fn expired(p: &Product) -> bool {
    rule(p)
        .and_then(|r| r.effective_date.as_ref())
        .is_some_and(|d| d.end.as_str() < TODAY)
}

/// The rule limits exactly the parts named (by `parts` bit flags below) and nothing else.
const DATE: u8 = 1;
const TIME: u8 = 2;
const WEEKDAY: u8 = 4;
const STORES_PART: u8 = 8;
const GROUPS: u8 = 16;
const ORDER_TYPES: u8 = 32;

fn parts(r: &EffectiveRule) -> u8 {
    let mut p = 0;
    if r.effective_date.is_some() {
        p |= DATE;
    }
    if r.effective_time.is_some() {
        p |= TIME;
    }
    if !r.effective_day_of_week.is_empty() {
        p |= WEEKDAY;
    }
    if !r.effective_stores.is_empty() {
        p |= STORES_PART;
    }
    if !r.effective_store_groups.is_empty() {
        p |= GROUPS;
    }
    if !r.order_types.is_empty() {
        p |= ORDER_TYPES;
    }
    p
}

/// Shown products limited by exactly one part of the rule, which `check` accepts.
fn limited_only_by(
    demo: &Catalogue,
    part: u8,
    check: impl Fn(&EffectiveRule) -> bool,
) -> Vec<&Product> {
    demo.products
        .iter()
        .filter(|p| p.is_show)
        .filter(|p| rule(p).is_some_and(|r| parts(r) == part && check(r)))
        .collect()
}

fn gift_category(demo: &Catalogue) -> &Category {
    demo.categories
        .iter()
        .find(|c| c.name.cn == GIFT_CATEGORY_NAME)
        .expect("a gift category 赠品")
}

fn by_code(demo: &Catalogue) -> HashMap<&str, &Product> {
    demo.products
        .iter()
        .map(|p| (p.product_code.as_str(), p))
        .collect()
}

// ----------------------------------------------------------------- the helpers themselves

#[test]
fn seed_helpers_work() {
    let square = [
        point(0.0, 0.0),
        point(2.0, 0.0),
        point(2.0, 2.0),
        point(0.0, 2.0),
    ];
    assert!(inside(point(1.0, 1.0), &square));
    assert!(!inside(point(3.0, 1.0), &square));
    assert!(!inside(point(1.0, -0.5), &square));
    let notch = [
        point(0.0, 0.0),
        point(4.0, 0.0),
        point(4.0, 4.0),
        point(2.0, 1.0),
        point(0.0, 4.0),
    ];
    assert!(!inside(point(2.0, 3.0), &notch));
    assert!(inside(point(1.0, 1.0), &notch));
    assert!(!inside(point(1.0, 1.0), &[]));
    let d = km(point(121.4737, 31.2304), point(116.4074, 39.9042));
    assert!((1060.0..1080.0).contains(&d), "Shanghai to Beijing {d} km");
    assert_eq!(hms("23:59:00"), Some(86_340));
    assert_eq!(hms("24:00:00"), None);
    assert_eq!(hms("9:00:00"), None);
    assert!(is_date("2026-12-24") && !is_date("2026-13-01") && !is_date("26-12-24"));
    assert!(is_phone("021-63225180") && is_phone("0755-82917636"));
    assert!(!is_phone("021-6322518") && !is_phone("010-10000000") && !is_phone("63225180"));
    let mut out = Vec::new();
    let typed = serde_json::json!({"a": 1, "b": [{"c": 2}]});
    let raw = serde_json::json!({"a": 1, "b": [{"c": 2, "typo": 3}]});
    unknown_keys(&raw, &typed, "x", &mut out);
    assert_eq!(out, ["x.b[0].typo"]);
}

// ----------------------------------------------------------------- files and sizes

#[test]
fn seed_files_parse_with_no_unknown_fields() {
    let demo = demo();
    assert!(demo.cities.len() >= 3, "{} cities", demo.cities.len());
    assert!(demo.stores.len() >= 12, "{} stores", demo.stores.len());
    assert!(
        demo.products.len() >= 44,
        "{} products",
        demo.products.len()
    );
    assert!(demo.districts.len() >= 12);
    check_known_keys(
        "geography",
        GEOGRAPHY,
        &serde_json::json!({"cities": demo.cities, "districts": demo.districts}),
    );
    check_known_keys(
        "stores",
        STORES,
        &serde_json::json!({"stores": demo.stores}),
    );
    check_known_keys(
        "menu",
        MENU,
        &serde_json::json!({
            "categories": demo.categories,
            "products": demo.products,
            "hotWords": demo.hot_words,
        }),
    );
    check_known_keys(
        "promotions",
        PROMOTIONS,
        &serde_json::json!({"promotions": demo.promotions}),
    );
}

#[test]
fn seed_promotions_name_real_things_and_cover_every_kind() {
    use crate::domain::pricing::promotion::{PromotionKind, Scope};
    let demo = demo();
    let products: HashSet<&str> = demo
        .products
        .iter()
        .map(|p| p.product_code.as_str())
        .collect();
    let categories: HashSet<&str> = demo
        .categories
        .iter()
        .map(|c| c.category_code.as_str())
        .collect();
    let groups: HashSet<&str> = demo.stores.iter().map(|s| s.group_code.as_str()).collect();
    let check = |scope: &Scope, id: &str| {
        for code in &scope.product_codes {
            assert!(products.contains(code.as_str()), "{id}: {code}");
        }
        for code in &scope.category_codes {
            assert!(categories.contains(code.as_str()), "{id}: {code}");
        }
    };
    let mut kinds = HashSet::new();
    let mut ids = HashSet::new();
    for p in &demo.promotions {
        assert!(ids.insert(p.rule_id.as_str()), "duplicate {}", p.rule_id);
        assert!(bilingual_ok(&p.name), "{}", p.rule_id);
        check(&p.scope, &p.rule_id);
        if let PromotionKind::ComboPrice { groups, .. } = &p.kind {
            groups.iter().for_each(|g| check(g, &p.rule_id));
        }
        for g in p
            .effective_rule
            .iter()
            .flat_map(|r| &r.effective_store_groups)
        {
            assert!(groups.contains(g.as_str()), "{}: group {g}", p.rule_id);
        }
        kinds.insert(p.kind.type_name());
    }
    assert_eq!(
        kinds.len(),
        5,
        "every promotion kind is demonstrated: {kinds:?}"
    );
    let mutex = demo
        .promotions
        .iter()
        .filter(|p| p.mutex_group.is_some())
        .count();
    assert!(mutex >= 2, "a mutex group exists");
}

// ----------------------------------------------------------------- geography

#[test]
fn seed_cities_and_districts_are_real() {
    let demo = demo();
    let codes: HashSet<&str> = demo.cities.iter().map(|c| c.city_code.as_str()).collect();
    assert_eq!(codes.len(), demo.cities.len(), "city codes unique");
    assert_eq!(
        demo.cities[0].city_code, "310100",
        "Shanghai is the first (default) city"
    );
    for (code, cn, en, lng, lat) in [
        ("310100", "上海", "Shanghai", 121.4737, 31.2304),
        ("110100", "北京", "Beijing", 116.4074, 39.9042),
        ("440300", "深圳", "Shenzhen", 114.0579, 22.5431),
    ] {
        let city = demo.cities.iter().find(|c| c.city_code == code).expect(en);
        assert_eq!((city.name.cn.as_str(), city.name.en.as_str()), (cn, en));
        assert!(city.hot, "{en} is a hot city");
        assert!(
            km(point(city.lng, city.lat), point(lng, lat)) < 3.0,
            "{en} centre"
        );
    }
    let district_codes: HashSet<&str> = demo
        .districts
        .iter()
        .map(|d| d.district_code.as_str())
        .collect();
    assert_eq!(
        district_codes.len(),
        demo.districts.len(),
        "district codes unique"
    );
    for d in &demo.districts {
        let city = demo
            .cities
            .iter()
            .find(|c| c.city_code == d.city_code)
            .unwrap_or_else(|| panic!("district {} has no city", d.district_code));
        assert_eq!(
            &d.district_code[..4],
            &city.city_code[..4],
            "{}",
            d.district_code
        );
        assert!(bilingual_ok(&d.name));
        let far = km(point(d.lng, d.lat), point(city.lng, city.lat));
        assert!(
            far < 45.0,
            "{} is {far} km from its city centre",
            d.district_code
        );
    }
    for city in &demo.cities {
        assert!(bilingual_ok(&city.name));
        assert!(city.name.en.starts_with(|c: char| c.is_ascii_uppercase()));
        let n = demo
            .districts
            .iter()
            .filter(|d| d.city_code == city.city_code)
            .count();
        assert!(n >= 4, "{} has {n} districts", city.city_code);
    }
    for (code, cn) in [
        ("310101", "黄浦区"),
        ("310104", "徐汇区"),
        ("310105", "长宁区"),
        ("310106", "静安区"),
        ("310115", "浦东新区"),
        ("110101", "东城区"),
        ("110102", "西城区"),
        ("110105", "朝阳区"),
        ("110108", "海淀区"),
        ("440303", "罗湖区"),
        ("440304", "福田区"),
        ("440305", "南山区"),
        ("440306", "宝安区"),
    ] {
        let d = demo
            .districts
            .iter()
            .find(|d| d.district_code == code)
            .expect(code);
        assert_eq!(d.name.cn, cn);
    }
    // People's Square is in Huangpu: its nearest district centre must be Huangpu's.
    let square = point(121.473701, 31.230416);
    let nearest = demo
        .districts
        .iter()
        .min_by(|a, b| km(square, point(a.lng, a.lat)).total_cmp(&km(square, point(b.lng, b.lat))))
        .unwrap();
    assert_eq!(nearest.district_code, "310101");
}

// ----------------------------------------------------------------- stores

#[test]
fn seed_stores_are_complete_and_consistent() {
    let demo = demo();
    let codes: HashSet<&str> = demo.stores.iter().map(|s| s.store_code.as_str()).collect();
    assert_eq!(codes.len(), demo.stores.len(), "store codes unique");
    for city in ["310100", "110100", "440300"] {
        let n = demo.stores.iter().filter(|s| s.city_code == city).count();
        assert!(n >= 3, "{city} has {n} stores");
    }
    for s in &demo.stores {
        let code = &s.store_code;
        assert!(!code.is_empty());
        assert!(bilingual_ok(&s.name) && bilingual_ok(&s.address), "{code}");
        assert!(
            demo.cities.iter().any(|c| c.city_code == s.city_code),
            "{code} city"
        );
        let district = demo
            .districts
            .iter()
            .find(|d| d.district_code == s.district_code)
            .unwrap_or_else(|| panic!("{code}: district {} missing", s.district_code));
        assert_eq!(
            district.city_code, s.city_code,
            "{code}: district in its city"
        );
        let here = point(s.lng, s.lat);
        let far = km(here, point(district.lng, district.lat));
        assert!(far < 12.0, "{code} is {far} km from its district centre");
        assert!(!s.group_code.is_empty(), "{code} group");
        assert!(is_phone(&s.store_tel), "{code} tel {}", s.store_tel);
        if let Some(tel) = &s.standby_tel {
            assert!(is_phone(tel), "{code} standby tel {tel}");
        }
        let mut methods = s.service_methods.clone();
        methods.sort_unstable();
        methods.dedup();
        assert_eq!(methods, s.service_methods, "{code}: service methods sorted");
        assert!(
            !methods.is_empty() && methods.iter().all(|m| *m <= 2),
            "{code}"
        );
        assert!((15..=60).contains(&s.delivery_time), "{code}");
        assert!((10..=30).contains(&s.estimate_time), "{code}");
        for w in &s.business_hours {
            let (start, end) = (hms(&w.start), hms(&w.end));
            assert!(start.is_some() && end.is_some(), "{code}: hours {w:?}");
            assert_ne!(start, end, "{code}: empty window");
        }
        if s.service_methods.contains(&DELIVERY) {
            let n = s.delivery_area.len();
            assert!((6..=10).contains(&n), "{code}: {n} polygon points");
            assert!(
                inside(here, &s.delivery_area),
                "{code} outside its delivery area"
            );
            for v in &s.delivery_area {
                let r = km(here, *v);
                assert!(
                    (2.0..=4.5).contains(&r),
                    "{code}: polygon point {r} km away"
                );
            }
            assert!((600..=900).contains(&s.delivery_fee.0), "{code} fee");
            assert!(
                (9900..=12900).contains(&s.free_delivery_threshold.0),
                "{code} free delivery threshold"
            );
        }
        assert_eq!(
            s.stop_store_notice.is_some(),
            s.status == StoreStatus::Closed,
            "{code}: a stop notice exactly when closed"
        );
    }
}

#[test]
fn seed_stores_with_special_roles_exist() {
    let demo = demo();
    let defaults: Vec<&Store> = demo.stores.iter().filter(|s| s.is_default).collect();
    assert_eq!(defaults.len(), 1, "exactly one default store");
    let flagship = defaults[0];
    assert_eq!(flagship.city_code, "310100");
    assert_eq!(flagship.group_code, "FLAGSHIP");
    assert_eq!(flagship.status, StoreStatus::Open);
    assert!(flagship.service_methods.contains(&DELIVERY));
    assert!(km(point(flagship.lng, flagship.lat), point(121.4737, 31.2304)) < 1.0);
    assert!(flagship.business_hours.iter().all(|w| w.start <= w.end));

    let pickup_only = demo.stores.iter().find(|s| s.service_methods == [1]);
    assert!(pickup_only.is_some(), "a pickup-only store");

    let closed = demo
        .stores
        .iter()
        .find(|s| s.status == StoreStatus::Closed)
        .expect("a temporarily closed store");
    let notice = closed.stop_store_notice.as_ref().unwrap();
    assert!(notice.cn.contains("暂停营业") && bilingual_ok(notice));
    assert!(!closed.is_default);

    let booking = demo
        .stores
        .iter()
        .find(|s| s.book_enable && !s.exclusion_day_list.is_empty())
        .expect("a store taking bookings, with an exclusion day");
    assert_eq!(booking.book_days, 3);
    assert_eq!(booking.default_book_time.as_deref(), Some("11:30:00"));
    let day = booking
        .exclusion_day_list
        .first()
        .expect("an exclusion day");
    assert_eq!(
        (day.start_date.as_str(), day.end_date.as_str()),
        ("2026-12-24", "2026-12-25")
    );
    assert_eq!(
        (day.start_time.as_str(), day.end_time.as_str()),
        ("10:00:00", "23:59:00")
    );
    for s in &demo.stores {
        assert_eq!(s.book_enable, s.book_days > 0, "{}", s.store_code);
        for d in &s.exclusion_day_list {
            assert!(is_date(&d.start_date) && is_date(&d.end_date) && d.start_date <= d.end_date);
            assert!(hms(&d.start_time).is_some() && hms(&d.end_time).is_some());
        }
    }

    let service = demo
        .stores
        .iter()
        .find_map(|s| s.service_notice.as_ref())
        .expect("a store with a service notice");
    assert_eq!(service.pop_up_model, 1);
    assert!(bilingual_ok(&service.content));
    assert!(service.left_btn.as_ref().is_some_and(bilingual_ok));
    assert!(service.right_btn.as_ref().is_some_and(bilingual_ok));
    assert!(demo
        .stores
        .iter()
        .any(|s| s.business_notice.as_ref().is_some_and(bilingual_ok)));

    let late = demo
        .stores
        .iter()
        .find(|s| s.business_hours.iter().any(|w| w.end < w.start))
        .expect("a late-night store");
    assert!(late.business_hours.iter().any(|w| w.end == "02:00:00"));
    let varied = demo
        .stores
        .iter()
        .filter(|s| !s.business_hours.is_empty())
        .count();
    assert!(
        varied * 2 < demo.stores.len(),
        "most stores keep the default hours"
    );
    assert!(demo.stores.iter().any(|s| s.delivery_time != 30));
    assert!(demo.stores.iter().filter(|s| s.delivery_time == 30).count() * 2 > demo.stores.len());
}

// ----------------------------------------------------------------- menu

#[test]
fn seed_categories_and_products_are_consistent() {
    let demo = demo();
    let categories: HashSet<&str> = demo
        .categories
        .iter()
        .map(|c| c.category_code.as_str())
        .collect();
    assert_eq!(
        categories.len(),
        demo.categories.len(),
        "category codes unique"
    );
    assert!(
        demo.categories.windows(2).all(|w| w[0].sort < w[1].sort),
        "categories sorted"
    );
    assert!(demo.categories.iter().all(|c| bilingual_ok(&c.name)));
    let codes: HashSet<&str> = demo
        .products
        .iter()
        .map(|p| p.product_code.as_str())
        .collect();
    assert_eq!(codes.len(), demo.products.len(), "product codes unique");
    for ty in ALL_TYPES {
        assert!(
            demo.products
                .iter()
                .any(|p| p.product_type == ty && p.is_show),
            "product type {ty}"
        );
    }
    for p in &demo.products {
        let code = &p.product_code;
        assert!(
            categories.contains(p.category_code.as_str()),
            "{code}: category"
        );
        assert!(ALL_TYPES.contains(&p.product_type), "{code}: type");
        assert!(
            bilingual_ok(&p.name) && bilingual_ok(&p.description),
            "{code}"
        );
        assert!(p.recommend_type <= 2, "{code}");
        assert_eq!(p.min_sale, 1, "{code}");
        assert_eq!(p.detail_page_show_num, 4, "{code}");
        assert!(!p.keywords.is_empty(), "{code}: search keywords");
        assert!(p.selling_price.0 >= 0);

        if !p.sizes.is_empty() {
            let defaults: Vec<_> = p.sizes.iter().filter(|s| s.is_default).collect();
            assert_eq!(defaults.len(), 1, "{code}: one default size");
            assert_eq!(p.selling_price, defaults[0].price, "{code}: sellingPrice");
            assert!(
                p.sizes.windows(2).all(|w| w[0].price < w[1].price),
                "{code}"
            );
            let size_codes: HashSet<&str> = p.sizes.iter().map(|s| s.size_code.as_str()).collect();
            assert_eq!(size_codes.len(), p.sizes.len(), "{code}");
            for pastry in &p.pastries {
                for s in &pastry.size_codes {
                    assert!(size_codes.contains(s.as_str()), "{code}: crust size {s}");
                }
            }
        } else {
            assert!(p.pastries.is_empty() && p.flavors.is_empty(), "{code}");
        }
        if !p.pastries.is_empty() {
            let defaults = p.pastries.iter().filter(|x| x.is_default).count();
            assert_eq!(defaults, 1, "{code}: one default crust");
            assert!(p
                .pastries
                .iter()
                .all(|x| !x.is_default || x.size_codes.is_empty()));
        }
        if !p.sauces.is_empty() {
            assert_eq!(
                p.sauces.iter().filter(|s| s.is_default).count(),
                1,
                "{code}"
            );
        }
        assert!(p
            .base_ingredients
            .iter()
            .all(|i| i.is_default && i.price.0 == 0));
        for x in &p.extra_ingredients {
            assert!(x.price.0 > 0 && !x.is_default, "{code}: extra {}", x.code);
            assert!(
                (2..=3).contains(&x.max_quantity),
                "{code}: extra {}",
                x.code
            );
        }
        if p.product_type == COMBO {
            assert!(!p.combo_rounds.is_empty(), "{code}: combo rounds");
            assert!(p.sizes.is_empty());
        } else {
            assert!(p.combo_rounds.is_empty(), "{code}");
        }
        match p.product_type {
            PIZZA => {
                assert!(p.sizes.len() >= 2 && !p.pastries.is_empty(), "{code}");
                let style = p.style_option.as_ref().expect("pizzas have a styleOption");
                let size = style.size.as_ref().unwrap();
                assert_eq!(
                    (size.title.as_str(), size.title_en.as_str()),
                    ("尺寸", "Size")
                );
                assert_eq!(size.show_type, 1);
                assert!(style.pastry.as_ref().is_some_and(|g| g.title == "饼底"));
                if p.flavors.is_empty() {
                    assert!(
                        !p.sauces.is_empty() && !p.base_ingredients.is_empty(),
                        "{code}"
                    );
                    assert!(!p.extra_ingredients.is_empty(), "{code}");
                    assert!(style.sauces.as_ref().is_some_and(|g| g.title == "酱料"));
                    assert!(style.spec1.as_ref().is_some_and(|g| g.title == "配料"));
                    assert!(style.spec2.as_ref().is_some_and(|g| g.title == "加料"));
                }
            }
            SINGLE | JUICE | COMBO => assert!(p.flavors.is_empty(), "{code}"),
            TWO_FLAVOUR => assert!(!p.flavors.is_empty(), "{code}"),
            _ => unreachable!(),
        }
    }
    let prices: Vec<i64> = demo
        .products
        .iter()
        .filter(|p| p.product_type == PIZZA && p.flavors.is_empty())
        .flat_map(|p| p.sizes.iter().map(|s| s.price.0))
        .collect();
    assert!(
        prices.iter().all(|p| (4900..=15900).contains(p)),
        "{prices:?}"
    );
    let pizza = demo
        .products
        .iter()
        .find(|p| p.product_code == "PZ001")
        .unwrap();
    let sizes: Vec<&str> = pizza.sizes.iter().map(|s| s.size_code.as_str()).collect();
    assert_eq!(sizes, ["9", "12", "14"]);
    let cheese = pizza
        .pastries
        .iter()
        .find(|x| x.pastry_code == "CHEESE")
        .expect("a cheese-stuffed crust");
    assert_eq!(
        (cheese.extra_price.0, cheese.size_codes.clone()),
        (2000, vec!["12".into(), "14".into()])
    );
    assert!(demo.products.iter().any(|p| p.recommend_type == 1));
    assert!(demo.products.iter().any(|p| p.recommend_type == 2));
}

#[test]
fn seed_flavoured_pizzas_are_priced_by_the_dearest_flavour() {
    let demo = demo();
    let mut multi = 0;
    let mut halves = 0;
    for p in demo.products.iter().filter(|p| !p.flavors.is_empty()) {
        let code = &p.product_code;
        let n = p.flavors.len();
        match p.product_type {
            PIZZA => {
                multi += 1;
                assert_eq!(p.flavor_count, 4, "{code}");
                assert!((4..=6).contains(&n), "{code}: {n} flavours");
            }
            TWO_FLAVOUR => {
                halves += 1;
                assert_eq!(p.flavor_count, 2, "{code}");
                assert!(n >= 2, "{code}");
            }
            other => panic!("{code}: type {other} has flavours"),
        }
        let flavours: HashSet<&str> = p.flavors.iter().map(|f| f.flavor_code.as_str()).collect();
        assert_eq!(flavours.len(), n, "{code}: flavour codes unique");
        for size in &p.sizes {
            let mut prices: Vec<i64> = p
                .flavors
                .iter()
                .map(|f| {
                    f.prices
                        .iter()
                        .find(|x| x.size_code == size.size_code)
                        .unwrap_or_else(|| {
                            panic!("{code}: {} lacks size {}", f.flavor_code, size.size_code)
                        })
                        .price
                        .0
                })
                .collect();
            prices.sort_unstable();
            // The cheapest pizza takes the cheapest flavours and is priced by the dearest of them.
            let from = prices[p.flavor_count as usize - 1];
            assert_eq!(size.price.0, from, "{code} size {}", size.size_code);
        }
        for f in &p.flavors {
            assert!(
                bilingual_ok(&f.name) && f.prices.len() == p.sizes.len(),
                "{code}"
            );
        }
    }
    assert!(multi >= 1, "a multi-flavour pizza");
    assert!(halves >= 2, "two-flavour pizzas");
    assert!(demo
        .products
        .iter()
        .filter(|p| p.flavor_count > 0)
        .all(|p| !p.flavors.is_empty()));
}

#[test]
fn seed_combos_name_real_products() {
    let demo = demo();
    let products = by_code(&demo);
    let gift = gift_category(&demo).category_code.clone();
    let combos: Vec<&Product> = demo
        .products
        .iter()
        .filter(|p| p.product_type == COMBO)
        .collect();
    assert!(
        combos
            .iter()
            .filter(|p| p.is_show && p.effective_rule.is_none())
            .count()
            >= 3
    );
    let mut pizza_round = false;
    for combo in combos {
        let code = &combo.product_code;
        assert!(combo.selling_price.0 > 0, "{code}");
        let rounds: HashSet<&str> = combo
            .combo_rounds
            .iter()
            .map(|r| r.round_code.as_str())
            .collect();
        assert_eq!(
            rounds.len(),
            combo.combo_rounds.len(),
            "{code}: round codes unique"
        );
        for round in &combo.combo_rounds {
            let at = format!("{code}/{}", round.round_code);
            assert!(bilingual_ok(&round.name), "{at}");
            assert!(round.choose_num >= 1, "{at}");
            assert!(!round.choices.is_empty(), "{at}");
            let defaults = round.choices.iter().filter(|c| c.is_default).count() as u32;
            assert!(
                (1..=round.choose_num).contains(&defaults),
                "{at}: {defaults} defaults"
            );
            for choice in &round.choices {
                let p = products
                    .get(choice.product_code.as_str())
                    .unwrap_or_else(|| panic!("{at}: no product {}", choice.product_code));
                assert!(
                    p.is_show && p.effective_rule.is_none(),
                    "{at}: {} always on sale",
                    p.product_code
                );
                assert!(p.product_type != COMBO && p.category_code != gift, "{at}");
                assert!(choice.add_price.0 >= 0);
                match &choice.size_code {
                    Some(size) => assert!(
                        p.sizes.iter().any(|s| &s.size_code == size),
                        "{at}: {} has no size {size}",
                        p.product_code
                    ),
                    None => {
                        assert!(p.sizes.is_empty(), "{at}: {} needs a size", p.product_code)
                    }
                }
                if p.product_type == PIZZA && choice.size_code.as_deref() == Some("12") {
                    pizza_round = true;
                }
            }
        }
    }
    assert!(pizza_round, "a combo with 12-inch pizzas");
}

#[test]
fn seed_gift_hidden_and_empty_categories() {
    let demo = demo();
    let gift = gift_category(&demo);
    assert_eq!(gift.name.en, "Gifts");
    assert!(demo
        .products
        .iter()
        .any(|p| p.category_code == gift.category_code));
    assert!(demo.products.iter().any(|p| !p.is_show), "a hidden product");
    // What the menu shows: shown, not gift, not expired.
    let listed = |p: &&Product| p.is_show && p.category_code != gift.category_code && !expired(p);
    let mut empty = Vec::new();
    for c in demo
        .categories
        .iter()
        .filter(|c| c.category_code != gift.category_code)
    {
        let all = demo
            .products
            .iter()
            .filter(|p| p.category_code == c.category_code)
            .count();
        let shown = demo
            .products
            .iter()
            .filter(|p| p.category_code == c.category_code)
            .filter(listed)
            .count();
        assert!(
            all > 0,
            "category {} has no products at all",
            c.category_code
        );
        if shown == 0 {
            empty.push(c.category_code.as_str());
        }
    }
    assert_eq!(
        empty.len(),
        1,
        "one category ends up empty on the menu: {empty:?}"
    );
    let on_menu = demo.products.iter().filter(listed).count();
    assert!(on_menu >= 35, "{on_menu} products on the menu");
}

#[test]
fn seed_time_limited_products_exist() {
    let demo = demo();
    let store_codes: HashSet<&str> = demo.stores.iter().map(|s| s.store_code.as_str()).collect();
    let groups: HashSet<&str> = demo.stores.iter().map(|s| s.group_code.as_str()).collect();
    for p in &demo.products {
        let Some(r) = rule(p) else { continue };
        let code = &p.product_code;
        assert_ne!(parts(r), 0, "{code}: an empty rule");
        if let Some(d) = &r.effective_date {
            assert!(
                is_date(&d.start) && is_date(&d.end) && d.start <= d.end,
                "{code}"
            );
        }
        if let Some(t) = &r.effective_time {
            assert!(hms(&t.start).is_some() && hms(&t.end).is_some(), "{code}");
        }
        assert!(
            r.effective_day_of_week.iter().all(|d| (1..=7).contains(d)),
            "{code}"
        );
        assert!(r.order_types.iter().all(|t| *t <= 2), "{code}");
        for s in &r.effective_stores {
            assert!(store_codes.contains(s.as_str()), "{code}: store {s}");
        }
        for g in &r.effective_store_groups {
            assert!(groups.contains(g.as_str()), "{code}: group {g}");
        }
    }
    let current = limited_only_by(&demo, DATE, |r| {
        r.effective_date
            .as_ref()
            .is_some_and(|d| d.start.as_str() <= TODAY && d.end.as_str() >= TEST_DAY)
    });
    assert!(
        !current.is_empty(),
        "a product on sale for a current date range"
    );
    let lunch = limited_only_by(&demo, TIME, |r| {
        r.effective_time
            .as_ref()
            .is_some_and(|t| t.start == "11:00:00" && t.end == "14:00:00")
    });
    assert!(!lunch.is_empty(), "a lunch-time product");
    let weekdays = limited_only_by(&demo, WEEKDAY, |r| {
        r.effective_day_of_week == [1, 2, 3, 4, 5]
    });
    assert!(!weekdays.is_empty(), "a weekday product");
    let by_store = limited_only_by(&demo, STORES_PART, |r| r.effective_stores.len() == 2);
    let by_store = by_store.first().expect("a product of two stores");
    let default_store = demo.stores.iter().find(|s| s.is_default).unwrap();
    assert!(
        !rule(by_store)
            .unwrap()
            .effective_stores
            .contains(&default_store.store_code),
        "the store-limited product is not on the default store's menu"
    );
    let flagship = limited_only_by(&demo, GROUPS, |r| r.effective_store_groups == ["FLAGSHIP"]);
    assert!(!flagship.is_empty(), "a flagship-only product");
    let delivery = limited_only_by(&demo, ORDER_TYPES, |r| r.order_types == [DELIVERY]);
    assert!(!delivery.is_empty(), "a delivery-only product");
    let expired: Vec<&Product> = demo
        .products
        .iter()
        .filter(|p| p.is_show && expired(p))
        .collect();
    assert!(
        expired.iter().any(|p| rule(p)
            .and_then(|r| r.effective_date.as_ref())
            .is_some_and(|d| d.start.starts_with("2025") && d.end.starts_with("2025"))),
        "an expired product"
    );
    // The integration tests pick the first shown product limited by each part alone.
    for part in [TIME, WEEKDAY, STORES_PART, GROUPS, ORDER_TYPES] {
        let n = demo
            .products
            .iter()
            .filter(|p| p.is_show && rule(p).is_some_and(|r| parts(r) & part != 0))
            .count();
        assert_eq!(n, 1, "exactly one product limited by part {part}");
    }
}

#[test]
fn seed_hot_words_find_products() {
    let demo = demo();
    let n = demo.hot_words.len();
    assert!((8..=10).contains(&n), "{n} hot words");
    let shown: Vec<&Product> = demo.products.iter().filter(|p| p.is_show).collect();
    for w in &demo.hot_words {
        assert!(bilingual_ok(w));
        let cn = shown
            .iter()
            .any(|p| p.name.cn.contains(&w.cn) || p.keywords.iter().any(|k| k.contains(&w.cn)));
        let en = w.en.to_lowercase();
        let en = shown.iter().any(|p| {
            p.name.en.to_lowercase().contains(&en)
                || p.keywords.iter().any(|k| k.to_lowercase().contains(&en))
        });
        assert!(cn && en, "hot word {w:?} finds nothing");
    }
    for keyword in ["牛肉", "beef", "spicy", "辣"] {
        assert!(
            shown
                .iter()
                .any(|p| p.keywords.iter().any(|k| k == keyword)),
            "{keyword}"
        );
    }
}

#[test]
fn seed_images_exist() {
    let demo = demo();
    let public = public_dir();
    let mut urls: Vec<&str> = Vec::new();
    for p in &demo.products {
        urls.push(&p.image_url1);
        urls.extend(p.image_url2.as_deref());
        urls.extend(p.detail_image_urls.iter().map(String::as_str));
        urls.extend(p.flavors.iter().map(|f| f.image_url.as_str()));
    }
    for url in urls {
        assert!(
            url.starts_with("/images/products/") && url.ends_with(".svg"),
            "{url}"
        );
        let file = public.join(url.trim_start_matches('/'));
        let meta = std::fs::metadata(&file).unwrap_or_else(|_| {
            panic!(
                "{} is missing (run actors/seed/make_images.py)",
                file.display()
            )
        });
        assert!(meta.len() <= 4096, "{url} is {} bytes", meta.len());
    }
    for extra in ["store.svg", "banner-1.svg", "banner-2.svg", "banner-3.svg"] {
        let file = public.join("images").join(extra);
        assert!(file.is_file(), "{} is missing", file.display());
    }
}
