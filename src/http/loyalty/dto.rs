//! The loyalty programme's JSON shapes (issue 23, API.md "REST, loyalty"): money in yuan,
//! points as integers, times as epoch ms.

use actors::domain::money::{yuan, Fen};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The member agreement in force, in the request's language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgreementDto {
    /// What `POST /members/join` must send back: "2026-11".
    pub version: String,
    pub title: String,
    pub content: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JoinRequest {
    /// The agreement version the customer accepted (must be the current one).
    pub agreement_version: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PointsSummaryDto {
    /// Spendable now.
    pub available: i64,
    /// Earned on completed orders, waiting for the refund window to close.
    pub pending: i64,
    /// Available points expiring within 30 days.
    pub expiring_soon: i64,
    /// The soonest of those expiries (ms), null when none.
    pub expiring_soon_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextLevelDto {
    pub level: i64,
    pub name: String,
    /// Qualifying spend (yuan) in the window that reaches it.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub threshold: Fen,
    /// Yuan still to spend.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub remaining: Fen,
}

/// The member detail of the programme. A non-member: isLoyalty false, zero points.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberDto {
    pub is_loyalty: bool,
    pub loyalty_level: Option<i64>,
    pub level_name: Option<String>,
    pub points: PointsSummaryDto,
    /// Paid for completed orders minus refunds, in the rolling 365 days (yuan).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub qualifying_spend: Fen,
    pub next_level: Option<NextLevelDto>,
    pub joined_at: Option<i64>,
    /// The privileges of the member's level, each with what this member has of it now (what
    /// the server granted: the coupons issued, priority at submit). Empty for a non-member.
    pub privileges: Vec<MemberPrivilegeDto>,
}

/// One privilege of the member's level and where the member stands with it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberPrivilegeDto {
    /// "points", "birthday", "delivery" or "priority".
    pub code: String,
    pub name: String,
    pub description: String,
    /// This member's state of it: "本月 2 张免配送费券已发放，可用 2 张", "生日当月（3月）发放" …;
    /// null when the description says it all.
    pub status: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivilegeDto {
    pub code: String,
    pub name: String,
    pub description: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelDto {
    pub level: i64,
    pub name: String,
    /// Qualifying spend (yuan) in the rolling window that reaches this level.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub threshold: Fen,
    pub points_per_yuan: i64,
    pub privileges: Vec<PrivilegeDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelChangeDto {
    pub from_level: Option<i64>,
    pub to_level: i64,
    /// "join", "upgrade", "downgrade", or "refund" (a refund took the spend that held the
    /// level back).
    pub reason: String,
    pub at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GiftOptionDto {
    pub option_id: String,
    /// "points" (credited at once) or "coupon" (issued to the member's coupons: a free product
    /// is a coupon for it); "product" only on gifts granted before coupons existed.
    #[serde(rename = "type")]
    pub kind: String,
    pub points: Option<i64>,
    pub product_code: Option<String>,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GiftDto {
    pub gift_id: String,
    /// "welcome" or "upgrade".
    pub kind: String,
    pub level: i64,
    /// "available", "claimed" or "expired".
    pub status: String,
    pub options: Vec<GiftOptionDto>,
    pub chosen_option_id: Option<String>,
    pub claimed_at: Option<i64>,
    pub expires_at: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRequest {
    pub option_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerItemDto {
    pub id: i64,
    /// earned, pending, spent, expired, reversed, adjusted or released.
    pub kind: String,
    /// order, refund, gift, adjustment, deduction or expiry.
    pub business_type: String,
    pub business_id: String,
    /// Signed: + credited, − taken.
    pub points: i64,
    /// The entry's state: for a pending credit "pending" until it matured, then "available"; a
    /// hold "held", "captured" or "released"; otherwise "done".
    pub status: String,
    pub expires_at: Option<i64>,
    pub at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerPageDto {
    pub items: Vec<LedgerItemDto>,
    pub page: i64,
    pub page_size: i64,
    pub total: i64,
}

/// Points at checkout: `pointsPerYuan` points are one yuan; points pay at most
/// `maxShareOfOrder` of an order; fewer than `minPoints` cannot be used.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeductionRuleDto {
    pub points_per_yuan: i64,
    pub max_share_of_order: f64,
    pub min_points: i64,
}

/// The cart's points line: what the member has, what this cart may use, and what that saves.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PointsDeductionDto {
    pub available: i64,
    pub usable_points: i64,
    /// Yuan the usable points save.
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub amount: Fen,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustRequest {
    pub cell_phone: Option<String>,
    /// Signed: + credit, − debit (never below what the member has).
    pub points: Option<i64>,
    pub reason: Option<String>,
    /// The same requestId twice adjusts once.
    pub request_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustResultDto {
    pub request_id: String,
    /// false: this requestId was applied before; nothing changed now.
    pub applied: bool,
    pub available: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PointsMismatchDto {
    pub user_id: i64,
    pub cached_available: i64,
    pub ledger_available: i64,
    pub cached_pending: i64,
    pub ledger_pending: i64,
    pub cached_held: i64,
    pub ledger_held: i64,
    pub cached_owed: i64,
    pub ledger_owed: i64,
    pub lots_available: i64,
    pub lots_pending: i64,
    pub holds_held: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PointsReconcileDto {
    pub checked: i64,
    pub mismatches: Vec<PointsMismatchDto>,
    /// Ended orders (closed, or completed and refunded, at least 10 minutes ago) compared with
    /// what their ledgers hold.
    pub orders_checked: i64,
    /// Ended orders whose ledgers still hold what the ending should have given back.
    pub lost_reversals: Vec<LostReversalDto>,
}

/// An ended order whose ledger still holds what its ending should have given back.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LostReversalDto {
    pub order_no: String,
    pub user_id: i64,
    /// "money", "points", "coupons", "spend" or "gifts".
    pub ledger: String,
    pub found: String,
}

/// The chain's refund of a completed order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainRefundDto {
    pub order_no: String,
    /// Yuan refunded now (0 when it was refunded before or is still owed by the provider).
    #[serde(with = "yuan")]
    #[schema(value_type = f64)]
    pub refunded: Fen,
    /// Whether the order's points were reversed now (false: before).
    pub points_reversed: bool,
}
