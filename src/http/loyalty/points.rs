//! The member's points: the ledger (points detail) and the deduction rule.

use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{loyalty as err, ApiResult};
use crate::http::edge::params;
use crate::http::edge::session::AuthUser;
use crate::http::loyalty::dto::{DeductionRuleDto, LedgerItemDto, LedgerPageDto};
use crate::state::AppState;
use actix_web::{get, web};
use actors::db::points::LedgerFilter;
use actors::domain::loyalty::DEDUCTION;
use serde::Deserialize;
use utoipa::IntoParams;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct LedgerQuery {
    /// all (default), earned, pending, spent or expired.
    kind: Option<String>,
    /// From 1.
    page: Option<String>,
    /// 1 to 100, default 20.
    page_size: Option<String>,
}

/// The points detail: every entry of the member's ledger, newest first, filtered by kind
/// (earned: matured, adjusted up, given back; pending; spent: held for an order or reversed
/// by a refund; expired), paged.
#[utoipa::path(tag = "loyalty", params(LedgerQuery), security(("bearer" = [])),
    responses((status = 200, body = Envelope<LedgerPageDto>), (status = 400), (status = 401)))]
#[get("/points/ledger")]
pub async fn ledger(
    state: web::Data<AppState>,
    auth: AuthUser,
    query: web::Query<LedgerQuery>,
) -> ApiResult<Reply<LedgerPageDto>> {
    let filter = match query.kind.as_deref().map(str::trim) {
        None | Some("") | Some("all") => LedgerFilter::All,
        Some("earned") => LedgerFilter::Earned,
        Some("pending") => LedgerFilter::Pending,
        Some("spent") => LedgerFilter::Spent,
        Some("expired") => LedgerFilter::Expired,
        Some(_) => return Err(err::bad_filter()),
    };
    let page = i64::from(params::page(query.page.as_deref())?);
    let page_size = match query.page_size.as_deref().map(str::trim) {
        None | Some("") => 20,
        Some(v) => match v.parse::<i64>() {
            Ok(n) if (1..=100).contains(&n) => n,
            _ => return Err(err::bad_page_size()),
        },
    };
    state.loyalty.mature_for(auth.user_id).await?;
    let (rows, total) = state
        .loyalty
        .points()
        .ledger(auth.user_id, filter, page, page_size)
        .await?;
    let items = rows
        .into_iter()
        .map(|e| LedgerItemDto {
            status: match (e.kind.as_str(), e.direction.as_str()) {
                ("pending", _) => "pending",
                ("spent", "hold") => "held",
                _ => "done",
            }
            .to_string(),
            id: e.id,
            kind: e.kind,
            business_type: e.business_type,
            business_id: e.business_id,
            points: e.points,
            expires_at: e.expires_at,
            at: e.created_at,
        })
        .collect();
    Ok(Reply::new(LedgerPageDto {
        items,
        page,
        page_size,
        total,
    }))
}

/// Points at checkout: 100 points are one yuan, at most half of an order, at least 100 points.
#[utoipa::path(tag = "loyalty", responses((status = 200, body = Envelope<DeductionRuleDto>)))]
#[get("/points/deduction-rule")]
pub async fn deduction_rule() -> ApiResult<Reply<DeductionRuleDto>> {
    Ok(Reply::new(DeductionRuleDto {
        points_per_yuan: DEDUCTION.points_per_yuan,
        max_share_of_order: DEDUCTION.max_share_permille as f64 / 1000.0,
        min_points: DEDUCTION.min_points,
    }))
}
