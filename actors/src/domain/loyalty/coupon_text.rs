//! The words a customer reads about a coupon: its rule ("满100减20", "Spend ¥100, save ¥20"),
//! where it applies ("限比萨类商品；仅限外送订单使用", "All items"), and the order types a
//! reason names. Pure; tested with the rest of `coupon` in `coupon_tests.rs`.

use super::{CouponKind, CouponTemplate};
use crate::domain::catalogue::{Bilingual, DELIVERY, DINE_IN, PICKUP};
use crate::domain::lang::Lang;
use crate::domain::money::Fen;

/// "仅限外送订单使用" / "Delivery orders only".
pub(super) fn order_types_text(types: &[u8], lang: Lang) -> String {
    let names: Vec<&str> = types.iter().map(|t| order_type_name(*t, lang)).collect();
    match lang {
        Lang::Zh => format!("仅限{}订单使用", names.join("、")),
        Lang::En => format!("{} orders only", names.join(" and ")),
    }
}

fn order_type_name(t: u8, lang: Lang) -> &'static str {
    match (t, lang) {
        (DELIVERY, Lang::Zh) => "外送",
        (DELIVERY, Lang::En) => "Delivery",
        (PICKUP, Lang::Zh) => "自取",
        (PICKUP, Lang::En) => "Pickup",
        (DINE_IN, Lang::Zh) => "堂食",
        (DINE_IN, Lang::En) => "Dine-in",
        (_, Lang::Zh) => "指定类型",
        (_, Lang::En) => "Selected",
    }
}

/// Yuan in the shortest form: 100, 9.9, 0.05.
pub fn short_yuan(fen: Fen) -> String {
    let text = fen.to_string();
    let trimmed = text.trim_end_matches('0').trim_end_matches('.');
    trimmed.to_string()
}

/// The rule in a few words: "满100减20", "Spend ¥100, save ¥20". Product kinds without the
/// product's name ("¥9.9换购"); `rule_text_named` adds it.
pub fn rule_text(template: &CouponTemplate, lang: Lang) -> String {
    rule_text_named(template, None, lang)
}

/// As `rule_text`, naming the product of a product coupon ("¥9.9换购 至尊比萨", "兑换 芝士条").
pub fn rule_text_named(
    template: &CouponTemplate,
    product: Option<&Bilingual>,
    lang: Lang,
) -> String {
    let zh = lang == Lang::Zh;
    let y = short_yuan;
    let with_product = |text: String| match product {
        Some(p) => {
            let name = if zh { &p.cn } else { &p.en };
            format!("{text} {name}")
        }
        None => text,
    };
    match &template.kind {
        CouponKind::CashOff { threshold, off } => match (zh, *threshold > Fen::ZERO) {
            (true, true) => format!("满{}减{}", y(*threshold), y(*off)),
            (true, false) => format!("立减{}", y(*off)),
            (false, true) => format!("Spend ¥{}, save ¥{}", y(*threshold), y(*off)),
            (false, false) => format!("¥{} off", y(*off)),
        },
        CouponKind::PercentOff {
            percent_off,
            cap,
            threshold,
        } => {
            let pay = 100u32.saturating_sub((*percent_off).min(100));
            let zhe = if pay % 10 == 0 {
                format!("{}", pay / 10)
            } else {
                format!("{}.{}", pay / 10, pay % 10)
            };
            let mut text = if zh {
                format!("{zhe}折")
            } else {
                format!("{percent_off}% off")
            };
            if *threshold > Fen::ZERO {
                text = if zh {
                    format!("满{}享{text}", y(*threshold))
                } else {
                    format!("Spend ¥{}, {text}", y(*threshold))
                };
            }
            if *cap > Fen::ZERO {
                text = if zh {
                    format!("{text}，最多减¥{}", y(*cap))
                } else {
                    format!("{text}, up to ¥{}", y(*cap))
                };
            }
            text
        }
        CouponKind::FreeDelivery { threshold } => match (zh, *threshold > Fen::ZERO) {
            (true, true) => format!("满{}免配送费", y(*threshold)),
            (true, false) => "免配送费".into(),
            (false, true) => format!("Free delivery over ¥{}", y(*threshold)),
            (false, false) => "Free delivery".into(),
        },
        CouponKind::ProductAtPrice {
            price, threshold, ..
        } => {
            let base = match (zh, *price > Fen::ZERO) {
                (true, true) => format!("¥{}换购", y(*price)),
                (true, false) => "免费得".to_string(),
                (false, true) => format!("¥{} for", y(*price)),
                (false, false) => "Free".to_string(),
            };
            let text = with_product(base);
            match (zh, *threshold > Fen::ZERO) {
                (true, true) => format!("满{}{text}", y(*threshold)),
                (false, true) => format!("Spend ¥{}, {text}", y(*threshold)),
                _ => text,
            }
        }
        CouponKind::ExchangeProduct { .. } => {
            with_product(if zh { "兑换" } else { "Exchange for" }.to_string())
        }
    }
}

/// Names the scope text needs; a code the catalogue does not know is shown as it is.
pub trait ScopeNames {
    fn product(&self, code: &str) -> Option<Bilingual>;
    fn category(&self, code: &str) -> Option<Bilingual>;
    fn store(&self, code: &str) -> Option<Bilingual>;
}

/// Where and on what the coupon applies: "限 至尊比萨；仅限外送订单使用" or "全部商品" / "All items".
pub fn scope_text(template: &CouponTemplate, names: &dyn ScopeNames, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let pick = |b: Option<Bilingual>, code: &str| match b {
        Some(b) if zh => b.cn,
        Some(b) => b.en,
        None => code.to_string(),
    };
    let list = |items: Vec<String>| items.join(if zh { "、" } else { ", " });
    let mut parts: Vec<String> = Vec::new();
    let scope = &template.scope;
    if !scope.product_codes.is_empty() {
        let items = list(
            scope
                .product_codes
                .iter()
                .map(|c| pick(names.product(c), c))
                .collect(),
        );
        parts.push(if zh {
            format!("限{items}")
        } else {
            format!("Only {items}")
        });
    }
    if !scope.category_codes.is_empty() {
        let items = list(
            scope
                .category_codes
                .iter()
                .map(|c| pick(names.category(c), c))
                .collect(),
        );
        parts.push(if zh {
            format!("限{items}类商品")
        } else {
            format!("{items} only")
        });
    }
    if !scope.size_codes.is_empty() || !scope.product_types.is_empty() {
        parts.push(
            if zh {
                "限指定规格商品"
            } else {
                "Selected sizes only"
            }
            .into(),
        );
    }
    if parts.is_empty() {
        parts.push(if zh { "全部商品" } else { "All items" }.into());
    }
    if let Some(rule) = &template.effective_rule {
        if !rule.effective_stores.is_empty() {
            let items = list(
                rule.effective_stores
                    .iter()
                    .map(|c| pick(names.store(c.trim()), c.trim()))
                    .collect(),
            );
            parts.push(if zh {
                format!("限{items}门店")
            } else {
                format!("At {items}")
            });
        } else if !rule.effective_store_groups.is_empty() {
            parts.push(
                if zh {
                    "限部分门店"
                } else {
                    "Selected stores only"
                }
                .into(),
            );
        }
        if !rule.order_types.is_empty() {
            parts.push(order_types_text(&rule.order_types, lang));
        }
    }
    if !template.channels.is_empty() {
        parts.push(
            if zh {
                "限部分渠道"
            } else {
                "Selected channels only"
            }
            .into(),
        );
    }
    parts.join(if zh { "；" } else { "; " })
}
