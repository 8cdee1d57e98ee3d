//! One cart line as the customer sees it ([`CartItemDto`]): its names, size and crust, its
//! choices grouped as the product builder groups them, its prices and why it is disabled.

use crate::http::cart::dto::{CartContext, CartItemDto, PropertyGroupDto, PropertyValueDto};
use crate::http::cart::words::disable_text;
use crate::http::edge::context::pick;
use actors::catalogue::Snapshot;
use actors::domain::cart::item::{choice_key, Selection};
use actors::domain::catalogue::{Ingredient, Product};
use actors::domain::lang::Lang;
use actors::domain::money::Fen;
use actors::domain::pricing::cart_pricing::{PricedCart, PricedLine};

pub fn item(line: &PricedLine, priced: &PricedCart, ctx: &CartContext) -> CartItemDto {
    let lang = ctx.lang;
    let sel = &line.line.selection;
    let p = line.product;
    let size = p.and_then(|p| {
        sel.size_code
            .as_ref()
            .and_then(|c| p.sizes.iter().find(|s| &s.size_code == c))
    });
    let pastry = p.and_then(|p| {
        sel.pastry_code
            .as_ref()
            .and_then(|c| p.pastries.iter().find(|s| &s.pastry_code == c))
    });
    let disable = disable_text(line.status, lang);
    let promotion_desc = line.rule_ids.first().and_then(|id| {
        priced
            .rules
            .iter()
            .find(|r| &r.rule.rule_id == id)
            .map(|r| pick(&r.rule.name, lang))
    });
    CartItemDto {
        id: line.line.id.clone(),
        shopping_car_id: line.line.id.clone(),
        product_code: line.line.product_code.clone(),
        prod_code: line.line.product_code.clone(),
        category_code: p.map(|p| p.category_code.clone()).unwrap_or_default(),
        prod_name: p.map(|p| pick(&p.name, lang)).unwrap_or_default(),
        prod_name_en: p.map(|p| p.name.en.clone()).unwrap_or_default(),
        image_url: p.map(|p| p.image_url1.clone()).unwrap_or_default(),
        product_type: p.map_or(0, |p| p.product_type),
        product_sub_type: p.map_or(0, |p| p.product_sub_type),
        min_sale: p.map_or(1, |p| p.min_sale.max(1)),
        quantity: line.line.quantity,
        size_code: sel.size_code.clone(),
        pizza_size_code: size.map(|s| s.size_code.clone()),
        pizza_size_name: size.map(|s| pick(&s.name, lang)),
        pizza_pastry_code: pastry.map(|c| c.pastry_code.clone()),
        pizza_pastry_name: pastry.map(|c| pick(&c.name, lang)),
        properties: p
            .map(|p| properties(p, sel, ctx.snapshot, lang))
            .unwrap_or_default(),
        original_price: line.unit,
        unit_price: line.unit,
        count_price: line.count,
        count_price_after_pe: line.count - line.discount,
        product_disable: disable.is_some(),
        disable_reason: disable.map(|d| d.0),
        disable_msg: disable.map(|d| d.1),
        rule_ids: line.rule_ids.clone(),
        promotion_desc,
        in_car_time: line.line.in_car_time,
        selection: sel.clone(),
    }
}

fn value(i: &Ingredient, quantity: u32, lang: Lang) -> PropertyValueDto {
    PropertyValueDto {
        id: i.code.clone(),
        name: pick(&i.name, lang),
        price: i.price,
        is_default: i.is_default,
        quantity,
        size_code: None,
        price_amount: i.price * i64::from(quantity),
    }
}

fn properties(
    p: &Product,
    sel: &Selection,
    snapshot: &Snapshot,
    lang: Lang,
) -> Vec<PropertyGroupDto> {
    let mut groups = Vec::new();
    let sauce: Vec<PropertyValueDto> = sel
        .sauce_code
        .iter()
        .filter_map(|c| p.sauces.iter().find(|s| &s.code == c))
        .map(|s| {
            let mut v = value(s, 1, lang);
            if s.is_default {
                v.price_amount = Fen::ZERO;
            }
            v
        })
        .collect();
    // Base toppings: all of them, the removed ones with quantity 0 (the kitchen reads "no …").
    let base: Vec<PropertyValueDto> = p
        .base_ingredients
        .iter()
        .map(|b| {
            let mut v = value(b, u32::from(!sel.removed_base.contains(&b.code)), lang);
            v.price_amount = Fen::ZERO;
            v
        })
        .collect();
    let extra: Vec<PropertyValueDto> = p
        .extra_ingredients
        .iter()
        .filter_map(|x| sel.extras.get(&x.code).map(|&q| value(x, q, lang)))
        .collect();
    let flavours: Vec<PropertyValueDto> = sel
        .flavor_codes
        .iter()
        .flatten()
        .filter_map(|c| p.flavors.iter().find(|f| &f.flavor_code == c))
        .map(|f| {
            let price = f
                .prices
                .iter()
                .find(|x| Some(&x.size_code) == sel.size_code.as_ref())
                .map_or(Fen::ZERO, |x| x.price);
            PropertyValueDto {
                id: f.flavor_code.clone(),
                name: pick(&f.name, lang),
                price,
                is_default: false,
                quantity: 1,
                size_code: sel.size_code.clone(),
                price_amount: price,
            }
        })
        .collect();
    let combo: Vec<PropertyValueDto> = p
        .combo_rounds
        .iter()
        .flat_map(|round| {
            sel.combo
                .get(&round.round_code)
                .into_iter()
                .flatten()
                .filter_map(move |key| round.choices.iter().find(|c| &choice_key(c) == key))
        })
        .map(|c| PropertyValueDto {
            id: c.product_code.clone(),
            name: snapshot
                .product(&c.product_code)
                .map(|p| pick(&p.name, lang))
                .unwrap_or_default(),
            price: c.add_price,
            is_default: c.is_default,
            quantity: 1,
            size_code: c.size_code.clone(),
            price_amount: c.add_price,
        })
        .collect();
    for (group, values) in [
        ("Sauce", sauce),
        ("Base", base),
        ("Extra", extra),
        ("Pizza", flavours),
        ("Combo", combo),
    ] {
        if !values.is_empty() {
            groups.push(PropertyGroupDto { group, values });
        }
    }
    groups
}
