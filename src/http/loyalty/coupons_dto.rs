//! The coupons' JSON shapes (issue 24, contract "HTTP"): times as epoch ms, texts in the
//! request's language.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One of the customer's coupons.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponDto {
    pub coupon_code: String,
    /// The template (also the ruleId of its offer and of its coupon items).
    pub template_code: String,
    pub name: String,
    /// cashOff, percentOff, freeDelivery, productAtPrice or exchangeProduct.
    pub kind: String,
    /// The rule in a few words: 满100减20, 8折，最多减¥30, ¥9.9换购 薯条.
    pub rule_text: String,
    /// Where and on what it applies: 全部商品, 限比萨类商品；仅限外送订单使用.
    pub scope_text: String,
    /// Usable from (inclusive) to (exclusive), epoch ms.
    pub valid_from: i64,
    pub valid_to: i64,
    /// issued, locked, used, returned, expired or transferred (a usable coupon past valid_to
    /// reads expired before the sweep marks it).
    pub status: String,
    /// 可使用, 下单中, 已使用, 已过期, 已转赠.
    pub status_label: String,
    /// The order holding it (locked) or that used it.
    pub order_no: Option<String>,
    pub transferable: bool,
    /// valid_to within 3 days.
    pub expiring_soon: bool,
    /// The product of a product coupon.
    pub product_code: Option<String>,
    pub image_url: Option<String>,
}

/// One tab of /my/coupon/list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponPageDto {
    pub list: Vec<CouponDto>,
    pub page: i64,
    pub page_size: i64,
    pub total: i64,
    pub has_more: bool,
}

/// A coupon offered for collecting (collectCoupon/{ruleId}).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OfferDto {
    /// The template code: POST /coupons/collect/{ruleId}.
    pub rule_id: String,
    pub name: String,
    pub kind: String,
    pub rule_text: String,
    pub scope_text: String,
    /// 领取后7天内有效, 2026.12.01–2026.12.31.
    pub valid_text: String,
    /// Still to collect; null: unlimited.
    pub remaining: Option<i64>,
    /// Null: no limit per customer.
    pub per_user_limit: Option<i64>,
    /// How many this customer collected (0 for visitors).
    pub collected: i64,
    /// False for visitors (login needed), when all gone or the customer's limit is reached.
    pub can_collect: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRequest {
    /// At least 12 characters; case and surrounding blanks do not matter.
    pub code: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferRequest {
    /// The recipient's phone; they must have an account.
    pub cell_phone: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferResultDto {
    /// The coupon given away (now transferred); the recipient's new code is not revealed.
    pub coupon_code: String,
    /// The recipient's phone, masked: 138****0000.
    pub to: String,
}

/// A template as operations see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainTemplateDto {
    pub template_code: String,
    pub name_zh: String,
    pub name_en: String,
    pub kind: String,
    pub rule_text: String,
    pub total_limit: Option<i64>,
    pub per_user_limit: Option<i64>,
    pub issued: i64,
    pub remaining: Option<i64>,
    pub collectable: bool,
    pub transferable: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainIssueRequest {
    pub template_code: Option<String>,
    pub cell_phone: Option<String>,
    /// 1 to 100.
    pub count: Option<i64>,
    /// The same requestId again issues nothing more (answers the same coupons).
    pub request_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainIssueDto {
    pub coupon_codes: Vec<String>,
    /// False when the requestId had issued them before.
    pub issued_now: bool,
}
