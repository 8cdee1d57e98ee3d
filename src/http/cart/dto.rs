//! The cart response of spec §3 (docs/cart-and-checkout.md): items split by status, amounts in
//! yuan, promotions with their mutex groups. Built from a priced cart in the request language.

use crate::http::cart::coupons_dto::{CouponItemDto, CouponMutexBeanDto, ExchangeCouponBeanDto};
use crate::http::cart::words::{free_delivery_message, left_out_text, min_delivery_message};
use crate::http::edge::context::pick;
use actors::catalogue::Snapshot;
use actors::domain::cart::item::Selection;
use actors::domain::cart::Cart;
use actors::domain::catalogue::{Store, DELIVERY};
use actors::domain::lang::Lang;
use actors::domain::money::{yuan, Fen};
use actors::domain::ordering::arrival::{cart_arrival, Arrival};
use actors::domain::ordering::eta::Promise;
use actors::domain::pricing::breakdown::BreakdownView;
use actors::domain::pricing::cart_pricing::{LineStatus, PricedCart, RuleOption};
use actors::domain::pricing::promotion_choice::LeftOut;
use actors::domain::stores::store_rules::delivery_minimum_gap;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyValueDto {
    pub id: String,
    pub name: String,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub price: Fen,
    pub is_default: bool,
    pub quantity: u32,
    pub size_code: Option<String>,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub price_amount: Fen,
}

/// A group of chosen options: Sauce, Base, Extra, Pizza (flavours) or Combo.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyGroupDto {
    pub group: &'static str,
    pub values: Vec<PropertyValueDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartItemDto {
    pub id: String,
    pub shopping_car_id: String,
    pub product_code: String,
    pub prod_code: String,
    pub category_code: String,
    pub prod_name: String,
    pub prod_name_en: String,
    pub image_url: String,
    pub product_type: u8,
    pub product_sub_type: u8,
    pub min_sale: u32,
    pub quantity: u32,
    pub size_code: Option<String>,
    pub pizza_size_code: Option<String>,
    pub pizza_size_name: Option<String>,
    pub pizza_pastry_code: Option<String>,
    pub pizza_pastry_name: Option<String>,
    pub properties: Vec<PropertyGroupDto>,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub original_price: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub unit_price: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub count_price: Fen,
    #[serde(rename = "countPriceAfterPE", with = "yuan")]
    #[schema(value_type = f64)]
    pub count_price_after_pe: Fen,
    pub product_disable: bool,
    #[schema(value_type = Option<DisableReason>)]
    pub disable_reason: Option<&'static str>,
    pub disable_msg: Option<&'static str>,
    pub rule_ids: Vec<String>,
    pub promotion_desc: Option<String>,
    pub in_car_time: i64,
    /// What the builder chose, as the app sent it (every field present here).
    #[schema(inline)]
    pub selection: Selection,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedRuleDto {
    pub rule_id: String,
    pub rule_name: String,
    pub rule_type: &'static str,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub discount_amount: Fen,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleOptionDto {
    pub rule_id: String,
    pub rule_name: String,
    pub rule_type: &'static str,
    pub description: String,
    /// The customer chose it and the choice stands (it saves something).
    pub chosen: bool,
    pub applied: bool,
    /// What the rule saves on this cart on its own.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub discount_amount: Fen,
    /// What it saves in the combination applied (0 when not applied).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub saved_amount: Fen,
    /// Why it does not apply; null when applied.
    #[schema(value_type = Option<RuleReason>)]
    pub reason: Option<&'static str>,
    /// The reason in the request language (再买¥25.60可享 …).
    pub reason_msg: Option<String>,
    /// belowThreshold: what is missing, measured after item discounts.
    #[serde(with = "yuan::option")]
    #[schema(value_type = Option<f64>)]
    pub gap: Option<Fen>,
    /// mutex, itemsTaken: the rule that has it instead.
    pub excluded_by: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MutexDetailDto {
    pub rule_id: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleMutexBeanDto {
    pub mutex_details: Vec<MutexDetailDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartDto {
    pub cart_token: Option<String>,
    pub shopping_car_version: i64,
    pub store_code: Option<String>,
    pub order_type: u8,
    pub old_service_method: Option<u8>,
    pub order_time: Option<i64>,
    pub is_book_order: bool,
    pub desk_no: Option<String>,
    pub items: Vec<CartItemDto>,
    pub sale_out_items_from_shopping_car: Vec<CartItemDto>,
    pub time_out_items: Vec<CartItemDto>,
    pub effect_out_items: Vec<CartItemDto>,
    /// Product coupons' products charged at their coupon price.
    pub coupon_items: Vec<CouponItemDto>,
    pub sale_out_coupon_items: Vec<CouponItemDto>,
    pub time_out_coupon_items: Vec<CouponItemDto>,
    /// Coupon items not charged: the product is gone, the coupon no longer usable, or it does
    /// not apply to this cart (the reason in `disableMsg`).
    pub effect_out_coupon_items: Vec<CouponItemDto>,
    pub coupon_mutex_beans: Vec<CouponMutexBeanDto>,
    /// The coupon codes applied (submit sends them back as `osCoupons`).
    pub os_coupons: Vec<String>,
    /// Exchange coupons applied.
    pub exchange_coupon_beans: Vec<ExchangeCouponBeanDto>,
    /// True while the server chooses the coupons (no choice made).
    pub coupons_auto: bool,
    /// Everything the coupons take off the products and coupon items (yuan).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub coupon_discounts_amount: Fen,
    /// The cash-off coupons' part of it.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub cash_coupon_amount: Fen,
    /// The delivery fee a free-delivery coupon waives.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub coupon_delivery_fee: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub price_of_product: Fen,
    #[serde(rename = "priceOfProductAfterPE", with = "yuan")]
    #[schema(value_type = f64)]
    pub price_of_product_after_pe: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub discount_amount: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub delivery_fee: Fen,
    #[serde(rename = "deliveryFeeAfterPE", with = "yuan")]
    #[schema(value_type = f64)]
    pub delivery_fee_after_pe: Fen,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub difference_delivery_fee: Fen,
    pub difference_delivery_fee_msg: Option<String>,
    /// Delivery only: the store's minimum product total (起送), 0 when none.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub min_delivery_amount: Fen,
    /// What the cart still lacks to that minimum: submit is refused while it is above 0.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub min_delivery_gap: Fen,
    /// "还差¥12.00起送" / "¥12.00 more for delivery", when there is a gap.
    pub min_delivery_msg: Option<String>,
    /// When the order would arrive or be ready if placed now (or its booked time), as the
    /// order's pages will show it.
    pub arrival: Option<Arrival>,
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub order_amount: Fen,
    pub total_quantity: u32,
    pub order_ref_rules: Vec<AppliedRuleDto>,
    #[schema(value_type = Vec<Object>)]
    pub product_group_ref_rules: Vec<serde_json::Value>,
    pub available_rules: Vec<RuleOptionDto>,
    pub rule_mutex_beans: Vec<RuleMutexBeanDto>,
    /// Lines at list price, discounts as their own entries, fee, payable: adds up to the fen.
    pub breakdown: BreakdownView,
    /// What the member's points could pay of this cart (submit's `pointsDeductions`); null
    /// for visitors and non-members.
    pub points_deduction: Option<crate::http::loyalty::dto::PointsDeductionDto>,
}

/// Why a line cannot be ordered now, for the OpenAPI document: the codes of [`disable_text`].
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // Names the codes; the DTO carries them as text.
pub enum DisableReason {
    SoldOut,
    OffTime,
    Expired,
}

/// Why a promotion gives nothing on this cart, for the OpenAPI document: the codes of
/// [`left_out_text`] (docs/cart-and-checkout.md "How offers are chosen").
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // Names the codes; the DTO carries them as text.
pub enum RuleReason {
    NotEffective,
    NotHere,
    NoItems,
    BelowThreshold,
    Mutex,
    ItemsTaken,
    NotBetter,
}

/// What the cart response needs besides the priced cart.
pub struct CartContext<'a> {
    pub cart: &'a Cart,
    pub version: i64,
    pub cart_token: Option<String>,
    pub snapshot: &'a Snapshot,
    pub lang: Lang,
    pub now: i64,
}

fn rule_option(r: &RuleOption, priced: &PricedCart, lang: Lang) -> RuleOptionDto {
    // Another rule, or a coupon that excludes this one.
    let name_of = |id: &str| crate::http::cart::coupons_dto::offer_name(priced, id, lang);
    let reason = r
        .left_out
        .as_ref()
        .map(|why| left_out_text(why, lang, &name_of));
    RuleOptionDto {
        rule_id: r.rule.rule_id.clone(),
        rule_name: pick(&r.rule.name, lang),
        rule_type: r.rule.kind.type_name(),
        description: pick(&r.rule.description, lang),
        chosen: r.honoured(),
        applied: r.saved > Fen::ZERO,
        discount_amount: r.alone,
        saved_amount: r.saved,
        reason: reason.as_ref().map(|(code, _)| *code),
        reason_msg: reason.map(|(_, msg)| msg),
        gap: match &r.left_out {
            Some(LeftOut::BelowThreshold { gap }) => Some(*gap),
            _ => None,
        },
        excluded_by: match &r.left_out {
            Some(LeftOut::Mutex { by, .. } | LeftOut::ItemsTaken { by }) => Some(by.clone()),
            _ => None,
        },
    }
}

impl CartDto {
    /// The store's terms for this cart: its delivery minimum and the arrival checkout shows.
    pub fn with_store(
        mut self,
        store: &Store,
        priced: &PricedCart,
        lang: Lang,
        now: i64,
    ) -> CartDto {
        if self.order_type == DELIVERY {
            self.min_delivery_amount = store.min_delivery_amount;
        }
        self.min_delivery_gap =
            delivery_minimum_gap(store, self.order_type, priced.price_after_promotions);
        self.min_delivery_msg = min_delivery_message(self.min_delivery_gap, lang);
        let promise = Promise::for_store(
            store,
            self.order_type,
            self.is_book_order,
            self.order_time.unwrap_or(now),
        );
        self.arrival = cart_arrival(&promise, now);
        self
    }

    pub fn new(priced: &PricedCart, ctx: &CartContext) -> CartDto {
        let lang = ctx.lang;
        let mut items = Vec::new();
        let mut sold_out = Vec::new();
        let mut off_time = Vec::new();
        let mut expired = Vec::new();
        for line in &priced.lines {
            let dto = crate::http::cart::lines::item(line, priced, ctx);
            match line.status {
                LineStatus::Valid => items.push(dto),
                LineStatus::SoldOut => sold_out.push(dto),
                LineStatus::OffTime => off_time.push(dto),
                LineStatus::Expired => expired.push(dto),
            }
        }
        let total_quantity = items.iter().map(|i| i.quantity).sum();
        let coupons = crate::http::cart::coupons_dto::fields(priced, lang);
        // Coupon items count among the products at their list price; the coupons' discount
        // takes the difference off (orderAmount = priceOfProduct − activityAmount −
        // couponDiscountsAmount + deliveryFeeAfterPE − couponDeliveryFee).
        let products = priced.price_of_product + priced.coupon_items_list;
        CartDto {
            cart_token: ctx.cart_token.clone(),
            shopping_car_version: ctx.version,
            store_code: ctx.cart.store_code.clone(),
            order_type: ctx.cart.order_type,
            old_service_method: ctx.cart.old_service_method,
            order_time: ctx.cart.order_time,
            is_book_order: ctx.cart.is_book,
            desk_no: ctx.cart.valid_desk(ctx.now).map(|d| d.desk_no.clone()),
            items,
            sale_out_items_from_shopping_car: sold_out,
            time_out_items: off_time,
            effect_out_items: expired,
            coupon_items: coupons.coupon_items,
            sale_out_coupon_items: coupons.sale_out_coupon_items,
            time_out_coupon_items: coupons.time_out_coupon_items,
            effect_out_coupon_items: coupons.effect_out_coupon_items,
            coupon_mutex_beans: coupons.coupon_mutex_beans,
            os_coupons: priced.applied_coupons.clone(),
            exchange_coupon_beans: coupons.exchange_coupon_beans,
            coupons_auto: ctx.cart.chosen_coupons.is_none(),
            coupon_discounts_amount: priced.coupon_discount,
            cash_coupon_amount: priced.cash_coupon_amount,
            coupon_delivery_fee: priced.coupon_delivery_fee,
            price_of_product: products,
            price_of_product_after_pe: products - priced.discount,
            discount_amount: priced.discount,
            delivery_fee: priced.delivery_fee,
            delivery_fee_after_pe: priced.delivery_fee_after,
            difference_delivery_fee: priced.difference_to_free_delivery,
            difference_delivery_fee_msg: free_delivery_message(
                priced.difference_to_free_delivery,
                lang,
            ),
            min_delivery_amount: Fen::ZERO,
            min_delivery_gap: Fen::ZERO,
            min_delivery_msg: None,
            arrival: None,
            order_amount: priced.order_amount,
            total_quantity,
            order_ref_rules: priced
                .rules
                .iter()
                .filter(|r| r.saved > Fen::ZERO)
                .map(|r| AppliedRuleDto {
                    rule_id: r.rule.rule_id.clone(),
                    rule_name: pick(&r.rule.name, lang),
                    rule_type: r.rule.kind.type_name(),
                    discount_amount: r.saved,
                })
                .collect(),
            product_group_ref_rules: Vec::new(),
            available_rules: priced
                .rules
                .iter()
                .map(|r| rule_option(r, priced, lang))
                .collect(),
            rule_mutex_beans: priced
                .mutex_groups
                .iter()
                .map(|g| RuleMutexBeanDto {
                    mutex_details: g
                        .iter()
                        .map(|id| MutexDetailDto {
                            rule_id: id.clone(),
                        })
                        .collect(),
                })
                .collect(),
            breakdown: BreakdownView::from(&priced.breakdown),
            points_deduction: None,
        }
    }
}

#[cfg(test)]
mod reason_codes {
    use super::*;
    use crate::http::cart::words::disable_text;
    use utoipa::PartialSchema;

    fn documented<T: PartialSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap_or_default();
        serde_json::from_value(schema["enum"].clone()).unwrap_or_default()
    }

    /// The codes the document lists are the codes the cart sends (the app's generated types
    /// switch on them).
    #[test]
    fn the_documented_reasons_are_the_codes_sent() {
        let name = |_: &str| String::new();
        let left_out = [
            LeftOut::NotEffective,
            LeftOut::NotHere,
            LeftOut::NoItems,
            LeftOut::BelowThreshold { gap: Fen::ZERO },
            LeftOut::Mutex {
                by: String::new(),
                chosen: false,
            },
            LeftOut::ItemsTaken { by: String::new() },
            LeftOut::NotBetter,
        ];
        let sent: Vec<&str> = left_out
            .iter()
            .map(|r| left_out_text(r, Lang::En, &name).0)
            .collect();
        assert_eq!(documented::<RuleReason>(), sent);
        let disabled: Vec<&str> = [
            LineStatus::SoldOut,
            LineStatus::OffTime,
            LineStatus::Expired,
        ]
        .into_iter()
        .filter_map(|s| disable_text(s, Lang::En).map(|d| d.0))
        .collect();
        assert_eq!(documented::<DisableReason>(), disabled);
    }
}
