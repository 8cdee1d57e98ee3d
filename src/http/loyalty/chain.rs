//! The chain's loyalty operations (ops token): points adjust and reconcile, the full refund of
//! a completed order (its points reversed, its coupons given back), coupon templates and
//! issuing coupons.

use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{coupons as coupon_err, loyalty as err, ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::loyalty::coupons::rule_text_for;
use crate::http::loyalty::coupons_dto::{ChainIssueDto, ChainIssueRequest, ChainTemplateDto};
use crate::http::loyalty::dto::{
    AdjustRequest, AdjustResultDto, ChainRefundDto, LostReversalDto, PointsMismatchDto,
    PointsReconcileDto,
};
use crate::http::tablet::store::check_ops_token;
use crate::state::AppState;
use actix_web::{get, post, web, HttpRequest};
use actors::db::orders::OrderRepo;
use actors::db::points::Applied;
use actors::db::users::UserRepo;
use actors::domain::accounts::phone::Phone;
use actors::domain::lang::Lang;
use actors::domain::ordering::order_machine::state as s;

/// A customer-service adjustment of a member's points: + credits a new lot, − takes from what
/// they have (never below zero). The same requestId twice adjusts once.
#[utoipa::path(tag = "chain", request_body = AdjustRequest,
    responses((status = 200, body = Envelope<AdjustResultDto>), (status = 400), (status = 401),
        (status = 403), (status = 404)))]
#[post("/chain/points/adjust")]
pub async fn adjust(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<AdjustRequest>,
) -> ApiResult<Reply<AdjustResultDto>> {
    check_ops_token(&state, &req)?;
    let (Some(phone), Some(points), Some(reason), Some(request_id)) = (
        body.cell_phone.as_deref(),
        body.points
            .filter(|p| *p != 0 && p.unsigned_abs() <= 100_000_000),
        body.reason
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty() && r.chars().count() <= 200),
        body.request_id
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty() && r.len() <= 64),
    ) else {
        return Err(err::adjust_invalid());
    };
    let phone = Phone::parse(phone.trim()).map_err(|_| err::adjust_invalid())?;
    let user = UserRepo::new(state.db.clone())
        .find_by_phone(&phone)
        .await?
        .ok_or_else(err::adjust_unknown_phone)?;
    if state.loyalty.members().member(user.id).await?.is_none() {
        return Err(err::adjust_unknown_phone());
    }
    let key = format!("cs:{request_id}");
    let applied = state
        .loyalty
        .adjust(user.id, &key, points, reason)
        .await
        .map_err(err::points_error)?;
    tracing::info!(
        user_id = user.id,
        points,
        request_id,
        ?applied,
        "points adjusted"
    );
    let available = state.loyalty.points().account(user.id).await?.available;
    Ok(Reply::new(AdjustResultDto {
        request_id: request_id.to_string(),
        applied: applied == Applied::Now,
        available,
    }))
}

/// Compares every member's cached balance (available, pending, held, owed) with the sums of
/// their ledger, their lots and their holds. The target: no mismatches.
#[utoipa::path(tag = "chain",
    responses((status = 200, body = Envelope<PointsReconcileDto>), (status = 401), (status = 403), (status = 404)))]
#[post("/chain/points/reconcile")]
pub async fn reconcile(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> ApiResult<Reply<PointsReconcileDto>> {
    check_ops_token(&state, &req)?;
    let report = state.loyalty.reconcile().await?;
    if !report.points.mismatches.is_empty() || !report.reversals.lost.is_empty() {
        tracing::warn!(
            mismatches = report.points.mismatches.len(),
            lost_reversals = report.reversals.lost.len(),
            "points ledger mismatches"
        );
    }
    Ok(Reply::new(reconcile_dto(report)))
}

pub fn reconcile_dto(report: actors::loyalty::LedgerReconcile) -> PointsReconcileDto {
    let actors::loyalty::LedgerReconcile { points, reversals } = report;
    PointsReconcileDto {
        orders_checked: reversals.checked,
        lost_reversals: reversals
            .lost
            .into_iter()
            .map(|l| LostReversalDto {
                order_no: l.order_no,
                user_id: l.user_id,
                ledger: l.ledger.to_string(),
                found: l.found,
            })
            .collect(),
        checked: points.checked,
        mismatches: points
            .mismatches
            .into_iter()
            .map(|m| PointsMismatchDto {
                user_id: m.user_id,
                cached_available: m.cached.available,
                ledger_available: m.ledger.available,
                cached_pending: m.cached.pending,
                ledger_pending: m.ledger.pending,
                cached_held: m.cached.held,
                ledger_held: m.ledger.held,
                cached_owed: m.cached.owed,
                ledger_owed: m.ledger.owed,
                lots_available: m.lots_available,
                lots_pending: m.lots_pending,
                holds_held: m.holds_held,
            })
            .collect(),
    }
}

/// Refunds a completed order in full through the payment refund machinery (the kept payment
/// is refunded, or owed and retried), takes its qualifying spend back and reverses its points
/// (pending or available; what the member spent meanwhile is recorded as owed). Asking again
/// refunds and reverses nothing more.
#[utoipa::path(tag = "chain", params(("orderNo" = String, Path)),
    responses((status = 200, body = Envelope<ChainRefundDto>), (status = 401), (status = 403),
        (status = 404), (status = 409), (status = 502)))]
#[post("/chain/orders/{orderNo}/refund")]
pub async fn refund_order(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<Reply<ChainRefundDto>> {
    check_ops_token(&state, &req)?;
    let order_no = params::code("orderNo", &path)?;
    let order = OrderRepo::new(state.db.clone())
        .find(&order_no)
        .await?
        .ok_or_else(err::order_not_found)?;
    if order.state != s::COMPLETED {
        return Err(err::refund_not_completed());
    }
    let refunded = match state.payments.refund_completed(&order_no).await {
        Ok(f) => f,
        Err(e) => {
            let content = e.to_string();
            tracing::error!(error = %content, order_no, "chain refund failed");
            return Err(ApiError::RefundFailed {
                content,
                store_tel: order
                    .doc
                    .get("storeTel")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            });
        }
    };
    let reversed = state.loyalty.order_refunded(&order_no).await?;
    crate::http::loyalty::coupons::ensure_given_back(&state, &order, "refund").await?;
    tracing::info!(order_no, refunded = %refunded, ?reversed, "completed order refunded by the chain");
    Ok(Reply::new(ChainRefundDto {
        order_no,
        refunded,
        points_reversed: reversed == Applied::Now,
    }))
}

/// Every coupon template with its counter (operations).
#[utoipa::path(tag = "chain",
    responses((status = 200, body = Envelope<Vec<ChainTemplateDto>>), (status = 401), (status = 403)))]
#[get("/chain/coupons/templates")]
pub async fn coupon_templates(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> ApiResult<Reply<Vec<ChainTemplateDto>>> {
    check_ops_token(&state, &req)?;
    let snapshot = state.catalogue.get().await;
    let rows = state.coupons.repo().templates().await?;
    Ok(Reply::new(
        rows.into_iter()
            .map(|row| {
                let remaining = row.remaining();
                let t = row.template;
                ChainTemplateDto {
                    rule_text: rule_text_for(&t, &snapshot, Lang::Zh),
                    kind: t.kind.type_name().to_string(),
                    template_code: t.template_code,
                    name_zh: t.name.cn,
                    name_en: t.name.en,
                    total_limit: t.total_limit,
                    per_user_limit: t.per_user_limit,
                    issued: row.issued,
                    remaining,
                    collectable: t.collectable,
                    transferable: t.transferable,
                }
            })
            .collect(),
    ))
}

/// Issues `count` coupons of a template to the account of a phone (customer service,
/// campaigns): all or none, within the template's limits; the same requestId again issues
/// nothing more and answers the same coupons.
#[utoipa::path(tag = "chain", request_body = ChainIssueRequest,
    responses((status = 200, body = Envelope<ChainIssueDto>), (status = 400), (status = 401),
        (status = 403), (status = 404), (status = 409)))]
#[post("/chain/coupons/issue")]
pub async fn issue_coupons(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<ChainIssueRequest>,
) -> ApiResult<Reply<ChainIssueDto>> {
    check_ops_token(&state, &req)?;
    let (Some(template_code), Some(phone), Some(count), Some(request_id)) = (
        body.template_code
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= 64),
        body.cell_phone.as_deref(),
        body.count
            .filter(|c| (1..=actors::coupons::CHAIN_ISSUE_MAX).contains(c)),
        body.request_id
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty() && r.len() <= 64),
    ) else {
        return Err(coupon_err::chain_issue_invalid());
    };
    let phone = Phone::parse(phone.trim()).map_err(|_| coupon_err::chain_issue_invalid())?;
    let (coupons, issued_now) = state
        .coupons
        .chain_issue(template_code, &phone, count, request_id)
        .await
        .map_err(coupon_err::give_error)?;
    tracing::info!(
        template_code,
        count,
        request_id,
        issued_now,
        "coupons issued by the chain"
    );
    Ok(Reply::new(ChainIssueDto {
        coupon_codes: coupons.into_iter().map(|c| c.coupon_code).collect(),
        issued_now,
    }))
}
