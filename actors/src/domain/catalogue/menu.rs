//! What the menu shows (spec ordering §5): hidden, gift and uncategorised products are dropped,
//! so are products whose effective rule does not match, and categories left empty are hidden.

use crate::domain::catalogue::effective::{rule_matches, RuleContext};
use crate::domain::catalogue::{Category, Product, GIFT_CATEGORY_NAME};

/// Listed means shown on the menu and found by search. Gifts are only ever added by a
/// promotion, and a product without a (named) category has nowhere to be shown. The category
/// name checked is the Chinese one, the name the back office keys gifts by.
pub fn is_listed(product: &Product, category: Option<&Category>, ctx: &RuleContext) -> bool {
    let Some(category) = category else {
        return false;
    };
    let name = category.name.cn.trim();
    product.is_show
        && !name.is_empty()
        && name != GIFT_CATEGORY_NAME
        && rule_matches(product.effective_rule.as_ref(), ctx)
}

/// Categories by `sort` then code, each with its listed products by `sort` then code.
/// A category code given twice is shown once, so no product appears twice.
pub fn build_menu<'a>(
    categories: &'a [Category],
    products: &'a [Product],
    ctx: &RuleContext,
) -> Vec<(&'a Category, Vec<&'a Product>)> {
    let mut cats: Vec<&Category> = categories.iter().collect();
    cats.sort_by(|a, b| (a.sort, &a.category_code).cmp(&(b.sort, &b.category_code)));
    // After sorting, the first of a duplicated code is the one with the lower sort.
    let mut seen = std::collections::HashSet::new();
    cats.retain(|c| seen.insert(c.category_code.as_str()));
    cats.into_iter()
        .filter_map(|cat| {
            let mut items: Vec<&Product> = products
                .iter()
                .filter(|p| p.category_code == cat.category_code && is_listed(p, Some(cat), ctx))
                .collect();
            items.sort_by(|a, b| (a.sort, &a.product_code).cmp(&(b.sort, &b.product_code)));
            (!items.is_empty()).then_some((cat, items))
        })
        .collect()
}

/// Case-insensitive substring search over both names, both descriptions and the keywords,
/// among listed products only. Results come in menu order. A blank keyword finds nothing
/// (the search page shows hot words instead of the whole menu).
pub fn search_products<'a>(
    products: &'a [Product],
    categories: &'a [Category],
    ctx: &RuleContext,
    keyword: &str,
) -> Vec<&'a Product> {
    let needle = keyword.trim().to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    build_menu(categories, products, ctx)
        .into_iter()
        .flat_map(|(_, items)| items)
        .filter(|p| matches(p, &needle))
        .collect()
}

fn matches(p: &Product, needle: &str) -> bool {
    [&p.name.cn, &p.name.en, &p.description.cn, &p.description.en]
        .into_iter()
        .chain(p.keywords.iter())
        .any(|text| text.to_lowercase().contains(needle))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::catalogue::{product_type, Bilingual, DateRange, EffectiveRule};
    use crate::domain::money::Fen;
    use crate::domain::stores::hours::china_offset;
    use chrono::TimeZone;

    fn ctx() -> RuleContext<'static> {
        RuleContext {
            at: china_offset()
                .with_ymd_and_hms(2024, 5, 1, 12, 0, 0)
                .unwrap(),
            store_code: "S001",
            store_group: "G1",
            order_type: 0,
        }
    }

    fn bi(cn: &str, en: &str) -> Bilingual {
        Bilingual {
            cn: cn.into(),
            en: en.into(),
        }
    }

    fn cat(code: &str, cn: &str, sort: i32) -> Category {
        Category {
            category_code: code.into(),
            name: bi(cn, code),
            sort,
        }
    }

    fn prod(code: &str, category: &str, sort: i32) -> Product {
        Product {
            product_code: code.into(),
            category_code: category.into(),
            name: bi(&format!("{code}披萨"), &format!("{code} Pizza")),
            description: bi("", ""),
            selling_price: Fen(5900),
            min_sale: 1,
            image_url1: String::new(),
            image_url2: None,
            detail_image_urls: Vec::new(),
            is_show: true,
            sort,
            recommend_type: 0,
            product_type: product_type::SINGLE,
            product_sub_type: 0,
            sizes: Vec::new(),
            pastries: Vec::new(),
            flavors: Vec::new(),
            flavor_count: 0,
            sauces: Vec::new(),
            base_ingredients: Vec::new(),
            extra_ingredients: Vec::new(),
            combo_rounds: Vec::new(),
            style_option: None,
            detail_page_show_num: 4,
            effective_rule: None,
            keywords: Vec::new(),
        }
    }

    fn hidden(mut p: Product) -> Product {
        p.is_show = false;
        p
    }

    fn with_rule(mut p: Product, rule: EffectiveRule) -> Product {
        p.effective_rule = Some(rule);
        p
    }

    fn expired() -> EffectiveRule {
        EffectiveRule {
            effective_date: Some(DateRange {
                start: "2024-01-01".into(),
                end: "2024-01-31".into(),
            }),
            ..Default::default()
        }
    }

    fn elsewhere() -> EffectiveRule {
        EffectiveRule {
            effective_stores: vec!["S999".into()],
            ..Default::default()
        }
    }

    #[test]
    fn is_listed_cases() {
        let pizza = cat("PZ", "披萨", 1);
        let gift = cat("GF", "赠品", 2);
        let gift_padded = cat("GF2", " 赠品 ", 3);
        let blank = cat("BL", "  ", 4);
        let here = EffectiveRule {
            effective_stores: vec!["S001".into()],
            ..Default::default()
        };
        let cases: [(Product, Option<&Category>, bool); 9] = [
            (prod("P1", "PZ", 1), Some(&pizza), true),
            (hidden(prod("P1", "PZ", 1)), Some(&pizza), false),
            (prod("P1", "GF", 1), Some(&gift), false),
            (prod("P1", "GF2", 1), Some(&gift_padded), false),
            (prod("P1", "BL", 1), Some(&blank), false),
            (prod("P1", "", 1), None, false),
            (
                with_rule(prod("P1", "PZ", 1), expired()),
                Some(&pizza),
                false,
            ),
            (
                with_rule(prod("P1", "PZ", 1), elsewhere()),
                Some(&pizza),
                false,
            ),
            (with_rule(prod("P1", "PZ", 1), here), Some(&pizza), true),
        ];
        for (p, c, want) in cases {
            assert_eq!(
                is_listed(&p, c, &ctx()),
                want,
                "{} in {c:?}",
                p.product_code
            );
        }
    }

    fn menu_codes(cats: &[Category], prods: &[Product]) -> Vec<(String, Vec<String>)> {
        build_menu(cats, prods, &ctx())
            .into_iter()
            .map(|(c, ps)| {
                let codes = ps.iter().map(|p| p.product_code.clone()).collect();
                (c.category_code.clone(), codes)
            })
            .collect()
    }

    fn owned(menu: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        menu.iter()
            .map(|(c, ps)| (c.to_string(), ps.iter().map(|p| p.to_string()).collect()))
            .collect()
    }

    #[test]
    fn build_menu_cases() {
        let cats = vec![
            cat("SIDE", "小食", 2),
            cat("PZ", "披萨", 1),
            cat("DRINK", "饮品", 2), // same sort as SIDE: DRINK first by code
            cat("GIFT", "赠品", 0),
            cat("EMPTY", "空", 3),
            cat("NONAME", "", 4),
        ];
        let prods = vec![
            prod("P3", "PZ", 2),
            prod("P1", "PZ", 1),
            prod("P2", "PZ", 1), // same sort as P1: by code
            hidden(prod("P4", "PZ", 0)),
            prod("S1", "SIDE", 1),
            with_rule(prod("S2", "SIDE", 0), expired()),
            prod("D1", "DRINK", 1),
            prod("G1", "GIFT", 1),
            with_rule(prod("E1", "EMPTY", 1), elsewhere()),
            prod("N1", "NONAME", 1),
            prod("X1", "NOWHERE", 1), // category not in the list
        ];
        type Case<'a> = (Vec<Category>, Vec<Product>, Vec<(&'a str, &'a [&'a str])>);
        let cases: [Case; 4] = [
            (
                cats.clone(),
                prods.clone(),
                vec![
                    ("PZ", &["P1", "P2", "P3"]),
                    ("DRINK", &["D1"]),
                    ("SIDE", &["S1"]),
                ],
            ),
            (vec![], prods.clone(), vec![]),
            (cats.clone(), vec![], vec![]),
            // A duplicated category code shows once.
            (
                vec![cat("PZ", "披萨", 5), cat("PZ", "披萨", 1)],
                vec![prod("P1", "PZ", 1)],
                vec![("PZ", &["P1"])],
            ),
        ];
        for (cats, prods, want) in cases {
            assert_eq!(menu_codes(&cats, &prods), owned(&want));
        }
    }

    #[test]
    fn build_menu_keeps_the_lower_sort_of_a_duplicate() {
        let cats = vec![cat("PZ", "披萨", 5), cat("PZ", "披萨", 1)];
        let prods = vec![prod("P1", "PZ", 1)];
        let menu = build_menu(&cats, &prods, &ctx());
        assert_eq!(menu[0].0.sort, 1);
    }

    #[test]
    fn search_products_cases() {
        let cats = vec![
            cat("PZ", "披萨", 1),
            cat("SIDE", "小食", 2),
            cat("GIFT", "赠品", 3),
        ];
        let mut durian = prod("P1", "PZ", 2);
        durian.name = bi("榴莲披萨", "Durian Pizza");
        durian.description = bi("金枕头榴莲", "Monthong durian, thin crust");
        let mut pepperoni = prod("P2", "PZ", 1);
        pepperoni.name = bi("意式香肠披萨", "Pepperoni Pizza");
        pepperoni.keywords = vec!["spicy".into(), "辣".into()];
        let mut wings = prod("S1", "SIDE", 1);
        wings.name = bi("新奥尔良烤翅", "New Orleans Wings");
        wings.description = bi("微辣", "Mildly SPICY");
        let mut secret = hidden(prod("P3", "PZ", 3));
        secret.name = bi("隐藏披萨", "Secret Pizza");
        let mut gift = prod("G1", "GIFT", 1);
        gift.name = bi("赠品可乐", "Gift Cola");
        let mut old = with_rule(prod("P4", "PZ", 4), expired());
        old.name = bi("旧款披萨", "Old Pizza");
        let prods = vec![durian, pepperoni, wings, secret, gift, old];
        let cases: [(&str, &[&str]); 14] = [
            ("pizza", &["P2", "P1"]), // menu order: P2 sorts first
            ("PIZZA", &["P2", "P1"]),
            ("  Durian ", &["P1"]),
            ("榴莲", &["P1"]),
            ("thin crust", &["P1"]),  // English description
            ("金枕头", &["P1"]),      // Chinese description
            ("spicy", &["P2", "S1"]), // keyword and description
            ("辣", &["P2", "S1"]),
            ("secret", &[]), // hidden
            ("cola", &[]),   // gift
            ("old", &[]),    // expired rule
            ("", &[]),
            ("   ", &[]),
            ("sushi", &[]),
        ];
        for (kw, want) in cases {
            let got: Vec<&str> = search_products(&prods, &cats, &ctx(), kw)
                .iter()
                .map(|p| p.product_code.as_str())
                .collect();
            assert_eq!(got, want, "{kw:?}");
        }
    }
}
