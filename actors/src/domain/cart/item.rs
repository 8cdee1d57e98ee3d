//! One cart item: what the customer chose for a product (the product builder's selection), read
//! strictly against the product, and its unit price in fen. The same rules as the app's
//! `features/product/pricing.ts`, so the price shown while building is the price charged:
//!
//!  - pizza: size price + crust extra + a non-default sauce's price + Σ extra × quantity
//!  - multi-flavour (type 1 with flavours) and two-flavour (type 9): the dearest chosen
//!    flavour's price at the size replaces the size price; crust, sauce and extras as above
//!  - combo (type 2): sellingPrice + Σ the chosen choices' surcharges, exactly chooseNum a round
//!  - single (0) and juice (7): sellingPrice, or the chosen size's price when it has sizes

use crate::domain::catalogue::{product_type, ComboChoice, Product};
use crate::domain::lang::Lang;
use crate::domain::money::Fen;
use crate::domain::stores::store_board::{flavor_key, ingredient_key};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The builder's selection, as the app sends it and the cart stores it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    #[serde(default)]
    pub size_code: Option<String>,
    #[serde(default)]
    pub pastry_code: Option<String>,
    /// One slot per flavour to choose (type 9: the halves); the app sends null for an empty slot.
    #[serde(default)]
    pub flavor_codes: Vec<Option<String>>,
    #[serde(default)]
    pub sauce_code: Option<String>,
    /// Base toppings taken off.
    #[serde(default)]
    pub removed_base: Vec<String>,
    /// Extra topping code → quantity.
    #[serde(default)]
    pub extras: BTreeMap<String, u32>,
    /// Round code → chosen choices as "productCode|sizeCode".
    #[serde(default)]
    pub combo: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("unknown size {0}")]
    UnknownSize(String),
    #[error("crust {0} not offered")]
    UnknownPastry(String),
    #[error("{0} flavours missing")]
    MissingFlavours(usize),
    #[error("unknown flavour {0}")]
    UnknownFlavour(String),
    #[error("unknown sauce {0}")]
    UnknownSauce(String),
    #[error("unknown topping {0}")]
    UnknownTopping(String),
    #[error("too many of topping {0}")]
    TooManyOfTopping(String),
    #[error("round {0} needs its choices")]
    IncompleteRound(String),
    #[error("unknown combo choice {0}")]
    UnknownChoice(String),
}

impl SelectionError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (SelectionError::MissingFlavours(n), Lang::Zh) => format!("还需选择{n}种口味"),
            (SelectionError::MissingFlavours(n), Lang::En) => {
                format!("Choose {n} more flavour(s)")
            }
            (SelectionError::IncompleteRound(_), Lang::Zh) => "请完成套餐的选择".into(),
            (SelectionError::IncompleteRound(_), Lang::En) => {
                "Please finish choosing the combo".into()
            }
            (SelectionError::TooManyOfTopping(_), Lang::Zh) => "加料数量超出上限".into(),
            (SelectionError::TooManyOfTopping(_), Lang::En) => {
                "Too many of one extra topping".into()
            }
            (_, Lang::Zh) => "商品规格有误，请重新选择".into(),
            (_, Lang::En) => "That option is not available; please choose again".into(),
        }
    }
}

pub fn is_multi_flavour(p: &Product) -> bool {
    p.product_type == product_type::TWO_FLAVOUR
        || (p.product_type == product_type::PIZZA && !p.flavors.is_empty())
}

/// How many flavours to choose (0 when the product has no flavour choice).
pub fn flavour_slots(p: &Product) -> usize {
    if !is_multi_flavour(p) || p.flavors.is_empty() {
        return 0;
    }
    if p.product_type == product_type::TWO_FLAVOUR {
        return if p.flavor_count > 0 {
            p.flavor_count as usize
        } else {
            2
        };
    }
    p.flavor_count.max(1) as usize
}

pub fn choice_key(c: &ComboChoice) -> String {
    format!(
        "{}|{}",
        c.product_code,
        c.size_code.as_deref().unwrap_or("")
    )
}

/// A selection checked against its product, with defaults filled in and lists in a canonical
/// order, so two equal configurations compare equal (the cart merges them into one line).
pub fn normalize(p: &Product, sel: &Selection) -> Result<Selection, SelectionError> {
    let size_code = match &sel.size_code {
        Some(code) if !p.sizes.is_empty() => {
            if !p.sizes.iter().any(|s| &s.size_code == code) {
                return Err(SelectionError::UnknownSize(code.clone()));
            }
            Some(code.clone())
        }
        _ => p
            .sizes
            .iter()
            .find(|s| s.is_default)
            .or(p.sizes.first())
            .map(|s| s.size_code.clone()),
    };
    let crusts: Vec<&str> = p
        .pastries
        .iter()
        .filter(|c| {
            c.size_codes.is_empty() || size_code.as_ref().is_some_and(|s| c.size_codes.contains(s))
        })
        .map(|c| c.pastry_code.as_str())
        .collect();
    let pastry_code = match &sel.pastry_code {
        Some(code) if !p.pastries.is_empty() => {
            if !crusts.contains(&code.as_str()) {
                return Err(SelectionError::UnknownPastry(code.clone()));
            }
            Some(code.clone())
        }
        _ => p
            .pastries
            .iter()
            .filter(|c| crusts.contains(&c.pastry_code.as_str()))
            .find(|c| c.is_default)
            .map(|c| c.pastry_code.as_str())
            .or(crusts.first().copied())
            .map(String::from),
    };
    let slots = flavour_slots(p);
    let chosen: Vec<String> = sel.flavor_codes.iter().flatten().cloned().collect();
    for code in &chosen {
        if !p.flavors.iter().any(|f| &f.flavor_code == code) {
            return Err(SelectionError::UnknownFlavour(code.clone()));
        }
    }
    if chosen.len() < slots {
        return Err(SelectionError::MissingFlavours(slots - chosen.len()));
    }
    let flavor_codes: Vec<Option<String>> = chosen.into_iter().take(slots).map(Some).collect();
    let sauce_code = match &sel.sauce_code {
        Some(code) if !p.sauces.is_empty() => {
            if !p.sauces.iter().any(|s| &s.code == code) {
                return Err(SelectionError::UnknownSauce(code.clone()));
            }
            Some(code.clone())
        }
        _ => p
            .sauces
            .iter()
            .find(|s| s.is_default)
            .map(|s| s.code.clone()),
    };
    let mut removed_base = Vec::new();
    for code in &sel.removed_base {
        if !p.base_ingredients.iter().any(|b| &b.code == code) {
            return Err(SelectionError::UnknownTopping(code.clone()));
        }
        if !removed_base.contains(code) {
            removed_base.push(code.clone());
        }
    }
    removed_base.sort();
    let mut extras = BTreeMap::new();
    for (code, &qty) in &sel.extras {
        let Some(extra) = p.extra_ingredients.iter().find(|x| &x.code == code) else {
            return Err(SelectionError::UnknownTopping(code.clone()));
        };
        if qty > extra.max_quantity.max(1) {
            return Err(SelectionError::TooManyOfTopping(code.clone()));
        }
        if qty > 0 {
            extras.insert(code.clone(), qty);
        }
    }
    let mut combo = BTreeMap::new();
    if p.product_type == product_type::COMBO {
        for round in &p.combo_rounds {
            let picks = sel
                .combo
                .get(&round.round_code)
                .cloned()
                .unwrap_or_default();
            if picks.len() != round.choose_num as usize {
                return Err(SelectionError::IncompleteRound(round.round_code.clone()));
            }
            for key in &picks {
                if !round.choices.iter().any(|c| &choice_key(c) == key) {
                    return Err(SelectionError::UnknownChoice(key.clone()));
                }
            }
            let mut picks = picks;
            picks.sort();
            combo.insert(round.round_code.clone(), picks);
        }
        if let Some(extra) = sel
            .combo
            .keys()
            .find(|k| !p.combo_rounds.iter().any(|r| &r.round_code == *k))
        {
            return Err(SelectionError::IncompleteRound(extra.clone()));
        }
    }
    Ok(Selection {
        size_code,
        pastry_code,
        flavor_codes,
        sauce_code,
        removed_base,
        extras,
        combo,
    })
}

/// The price of one item of a normalized selection.
pub fn unit_price(p: &Product, sel: &Selection) -> Fen {
    if p.product_type == product_type::COMBO {
        let mut sum = p.selling_price;
        for round in &p.combo_rounds {
            for key in sel.combo.get(&round.round_code).into_iter().flatten() {
                if let Some(choice) = round.choices.iter().find(|c| &choice_key(c) == key) {
                    sum += choice.add_price;
                }
            }
        }
        return sum;
    }
    let size = sel
        .size_code
        .as_ref()
        .and_then(|code| p.sizes.iter().find(|s| &s.size_code == code));
    let mut base = size.map_or(p.selling_price, |s| s.price);
    if is_multi_flavour(p) {
        let dearest = sel
            .flavor_codes
            .iter()
            .flatten()
            .filter_map(|code| p.flavors.iter().find(|f| &f.flavor_code == code))
            .map(|f| {
                f.prices
                    .iter()
                    .find(|x| Some(&x.size_code) == sel.size_code.as_ref())
                    .map(|x| x.price)
                    .or(if sel.size_code.is_none() {
                        f.prices.first().map(|x| x.price)
                    } else {
                        None
                    })
                    .unwrap_or(base)
            })
            .max();
        if let Some(price) = dearest {
            base = price;
        }
    }
    let crust = sel
        .pastry_code
        .as_ref()
        .and_then(|code| p.pastries.iter().find(|c| &c.pastry_code == code))
        .map_or(Fen::ZERO, |c| c.extra_price);
    let sauce = sel
        .sauce_code
        .as_ref()
        .and_then(|code| p.sauces.iter().find(|s| &s.code == code))
        .filter(|s| !s.is_default)
        .map_or(Fen::ZERO, |s| s.price);
    let extras: Fen = p
        .extra_ingredients
        .iter()
        .map(|x| x.price * i64::from(*sel.extras.get(&x.code).unwrap_or(&0)))
        .sum();
    base + crust + sauce + extras
}

/// The product codes a selection puts on the plate: the product, and a combo's chosen items
/// (a sold-out wing makes the combo that holds it unavailable too).
pub fn component_codes(p: &Product, sel: &Selection) -> Vec<String> {
    let mut codes = vec![p.product_code.clone()];
    let mut push = |code: String| {
        if !codes.contains(&code) {
            codes.push(code);
        }
    };
    for key in sel.combo.values().flatten() {
        if let Some((code, _)) = key.split_once('|') {
            push(code.to_string());
        }
    }
    // What the line is made with, under their sold-out keys (issue 22): an 86ed topping or
    // flavour makes every line using it sold out, whatever the product.
    for code in sel.flavor_codes.iter().flatten() {
        push(flavor_key(code));
    }
    if let Some(code) = &sel.sauce_code {
        push(ingredient_key(code));
    }
    for base in &p.base_ingredients {
        if !sel.removed_base.contains(&base.code) {
            push(ingredient_key(&base.code));
        }
    }
    for (code, &qty) in &sel.extras {
        if qty > 0 {
            push(ingredient_key(code));
        }
    }
    codes
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::catalogue::seed::demo_catalogue;

    fn product(code: &str) -> Product {
        demo_catalogue()
            .unwrap()
            .products
            .into_iter()
            .find(|p| p.product_code == code)
            .unwrap()
    }

    fn sel(json: serde_json::Value) -> Selection {
        serde_json::from_value(json).unwrap()
    }

    /// Prices of the demo menu's items as configured, in fen: one case per product type and
    /// option kind. The same figures appear in the app's pricing tests.
    #[test]
    fn unit_prices_table() {
        let pz011 = product("PZ011");
        let four: Vec<String> = pz011
            .flavors
            .iter()
            .take(4)
            .map(|f| f.flavor_code.clone())
            .collect();
        let dearest_four = pz011
            .flavors
            .iter()
            .take(4)
            .map(|f| f.prices.iter().find(|x| x.size_code == "12").unwrap().price)
            .max()
            .unwrap();
        let hf = product("HF001");
        let halves: Vec<String> = hf
            .flavors
            .iter()
            .take(2)
            .map(|f| f.flavor_code.clone())
            .collect();
        let dearest_half = hf
            .flavors
            .iter()
            .take(2)
            .map(|f| f.prices.iter().find(|x| x.size_code == "14").unwrap().price)
            .max()
            .unwrap();
        let pz001 = product("PZ001");
        let extra = &pz001.extra_ingredients[0];
        let crust = pz001
            .pastries
            .iter()
            .find(|c| c.extra_price > Fen::ZERO)
            .unwrap();
        let sauce = pz001
            .sauces
            .iter()
            .find(|s| !s.is_default && s.price > Fen::ZERO);
        let cb = product("CB001");
        let combo_defaults: BTreeMap<String, Vec<String>> = cb
            .combo_rounds
            .iter()
            .map(|r| {
                let picks: Vec<String> = r
                    .choices
                    .iter()
                    .filter(|c| c.is_default)
                    .take(r.choose_num as usize)
                    .map(choice_key)
                    .collect();
                (r.round_code.clone(), picks)
            })
            .collect();
        let surcharged = cb.combo_rounds.iter().find_map(|r| {
            r.choices
                .iter()
                .find(|c| c.add_price > Fen::ZERO)
                .map(|c| (r, c))
        });

        let mut cases: Vec<(&str, Product, Selection, i64)> = vec![
            ("single", product("SD001"), sel(serde_json::json!({})), 3200),
            (
                "drink without sizes",
                product("DR001"),
                Selection::default(),
                800,
            ),
            (
                "juice default size",
                product("JU001"),
                Selection::default(),
                1500,
            ),
            (
                "juice large",
                product("JU001"),
                sel(serde_json::json!({"sizeCode": "L"})),
                1900,
            ),
            (
                "type 7 drink large",
                product("DR003"),
                sel(serde_json::json!({"sizeCode": "L"})),
                1500,
            ),
            (
                "pizza default size",
                pz001.clone(),
                Selection::default(),
                6900,
            ),
            (
                "pizza 14",
                pz001.clone(),
                sel(serde_json::json!({"sizeCode": "14"})),
                10900,
            ),
            (
                "pizza with two of an extra",
                pz001.clone(),
                sel(serde_json::json!({"sizeCode": "12", "extras": {extra.code.clone(): 2}})),
                8900 + extra.price.0 * 2,
            ),
            (
                "pizza with a dearer crust",
                pz001.clone(),
                sel(serde_json::json!({"sizeCode": "12", "pastryCode": crust.pastry_code})),
                8900 + crust.extra_price.0,
            ),
            (
                "removing a base topping costs nothing",
                pz001.clone(),
                sel(serde_json::json!({"removedBase": [pz001.base_ingredients[0].code]})),
                6900,
            ),
            (
                "four-flavour priced by the dearest",
                pz011.clone(),
                sel(serde_json::json!({"sizeCode": "12", "flavorCodes": four})),
                dearest_four.0,
            ),
            (
                "half and half priced by the dearer half",
                hf.clone(),
                sel(serde_json::json!({"sizeCode": "14", "flavorCodes": halves})),
                dearest_half.0,
            ),
            (
                "combo with default choices",
                cb.clone(),
                sel(serde_json::json!({"combo": combo_defaults})),
                13900,
            ),
        ];
        if let Some(sauce) = sauce {
            cases.push((
                "pizza with a paid sauce",
                pz001.clone(),
                sel(serde_json::json!({"sauceCode": sauce.code})),
                6900 + sauce.price.0,
            ));
        }
        if let Some((round, choice)) = surcharged {
            let mut picks = combo_defaults.clone();
            let mut chosen = vec![choice_key(choice)];
            chosen.extend(
                round
                    .choices
                    .iter()
                    .filter(|c| choice_key(c) != choice_key(choice))
                    .take(round.choose_num as usize - 1)
                    .map(choice_key),
            );
            let surcharge: i64 = chosen
                .iter()
                .filter_map(|k| round.choices.iter().find(|c| &choice_key(c) == k))
                .map(|c| c.add_price.0)
                .sum();
            picks.insert(round.round_code.clone(), chosen);
            cases.push((
                "combo with a surcharged choice",
                cb.clone(),
                sel(serde_json::json!({"combo": picks})),
                13900 + surcharge,
            ));
        }
        for (name, p, s, want) in cases {
            let normalized = normalize(&p, &s).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(unit_price(&p, &normalized), Fen(want), "{name}");
        }
    }

    #[test]
    fn incomplete_or_unknown_choices_are_refused() {
        let pz001 = product("PZ001");
        let hf = product("HF001");
        let cb = product("CB001");
        let cases: Vec<(&str, &Product, serde_json::Value, SelectionError)> = vec![
            (
                "size",
                &pz001,
                serde_json::json!({"sizeCode": "99"}),
                SelectionError::UnknownSize("99".into()),
            ),
            (
                "crust",
                &pz001,
                serde_json::json!({"pastryCode": "NOPE"}),
                SelectionError::UnknownPastry("NOPE".into()),
            ),
            (
                "one half missing",
                &hf,
                serde_json::json!({"flavorCodes": [hf.flavors[0].flavor_code, null]}),
                SelectionError::MissingFlavours(1),
            ),
            (
                "unknown flavour",
                &hf,
                serde_json::json!({"flavorCodes": ["X", "Y"]}),
                SelectionError::UnknownFlavour("X".into()),
            ),
            (
                "unknown extra",
                &pz001,
                serde_json::json!({"extras": {"NOPE": 1}}),
                SelectionError::UnknownTopping("NOPE".into()),
            ),
            (
                "too many extras",
                &pz001,
                serde_json::json!({"extras": {pz001.extra_ingredients[0].code.clone(): 99}}),
                SelectionError::TooManyOfTopping(pz001.extra_ingredients[0].code.clone()),
            ),
            (
                "combo round missing",
                &cb,
                serde_json::json!({}),
                SelectionError::IncompleteRound(cb.combo_rounds[0].round_code.clone()),
            ),
        ];
        for (name, p, json, want) in cases {
            assert_eq!(normalize(p, &sel(json)).unwrap_err(), want, "{name}");
        }
    }

    #[test]
    fn normalizing_makes_equal_configurations_equal() {
        let pz001 = product("PZ001");
        let a = normalize(
            &pz001,
            &sel(serde_json::json!({"extras": {pz001.extra_ingredients[0].code.clone(): 0}})),
        )
        .unwrap();
        let b = normalize(&pz001, &Selection::default()).unwrap();
        assert_eq!(a, b, "a zero extra is no extra; defaults are filled in");
        assert_eq!(b.size_code.as_deref(), Some("9"));
        let cb = product("CB001");
        let mut picks = BTreeMap::new();
        for r in &cb.combo_rounds {
            let mut keys: Vec<String> = r
                .choices
                .iter()
                .take(r.choose_num as usize)
                .map(choice_key)
                .collect();
            keys.reverse();
            picks.insert(r.round_code.clone(), keys);
        }
        let reversed = normalize(
            &cb,
            &Selection {
                combo: picks.clone(),
                ..Selection::default()
            },
        )
        .unwrap();
        for keys in picks.values_mut() {
            keys.sort();
        }
        let sorted = normalize(
            &cb,
            &Selection {
                combo: picks,
                ..Selection::default()
            },
        )
        .unwrap();
        assert_eq!(reversed, sorted);
        assert!(component_codes(&cb, &sorted).len() > 1);
    }

    /// What a line is made with, under the sold-out keys (issue 22): the product, its flavours,
    /// its sauce, the base toppings it keeps and the extras it adds; not what was taken off.
    #[test]
    fn component_codes_name_what_the_line_is_made_with() {
        let pz001 = product("PZ001");
        let plain = normalize(&pz001, &Selection::default()).unwrap();
        let codes = component_codes(&pz001, &plain);
        assert_eq!(codes[0], "PZ001");
        assert!(
            codes.contains(&"ingredient:SAU-TOMATO".to_string()),
            "{codes:?}"
        );
        assert!(codes.contains(&"ingredient:B-MUSHROOM".to_string()));
        assert!(
            !codes.iter().any(|c| c.starts_with("ingredient:X-")),
            "no extras: {codes:?}"
        );
        let chosen = normalize(
            &pz001,
            &sel(serde_json::json!({"sauceCode": "SAU-BBQ", "removedBase": ["B-MUSHROOM"], "extras": {"X-MUSHROOM": 1}})),
        )
        .unwrap();
        let codes = component_codes(&pz001, &chosen);
        assert!(codes.contains(&"ingredient:SAU-BBQ".to_string()));
        assert!(!codes.contains(&"ingredient:SAU-TOMATO".to_string()));
        assert!(
            !codes.contains(&"ingredient:B-MUSHROOM".to_string()),
            "taken off"
        );
        assert!(codes.contains(&"ingredient:X-MUSHROOM".to_string()));
        let hf001 = product("HF001");
        let halves = normalize(
            &hf001,
            &sel(serde_json::json!({"sizeCode": "12", "flavorCodes": ["F-PEPPERONI", "F-VEGGIE"]})),
        )
        .unwrap();
        let codes = component_codes(&hf001, &halves);
        assert!(codes.contains(&"flavor:F-PEPPERONI".to_string()));
        assert!(codes.contains(&"flavor:F-VEGGIE".to_string()));
        assert!(!codes.contains(&"flavor:F-HAWAIIAN".to_string()));
    }
}
