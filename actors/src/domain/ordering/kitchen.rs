//! What the kitchen makes of one order line, in the store's language whatever language the
//! customer ordered in: the product, its size and crust, the flavours of a multi-flavour pizza
//! in the order they were chosen (the tablet draws two as halves, four as quarters), the sauce
//! when it is not the usual one, extras with their counts, base toppings taken off, and a
//! combo's items with the size and crust each pizza comes in.
//!
//! Built at submit from the codes of the selection and frozen in the line's doc (`kitchen`), so
//! a later menu change does not rewrite what was ordered. Lines stored before that carry only
//! the texts of the submit language: [`from_line_doc`] reads those as they are.

use crate::domain::cart::item::{choice_key, Selection};
use crate::domain::catalogue::{product_type, Product};
use crate::domain::lang::Lang;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = KitchenExtra))]
pub struct Extra {
    pub name: String,
    pub quantity: u32,
}

/// One item of a combo; a pizza has its size and crust.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = KitchenComboPart))]
pub struct ComboPart {
    pub name: String,
    pub quantity: u32,
    #[serde(default)]
    pub size: Option<String>,
    #[serde(default)]
    pub crust: Option<String>,
}

/// An order line as the kitchen reads it (`TabletOrder.lines`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KitchenLine {
    pub name: String,
    pub quantity: u32,
    #[serde(default)]
    pub product_type: u8,
    #[serde(default)]
    pub size: Option<String>,
    #[serde(default)]
    pub crust: Option<String>,
    /// Only a sauce other than the product's usual one.
    #[serde(default)]
    pub sauce: Option<String>,
    /// The flavours of a multi-flavour or two-flavour pizza, in the order chosen.
    #[serde(default)]
    pub flavours: Vec<String>,
    #[serde(default)]
    pub extras: Vec<Extra>,
    /// Base toppings taken off.
    #[serde(default)]
    pub removed: Vec<String>,
    #[serde(default)]
    pub combo: Vec<ComboPart>,
    /// All of the above but the flavours as short texts (size, crust, 酱, 加, 去, combo items),
    /// for readers that print one line.
    #[serde(default)]
    pub options: Vec<String>,
}

/// The line of `product` built as `sel` says, `quantity` of it, named in `lang`; `lookup`
/// finds a combo's items.
pub fn kitchen_line<'a>(
    p: &Product,
    sel: &Selection,
    quantity: u32,
    lookup: &dyn Fn(&str) -> Option<&'a Product>,
    lang: Lang,
) -> KitchenLine {
    let size = sel
        .size_code
        .as_ref()
        .and_then(|c| p.sizes.iter().find(|s| &s.size_code == c))
        .map(|s| lang.pick(&s.name).to_string());
    let crust = sel
        .pastry_code
        .as_ref()
        .and_then(|c| p.pastries.iter().find(|s| &s.pastry_code == c))
        .map(|c| lang.pick(&c.name).to_string());
    let sauce = sel
        .sauce_code
        .as_ref()
        .and_then(|c| p.sauces.iter().find(|s| &s.code == c))
        .filter(|s| !s.is_default)
        .map(|s| lang.pick(&s.name).to_string());
    let flavours = sel
        .flavor_codes
        .iter()
        .flatten()
        .filter_map(|c| p.flavors.iter().find(|f| &f.flavor_code == c))
        .map(|f| lang.pick(&f.name).to_string())
        .collect();
    let extras = p
        .extra_ingredients
        .iter()
        .filter_map(|x| {
            let quantity = *sel.extras.get(&x.code)?;
            (quantity > 0).then(|| Extra {
                name: lang.pick(&x.name).to_string(),
                quantity,
            })
        })
        .collect();
    let removed = p
        .base_ingredients
        .iter()
        .filter(|b| sel.removed_base.contains(&b.code))
        .map(|b| lang.pick(&b.name).to_string())
        .collect();
    let mut combo: Vec<ComboPart> = Vec::new();
    if p.product_type == product_type::COMBO {
        for round in &p.combo_rounds {
            for key in sel.combo.get(&round.round_code).into_iter().flatten() {
                let Some(choice) = round.choices.iter().find(|c| &choice_key(c) == key) else {
                    continue;
                };
                let part = combo_part(
                    &choice.product_code,
                    choice.size_code.as_deref(),
                    lookup,
                    lang,
                );
                // Two of the same side read "×2", not twice.
                match combo
                    .iter_mut()
                    .find(|c| c.name == part.name && c.size == part.size)
                {
                    Some(same) => same.quantity += 1,
                    None => combo.push(part),
                }
            }
        }
    }
    let mut line = KitchenLine {
        name: lang.pick(&p.name).to_string(),
        quantity,
        product_type: p.product_type,
        size,
        crust,
        sauce,
        flavours,
        extras,
        removed,
        combo,
        options: Vec::new(),
    };
    line.options = summary(&line, lang);
    line
}

/// A combo's item: its name, and for a pizza the size it comes in and that size's usual crust
/// (a combo does not let the customer change it, but the kitchen must know which to stretch).
fn combo_part<'a>(
    code: &str,
    size_code: Option<&str>,
    lookup: &dyn Fn(&str) -> Option<&'a Product>,
    lang: Lang,
) -> ComboPart {
    let Some(p) = lookup(code) else {
        return ComboPart {
            name: code.to_string(),
            quantity: 1,
            size: None,
            crust: None,
        };
    };
    let size = size_code.and_then(|c| p.sizes.iter().find(|s| s.size_code == c));
    let is_pizza = matches!(
        p.product_type,
        product_type::PIZZA | product_type::TWO_FLAVOUR
    );
    let crust = is_pizza
        .then(|| {
            let fits = |c: &&crate::domain::catalogue::PastryOption| {
                c.size_codes.is_empty() || size.is_some_and(|s| c.size_codes.contains(&s.size_code))
            };
            p.pastries
                .iter()
                .filter(fits)
                .find(|c| c.is_default)
                .or_else(|| p.pastries.iter().find(fits))
        })
        .flatten();
    ComboPart {
        name: lang.pick(&p.name).to_string(),
        quantity: 1,
        size: size.map(|s| lang.pick(&s.name).to_string()),
        crust: crust.map(|c| lang.pick(&c.name).to_string()),
    }
}

/// The line's options as short texts, in the order a cook works: size, crust, sauce, extras,
/// removed toppings, then a combo's items.
pub fn summary(line: &KitchenLine, lang: Lang) -> Vec<String> {
    let (sauce, add, without, sep) = match lang {
        Lang::Zh => ("酱：", "加", "去", "·"),
        Lang::En => ("Sauce: ", "+", "no ", " · "),
    };
    let mut out: Vec<String> = line.size.iter().chain(line.crust.iter()).cloned().collect();
    out.extend(line.sauce.iter().map(|s| format!("{sauce}{s}")));
    out.extend(line.extras.iter().map(|x| match x.quantity {
        1 => format!("{add}{}", x.name),
        n => format!("{add}{}×{n}", x.name),
    }));
    out.extend(line.removed.iter().map(|r| format!("{without}{r}")));
    out.extend(line.combo.iter().map(|c| {
        let spec: Vec<&str> = c
            .size
            .iter()
            .chain(c.crust.iter())
            .map(String::as_str)
            .collect();
        let mut text = c.name.clone();
        if !spec.is_empty() {
            text = match lang {
                Lang::Zh => format!("{text}（{}）", spec.join(sep)),
                Lang::En => format!("{text} ({})", spec.join(sep)),
            };
        }
        if c.quantity > 1 {
            text = format!("{text}×{}", c.quantity);
        }
        text
    }));
    out
}

fn text(doc: &Value, key: &str) -> Option<String> {
    doc.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

/// The kitchen's line from an order line's frozen doc: the `kitchen` part written at submit, or,
/// for lines stored before it, what the cart's texts say (in the language they were ordered in).
pub fn from_line_doc(doc: &Value) -> KitchenLine {
    if let Some(line) = doc
        .get("kitchen")
        .and_then(|k| serde_json::from_value::<KitchenLine>(k.clone()).ok())
    {
        return line;
    }
    let mut line = KitchenLine {
        name: text(doc, "prodName").unwrap_or_default(),
        quantity: doc.get("quantity").and_then(Value::as_u64).unwrap_or(1) as u32,
        product_type: doc.get("productType").and_then(Value::as_u64).unwrap_or(0) as u8,
        size: text(doc, "pizzaSizeName"),
        crust: text(doc, "pizzaPastryName"),
        sauce: None,
        flavours: Vec::new(),
        extras: Vec::new(),
        removed: Vec::new(),
        combo: Vec::new(),
        options: Vec::new(),
    };
    for group in doc
        .get("properties")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let kind = group.get("group").and_then(Value::as_str).unwrap_or("");
        for v in group
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = text(v, "name").unwrap_or_default();
            let quantity = v.get("quantity").and_then(Value::as_u64).unwrap_or(1) as u32;
            let is_default = v.get("isDefault").and_then(Value::as_bool) == Some(true);
            match kind {
                "Pizza" => line.flavours.push(name),
                "Base" if quantity == 0 => line.removed.push(name),
                "Base" => {}
                "Extra" if quantity > 0 => line.extras.push(Extra { name, quantity }),
                "Extra" => {}
                "Sauce" if is_default => {}
                "Sauce" => line.sauce = Some(name),
                _ => line.combo.push(ComboPart {
                    name,
                    quantity,
                    size: None,
                    crust: None,
                }),
            }
        }
    }
    line.options = summary(&line, Lang::Zh);
    line
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::cart::item::normalize;
    use crate::domain::catalogue::seed::demo_catalogue;
    use crate::domain::catalogue::Catalogue;

    fn build(cat: &Catalogue, code: &str, sel: serde_json::Value, lang: Lang) -> KitchenLine {
        let p = cat
            .products
            .iter()
            .find(|p| p.product_code == code)
            .unwrap();
        let sel = normalize(p, &serde_json::from_value(sel).unwrap()).unwrap();
        let lookup = |c: &str| cat.products.iter().find(|p| p.product_code == c);
        kitchen_line(p, &sel, 2, &lookup, lang)
    }

    /// One case per kind of line the kitchen makes, built from the demo menu's codes.
    #[test]
    fn lines_read_in_the_language_asked() {
        let cat = demo_catalogue().unwrap();
        let pz001 = cat
            .products
            .iter()
            .find(|p| p.product_code == "PZ001")
            .unwrap();
        let extra = pz001.extra_ingredients[0].clone();
        let base = pz001.base_ingredients[0].clone();
        let sauce = pz001.sauces.iter().find(|s| !s.is_default).unwrap().clone();
        let cases: Vec<(&str, &str, serde_json::Value, Lang, KitchenLine)> = vec![
            (
                "two flavours as ordered in en, read in zh",
                "HF001",
                serde_json::json!({"sizeCode": "14", "pastryCode": "CHEESE",
                    "flavorCodes": ["F-SPICY", "F-MARGHERITA"]}),
                Lang::Zh,
                KitchenLine {
                    name: "经典双拼比萨".into(),
                    quantity: 2,
                    product_type: 9,
                    size: Some("14英寸".into()),
                    crust: Some("芝心".into()),
                    sauce: None,
                    flavours: vec!["香辣鸡肉".into(), "玛格丽特".into()],
                    extras: vec![],
                    removed: vec![],
                    combo: vec![],
                    options: vec!["14英寸".into(), "芝心".into()],
                },
            ),
            (
                "a pizza with every kind of option",
                "PZ001",
                serde_json::json!({"sizeCode": "12", "sauceCode": sauce.code,
                    "extras": {extra.code.clone(): 2}, "removedBase": [base.code]}),
                Lang::Zh,
                KitchenLine {
                    name: pz001.name.cn.clone(),
                    quantity: 2,
                    product_type: 1,
                    size: Some("12英寸".into()),
                    crust: Some("经典手拍".into()),
                    sauce: Some(sauce.name.cn.clone()),
                    flavours: vec![],
                    extras: vec![Extra {
                        name: extra.name.cn.clone(),
                        quantity: 2,
                    }],
                    removed: vec![base.name.cn.clone()],
                    combo: vec![],
                    options: vec![
                        "12英寸".into(),
                        "经典手拍".into(),
                        format!("酱：{}", sauce.name.cn),
                        format!("加{}×2", extra.name.cn),
                        format!("去{}", base.name.cn),
                    ],
                },
            ),
        ];
        for (name, code, sel, lang, want) in cases {
            assert_eq!(build(&cat, code, sel, lang), want, "{name}");
        }
    }

    #[test]
    fn four_flavours_keep_their_order_and_combos_name_the_pizza_size_and_crust() {
        let cat = demo_catalogue().unwrap();
        let pz011 = cat
            .products
            .iter()
            .find(|p| p.product_code == "PZ011")
            .unwrap();
        let four: Vec<String> = pz011
            .flavors
            .iter()
            .rev()
            .take(4)
            .map(|f| f.flavor_code.clone())
            .collect();
        let line = build(
            &cat,
            "PZ011",
            serde_json::json!({"sizeCode": "12", "flavorCodes": four}),
            Lang::Zh,
        );
        let want: Vec<String> = pz011
            .flavors
            .iter()
            .rev()
            .take(4)
            .map(|f| f.name.cn.clone())
            .collect();
        assert_eq!(line.flavours, want);

        // Two of one drink read as one item ×2.
        let picks = serde_json::json!({"combo": {"R1": ["PZ002|12"], "R2": ["SD001|", "SD002|"],
            "R3": ["DR001|", "DR001|"]}});
        let cb = cat
            .products
            .iter()
            .find(|p| p.product_code == "CB001")
            .unwrap();
        let sel = normalize(cb, &serde_json::from_value(picks).unwrap()).unwrap();
        let lookup = |c: &str| cat.products.iter().find(|p| p.product_code == c);
        let en = kitchen_line(cb, &sel, 1, &lookup, Lang::En);
        let zh = kitchen_line(cb, &sel, 1, &lookup, Lang::Zh);
        let pz002 = lookup("PZ002").unwrap();
        assert_eq!(zh.name, "超值双人餐");
        assert_eq!(
            zh.combo[0],
            ComboPart {
                name: pz002.name.cn.clone(),
                quantity: 1,
                size: Some("12英寸".into()),
                crust: pz002
                    .pastries
                    .iter()
                    .find(|c| c.is_default)
                    .map(|c| c.name.cn.clone()),
            }
        );
        assert!(
            zh.options[0].starts_with(&format!("{}（12英寸", pz002.name.cn)),
            "{:?}",
            zh.options
        );
        assert_eq!(en.combo[0].size.as_deref(), Some("12-inch"));
        assert_eq!(zh.combo.len(), 4, "{:?}", zh.combo);
        assert_eq!(zh.combo[3].quantity, 2);
        assert!(zh.options[3].ends_with("×2"), "{:?}", zh.options);
    }

    #[test]
    fn old_lines_are_read_from_their_texts_and_new_ones_from_their_kitchen_part() {
        let old = serde_json::json!({
            "prodName": "Classic Half & Half Pizza", "quantity": 1, "productType": 9,
            "pizzaSizeName": "12-inch", "pizzaPastryName": "Classic Hand-tossed",
            "properties": [
                {"group": "Sauce", "values": [{"name": "Tomato", "isDefault": true, "quantity": 1}]},
                {"group": "Base", "values": [{"name": "Onion", "quantity": 0}, {"name": "Ham", "quantity": 1}]},
                {"group": "Extra", "values": [{"name": "Cheese", "quantity": 2}]},
                {"group": "Pizza", "values": [{"name": "Pepperoni"}, {"name": "Hawaiian"}]},
            ]
        });
        let line = from_line_doc(&old);
        assert_eq!(line.flavours, vec!["Pepperoni", "Hawaiian"]);
        assert_eq!(line.removed, vec!["Onion"]);
        assert_eq!(
            line.extras,
            vec![Extra {
                name: "Cheese".into(),
                quantity: 2
            }]
        );
        assert_eq!(line.sauce, None);
        assert_eq!(
            line.options,
            vec!["12-inch", "Classic Hand-tossed", "加Cheese×2", "去Onion"]
        );

        let mut new = old.clone();
        let kitchen = KitchenLine {
            name: "经典双拼比萨".into(),
            ..line.clone()
        };
        new["kitchen"] = serde_json::to_value(&kitchen).unwrap();
        assert_eq!(from_line_doc(&new), kitchen);
    }
}
