//! The coupons of the cart response (spec ordering §3: couponItems and their disabled arrays,
//! couponMutexBeans, osCoupons, exchangeCouponBeans) and of GET /cart/coupons, built from a
//! priced cart in the request language (docs/coupons.md "At checkout").

use crate::http::edge::context::pick;
use actors::domain::catalogue::Product;
use actors::domain::lang::Lang;
use actors::domain::loyalty::coupon::{rule_text_named, NotApplicable};
use actors::domain::money::{yuan, Fen};
use actors::domain::pricing::cart_coupons::{
    CouponItemLine, CouponItemStatus, CouponOption, CouponReason,
};
use actors::domain::pricing::cart_pricing::PricedCart;
use actors::domain::pricing::offer_choice::CouponLeftOut;
use serde::Serialize;
use utoipa::ToSchema;

/// A product coupon's product in the cart (couponItems and the disabled arrays).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponItemDto {
    pub coupon_code: String,
    /// The coupon's template code.
    pub rule_id: String,
    pub sort: i32,
    pub product_code: String,
    pub prod_name: String,
    pub prod_name_en: String,
    pub image_url: String,
    /// The menu price.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub original_price: Fen,
    /// What the coupon charges for it (0: free).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub unit_price: Fen,
    pub quantity: u32,
    /// soldOut, offTime, expired, or a coupon reason code (belowThreshold …); null when charged.
    pub disable_reason: Option<String>,
    pub disable_msg: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponMutexDetailDto {
    /// A coupon template code or a promotion rule id.
    pub rule_id: String,
}

/// Coupons (and promotions) that never go on one order together.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponMutexBeanDto {
    pub coupon_mutex_details: Vec<CouponMutexDetailDto>,
}

/// An exchange coupon applied (兑换券): the product it gives.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeCouponBeanDto {
    pub coupon_code: String,
    pub rule_id: String,
    pub product_code: String,
    pub prod_name: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponReasonDto {
    /// notStarted, expired, notHere, notNow, notThisChannel, noItems, belowThreshold,
    /// productUnavailable, notUsable, mutex, notChosen, notBetter.
    pub code: String,
    pub text: String,
}

/// One of the customer's coupons at checkout.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponOptionDto {
    pub coupon_code: String,
    pub template_code: String,
    pub name: String,
    pub kind: String,
    pub rule_text: String,
    pub valid_to: i64,
    /// What it saves beside the promotions applied and no other coupon (yuan).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub alone: Fen,
    pub applied: bool,
    /// What it saves in the combination applied (yuan).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub saved: Fen,
    /// A product coupon: put it in the cart with POST /cart/coupon-items.
    pub product_code: Option<String>,
    /// A product coupon already in the cart as a coupon item.
    pub in_cart: bool,
    pub reason: Option<CouponReasonDto>,
}

/// GET /cart/coupons.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartCouponsDto {
    pub usable: Vec<CouponOptionDto>,
    pub unusable: Vec<CouponOptionDto>,
    /// The coupon codes applied.
    pub applied: Vec<String>,
    /// True when the server chooses the best combination (no choice made).
    pub auto: bool,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub coupon_discounts_amount: Fen,
}

impl CartCouponsDto {
    pub fn empty() -> CartCouponsDto {
        CartCouponsDto {
            usable: Vec::new(),
            unusable: Vec::new(),
            applied: Vec::new(),
            auto: true,
            coupon_discounts_amount: Fen::ZERO,
        }
    }

    /// `product`: the catalogue's product by code, to name a product coupon's product before
    /// its item is in the cart.
    pub fn new<'c>(
        priced: &PricedCart,
        auto: bool,
        lang: Lang,
        product: &dyn Fn(&str) -> Option<&'c Product>,
    ) -> CartCouponsDto {
        let (usable, unusable) = priced
            .coupons
            .iter()
            .map(|o| option(o, priced, lang, product))
            .partition(|o| {
                o.reason.is_none()
                    || priced.coupons.iter().any(|c| {
                        c.coupon.coupon_code == o.coupon_code
                            && c.reason.as_ref().is_some_and(CouponReason::usable)
                    })
            });
        CartCouponsDto {
            usable,
            unusable,
            applied: priced.applied_coupons.clone(),
            auto,
            coupon_discounts_amount: priced.coupon_discount,
        }
    }
}

/// A coupon's or promotion's name, by coupon code, template code or rule id.
pub fn offer_name(priced: &PricedCart, id: &str, lang: Lang) -> String {
    priced
        .coupons
        .iter()
        .find(|c| c.coupon.coupon_code == id || c.template.template_code == id)
        .map(|c| pick(&c.template.name, lang))
        .or_else(|| {
            priced
                .rules
                .iter()
                .find(|r| r.rule.rule_id == id)
                .map(|r| pick(&r.rule.name, lang))
        })
        .unwrap_or_else(|| id.to_string())
}

/// Why a coupon takes nothing off, as the customer reads it.
pub fn reason_text(reason: &CouponReason, priced: &PricedCart, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match reason {
        CouponReason::NotApplicable(n) => n.message(lang),
        CouponReason::LeftOut(CouponLeftOut::NoItems) => NotApplicable::NoItems.message(lang),
        CouponReason::LeftOut(CouponLeftOut::BelowThreshold { gap }) => {
            NotApplicable::BelowThreshold { gap: *gap }.message(lang)
        }
        CouponReason::LeftOut(CouponLeftOut::Mutex { by, chosen }) => {
            let name = offer_name(priced, by, lang);
            match (zh, chosen) {
                (true, true) => format!("您已选择「{name}」，不可同时使用"),
                (true, false) => format!("与「{name}」不可同时使用，已为您选用更优惠的组合"),
                (false, true) => format!("You chose {name}; they cannot be combined"),
                (false, false) => format!("Cannot be combined with {name}, which saves you more"),
            }
        }
        CouponReason::LeftOut(CouponLeftOut::NotChosen) => {
            if zh { "未选用" } else { "Not chosen" }.into()
        }
        CouponReason::LeftOut(CouponLeftOut::NotBetter) => if zh {
            "使用后总价不会更低"
        } else {
            "It would not lower your total"
        }
        .into(),
    }
}

pub fn option<'c>(
    o: &CouponOption,
    priced: &PricedCart,
    lang: Lang,
    catalogue: &dyn Fn(&str) -> Option<&'c Product>,
) -> CouponOptionDto {
    // "兑换 可口可乐", whether or not its item is in the cart yet.
    let product = o.template.kind.product_code().and_then(|code| {
        priced
            .coupon_items
            .iter()
            .find(|i| i.product_code == code)
            .and_then(|i| i.product)
            .or_else(|| catalogue(code))
    });
    CouponOptionDto {
        coupon_code: o.coupon.coupon_code.clone(),
        template_code: o.template.template_code.clone(),
        name: pick(&o.template.name, lang),
        kind: o.template.kind.type_name().into(),
        rule_text: rule_text_named(o.template, product.map(|p| &p.name), lang),
        valid_to: o.coupon.valid_to,
        alone: o.alone,
        applied: o.applied,
        saved: o.saved,
        product_code: o.template.kind.product_code().map(String::from),
        in_cart: o.in_cart,
        reason: o.reason.as_ref().map(|r| CouponReasonDto {
            code: r.code().into(),
            text: reason_text(r, priced, lang),
        }),
    }
}

fn item_dto(i: &CouponItemLine, priced: &PricedCart, lang: Lang) -> CouponItemDto {
    let zh = lang == Lang::Zh;
    let (reason, msg): (Option<String>, Option<String>) = match &i.status {
        CouponItemStatus::Valid => (None, None),
        CouponItemStatus::SoldOut => (
            Some("soldOut".into()),
            Some(if zh { "已售罄" } else { "Sold out" }.into()),
        ),
        CouponItemStatus::OffTime => (
            Some("offTime".into()),
            Some(
                if zh {
                    "非售卖时间"
                } else {
                    "Not on sale at this time"
                }
                .into(),
            ),
        ),
        CouponItemStatus::Expired => (
            Some("expired".into()),
            Some(
                if zh {
                    "优惠券已失效"
                } else {
                    "This coupon can no longer be used"
                }
                .into(),
            ),
        ),
        CouponItemStatus::NotApplied(r) => {
            (Some(r.code().into()), Some(reason_text(r, priced, lang)))
        }
    };
    CouponItemDto {
        coupon_code: i.coupon_code.clone(),
        rule_id: i.template_code.clone(),
        sort: i.sort,
        product_code: i.product_code.clone(),
        prod_name: i.product.map(|p| pick(&p.name, lang)).unwrap_or_default(),
        prod_name_en: i.product.map(|p| p.name.en.clone()).unwrap_or_default(),
        image_url: i.product.map(|p| p.image_url1.clone()).unwrap_or_default(),
        original_price: i.list,
        unit_price: i.price,
        quantity: 1,
        disable_reason: reason,
        disable_msg: msg,
    }
}

/// The cart response's coupon fields.
pub struct CartCouponFields {
    pub coupon_items: Vec<CouponItemDto>,
    pub sale_out_coupon_items: Vec<CouponItemDto>,
    pub time_out_coupon_items: Vec<CouponItemDto>,
    pub effect_out_coupon_items: Vec<CouponItemDto>,
    pub coupon_mutex_beans: Vec<CouponMutexBeanDto>,
    pub exchange_coupon_beans: Vec<ExchangeCouponBeanDto>,
}

pub fn fields(priced: &PricedCart, lang: Lang) -> CartCouponFields {
    let mut f = CartCouponFields {
        coupon_items: Vec::new(),
        sale_out_coupon_items: Vec::new(),
        time_out_coupon_items: Vec::new(),
        effect_out_coupon_items: Vec::new(),
        coupon_mutex_beans: mutex_beans(priced),
        exchange_coupon_beans: Vec::new(),
    };
    for i in &priced.coupon_items {
        let dto = item_dto(i, priced, lang);
        match i.status {
            CouponItemStatus::Valid => f.coupon_items.push(dto),
            CouponItemStatus::SoldOut => f.sale_out_coupon_items.push(dto),
            CouponItemStatus::OffTime => f.time_out_coupon_items.push(dto),
            // Expired, or its coupon does not apply here: not charged, with the reason.
            _ => f.effect_out_coupon_items.push(dto),
        }
    }
    f.exchange_coupon_beans = priced
        .coupons
        .iter()
        .filter(|o| o.applied && o.template.kind.type_name() == "exchangeProduct")
        .map(|o| ExchangeCouponBeanDto {
            coupon_code: o.coupon.coupon_code.clone(),
            rule_id: o.template.template_code.clone(),
            product_code: o
                .template
                .kind
                .product_code()
                .unwrap_or_default()
                .to_string(),
            prod_name: f
                .coupon_items
                .iter()
                .find(|i| i.coupon_code == o.coupon.coupon_code)
                .map(|i| i.prod_name.clone())
                .unwrap_or_default(),
        })
        .collect();
    f
}

/// Which of the customer's coupons never go together: each stacking group with two or more
/// templates held, and each exclusion between a held template and another held template or
/// a promotion of the cart.
fn mutex_beans(priced: &PricedCart) -> Vec<CouponMutexBeanDto> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let templates: Vec<&actors::domain::loyalty::coupon::CouponTemplate> = {
        let mut t: Vec<_> = priced.coupons.iter().map(|c| c.template).collect();
        t.sort_by(|a, b| a.template_code.cmp(&b.template_code));
        t.dedup_by(|a, b| a.template_code == b.template_code);
        t
    };
    let mut stacks: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for t in &templates {
        if let Some(g) = &t.stack_group {
            stacks.entry(g).or_default().push(t.template_code.clone());
        }
    }
    groups.extend(stacks.into_values().filter(|m| m.len() > 1));
    for t in &templates {
        for other in &t.excludes {
            let known = templates.iter().any(|o| &o.template_code == other)
                || priced.rules.iter().any(|r| &r.rule.rule_id == other);
            let pair = vec![t.template_code.clone(), other.clone()];
            let mirrored = vec![other.clone(), t.template_code.clone()];
            if known && !groups.contains(&pair) && !groups.contains(&mirrored) {
                groups.push(pair);
            }
        }
    }
    groups
        .into_iter()
        .map(|g| CouponMutexBeanDto {
            coupon_mutex_details: g
                .into_iter()
                .map(|rule_id| CouponMutexDetailDto { rule_id })
                .collect(),
        })
        .collect()
}
