//! The customer's coupons (issue 24): the list, the offers and collecting, exchange by code,
//! transfer; and the coupon part of closing an order (`ensure_given_back`). None of it exists
//! in channel 30 (the meal-voucher partner, spec ordering §6).

use crate::http::edge::client_ip::client_ip;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{coupons as err, ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::session::AuthUser;
use crate::http::loyalty::coupons_dto::{
    CouponDto, CouponPageDto, ExchangeRequest, OfferDto, TransferRequest, TransferResultDto,
};
use crate::state::AppState;
use actix_web::{get, post, web, HttpRequest};
use actors::catalogue::Snapshot;
use actors::coupons::ExchangeError;
use actors::db::coupons::ListFilter;
use actors::db::orders::OrderRow;
use actors::domain::accounts::phone::Phone;
use actors::domain::catalogue::Bilingual;
use actors::domain::channel::Channel;
use actors::domain::lang::Lang;
use actors::domain::loyalty::coupon::{
    rule_text_named, scope_text, Coupon, CouponStatus, CouponTemplate, ScopeNames, Validity,
    NO_COUPON_CHANNEL,
};
use actors::domain::stores::hours::china_time;
use serde::Deserialize;
use utoipa::IntoParams;

/// The list's page size.
pub const PAGE_SIZE: i64 = 20;

/// Coupons do not exist in the meal-voucher partner's channel.
pub fn check_channel(ctx: &Ctx) -> ApiResult<()> {
    if ctx.channel == Channel::MealVoucherPartner || ctx.channel.id() == NO_COUPON_CHANNEL {
        return Err(err::not_in_channel());
    }
    Ok(())
}

/// The catalogue's names, for the scope and rule texts.
pub struct CatalogueNames<'a>(pub &'a Snapshot);

impl ScopeNames for CatalogueNames<'_> {
    fn product(&self, code: &str) -> Option<Bilingual> {
        self.0.product(code).map(|p| p.name.clone())
    }
    fn category(&self, code: &str) -> Option<Bilingual> {
        self.0.category(code).map(|c| c.name.clone())
    }
    fn store(&self, code: &str) -> Option<Bilingual> {
        self.0.store(code).map(|s| s.name.clone())
    }
}

fn pick(b: &Bilingual, lang: Lang) -> String {
    match lang {
        Lang::Zh => b.cn.clone(),
        Lang::En => b.en.clone(),
    }
}

/// The rule text naming the product of a product coupon.
pub fn rule_text_for(t: &CouponTemplate, snapshot: &Snapshot, lang: Lang) -> String {
    let product = t
        .kind
        .product_code()
        .and_then(|c| snapshot.product(c))
        .map(|p| &p.name);
    rule_text_named(t, product, lang)
}

/// A coupon as the customer reads it.
pub fn coupon_dto(
    c: &Coupon,
    t: &CouponTemplate,
    snapshot: &Snapshot,
    lang: Lang,
    now: i64,
) -> CouponDto {
    // A usable coupon past its window is expired whatever the row says until the sweep runs.
    let status = if c.status.is_spendable() && c.valid_to <= now {
        CouponStatus::Expired
    } else {
        c.status
    };
    let product_code = t.kind.product_code().map(str::to_string);
    CouponDto {
        coupon_code: c.coupon_code.clone(),
        template_code: c.template_code.clone(),
        name: pick(&t.name, lang),
        kind: t.kind.type_name().to_string(),
        rule_text: rule_text_for(t, snapshot, lang),
        scope_text: scope_text(t, &CatalogueNames(snapshot), lang),
        valid_from: c.valid_from,
        valid_to: c.valid_to,
        status: status.api_name().to_string(),
        status_label: status.label(lang).to_string(),
        order_no: matches!(status, CouponStatus::Locked | CouponStatus::Used)
            .then(|| c.order_no.clone())
            .flatten(),
        transferable: t.transferable,
        expiring_soon: status.is_spendable() && c.expiring_soon(now),
        image_url: product_code
            .as_deref()
            .and_then(|p| snapshot.product(p))
            .map(|p| p.image_url1.clone()),
        product_code,
    }
}

/// "领取后7天内有效" or the fixed dates in China time.
pub fn valid_text(v: &Validity, lang: Lang) -> String {
    match (*v, lang) {
        (Validity::AfterIssue { days }, Lang::Zh) => format!("领取后{days}天内有效"),
        (Validity::AfterIssue { days: 1 }, Lang::En) => "Valid for 1 day after collecting".into(),
        (Validity::AfterIssue { days }, Lang::En) => {
            format!("Valid for {days} days after collecting")
        }
        (Validity::MonthEnd, Lang::Zh) => "当月有效".into(),
        (Validity::MonthEnd, Lang::En) => "Valid until the end of the month".into(),
        (Validity::Fixed { from, to }, lang) => {
            let day = |ms: i64| china_time(ms).format("%Y.%m.%d").to_string();
            // `to` is exclusive: the last day is the one before it.
            let last = day(to - 1);
            match lang {
                Lang::Zh => format!("{}至{last}有效", day(from)),
                Lang::En => format!("Valid {} to {last}", day(from)),
            }
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct ListQuery {
    /// available (default: usable, and locked by an order in progress), used (used and
    /// transferred) or expired.
    status: Option<String>,
    /// From 1; 20 a page.
    page: Option<String>,
}

/// The customer's coupons, one tab at a time, newest first (/my/coupon/list).
#[utoipa::path(tag = "coupons", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, body = Envelope<CouponPageDto>), (status = 400), (status = 401), (status = 404)))]
#[get("/coupons")]
pub async fn list(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    query: web::Query<ListQuery>,
) -> ApiResult<Reply<CouponPageDto>> {
    check_channel(&ctx)?;
    let filter = match query.status.as_deref().map(str::trim) {
        None | Some("") | Some("available") => ListFilter::Available,
        Some("used") => ListFilter::Used,
        Some("expired") => ListFilter::Expired,
        Some(_) => return Err(err::bad_status()),
    };
    let page = i64::from(params::page(query.page.as_deref())?);
    // This period's privilege coupons (birthday treat, free deliveries) are listed at once.
    crate::http::loyalty::members::grant_due_now(&state, auth.user_id).await;
    let now = state.clock.now_ms();
    let (rows, total) = state
        .coupons
        .repo()
        .list(auth.user_id, filter, now, (page - 1) * PAGE_SIZE, PAGE_SIZE)
        .await?;
    let snapshot = state.catalogue.get().await;
    Ok(Reply::new(CouponPageDto {
        list: rows
            .iter()
            .map(|(c, t)| coupon_dto(c, t, &snapshot, ctx.lang, now))
            .collect(),
        page,
        page_size: PAGE_SIZE,
        total,
        has_more: page * PAGE_SIZE < total,
    }))
}

/// The coupons offered for collecting, with what is left and what this customer collected.
/// Visitors see them too, with canCollect false (collecting needs a login).
#[utoipa::path(tag = "coupons",
    responses((status = 200, body = Envelope<Vec<OfferDto>>), (status = 404)))]
#[get("/coupons/offers")]
pub async fn offers(
    state: web::Data<AppState>,
    ctx: Ctx,
    user: Option<AuthUser>,
) -> ApiResult<Reply<Vec<OfferDto>>> {
    check_channel(&ctx)?;
    let repo = state.coupons.repo();
    let counts = match &user {
        Some(u) => repo.user_counts(u.user_id).await?,
        None => Vec::new(),
    };
    let now = state.clock.now_ms();
    let snapshot = state.catalogue.get().await;
    let offers = repo
        .templates()
        .await?
        .into_iter()
        .filter(|row| row.template.collectable && row.template.validity.issuable(now))
        .filter(|row| {
            let channels = &row.template.channels;
            channels.is_empty() || channels.contains(&ctx.channel.id())
        })
        .map(|row| {
            let t = &row.template;
            let collected = counts
                .iter()
                .find(|(code, _)| code == &t.template_code)
                .map_or(0, |(_, n)| *n);
            let remaining = row.remaining();
            let can_collect = user.is_some()
                && remaining != Some(0)
                && t.per_user_limit.is_none_or(|limit| collected < limit);
            OfferDto {
                rule_id: t.template_code.clone(),
                name: pick(&t.name, ctx.lang),
                kind: t.kind.type_name().to_string(),
                rule_text: rule_text_for(t, &snapshot, ctx.lang),
                scope_text: scope_text(t, &CatalogueNames(&snapshot), ctx.lang),
                valid_text: valid_text(&t.validity, ctx.lang),
                remaining,
                per_user_limit: t.per_user_limit,
                collected,
                can_collect,
            }
        })
        .collect();
    Ok(Reply::new(offers))
}

/// Collects one coupon of an offer (collectCoupon/{ruleId}). All gone: 已领完; the customer's
/// limit reached: 您已领取过. The limits hold under any number of concurrent requests.
#[utoipa::path(tag = "coupons", security(("bearer" = [])),
    params(("ruleId" = String, Path, description = "The offer's template code")),
    responses((status = 200, body = Envelope<CouponDto>), (status = 401), (status = 404), (status = 409)))]
#[post("/coupons/collect/{ruleId}")]
pub async fn collect(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    path: web::Path<String>,
) -> ApiResult<Reply<CouponDto>> {
    check_channel(&ctx)?;
    let rule_id = params::code("ruleId", &path)?;
    let coupon = state
        .coupons
        .collect(auth.user_id, &rule_id)
        .await
        .map_err(err::collect_error)?;
    reply_coupon(&state, &coupon, ctx.lang).await
}

async fn reply_coupon(state: &AppState, c: &Coupon, lang: Lang) -> ApiResult<Reply<CouponDto>> {
    let t = state
        .coupons
        .repo()
        .template(&c.template_code)
        .await?
        .ok_or_else(err::template_not_found)?;
    let snapshot = state.catalogue.get().await;
    let now = state.clock.now_ms();
    Ok(Reply::new(coupon_dto(c, &t.template, &snapshot, lang, now)))
}

/// Exchanges a code for a coupon. Every failure (unknown, used, expired, too short) gets the
/// same answer; more than 10 attempts a minute from one customer or one client address: 429
/// with retryAfterSeconds (counted in the database, so on every node).
#[utoipa::path(tag = "coupons", request_body = ExchangeRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CouponDto>), (status = 400), (status = 401),
        (status = 404), (status = 429)))]
#[post("/coupons/exchange")]
pub async fn exchange(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    req: HttpRequest,
    body: web::Json<ExchangeRequest>,
) -> ApiResult<Reply<CouponDto>> {
    check_channel(&ctx)?;
    let code = body.code.as_deref().unwrap_or("");
    match state
        .coupons
        .exchange(auth.user_id, &client_ip(&req), code)
        .await
    {
        Ok(c) => reply_coupon(&state, &c, ctx.lang).await,
        Err(ExchangeError::Invalid) => Err(err::exchange_invalid()),
        Err(ExchangeError::Throttled { retry_after_ms }) => Err(ApiError::too_frequent_for(
            u64::try_from((retry_after_ms + 999) / 1000)
                .unwrap_or(1)
                .max(1),
        )),
        Err(ExchangeError::Db(e)) => Err(e.into()),
    }
}

/// Gives a coupon to the account of a phone number: the recipient gets a new coupon linked to
/// this one, which becomes transferred. Refused while an order holds it, if it is not
/// transferable or not usable, to oneself, or to a phone with no account.
#[utoipa::path(tag = "coupons", request_body = TransferRequest, security(("bearer" = [])),
    params(("couponCode" = String, Path)),
    responses((status = 200, body = Envelope<TransferResultDto>), (status = 400), (status = 401),
        (status = 404), (status = 409)))]
#[post("/coupons/{couponCode}/transfer")]
pub async fn transfer(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    path: web::Path<String>,
    body: web::Json<TransferRequest>,
) -> ApiResult<Reply<TransferResultDto>> {
    check_channel(&ctx)?;
    let code = params::code("couponCode", &path)?;
    let phone = Phone::parse(body.cell_phone.as_deref().unwrap_or("").trim())
        .map_err(|e| err::phone_invalid(&e))?;
    state
        .coupons
        .transfer(auth.user_id, &code, &phone)
        .await
        .map_err(err::give_error)?;
    Ok(Reply::new(TransferResultDto {
        coupon_code: code,
        to: phone.masked(),
    }))
}

/// After an order closed or was refunded where the customer asked (cancel, refund): its
/// coupons must be back. The order hook gave them back already unless that failed; then one
/// more try here, and a failure is 退券失败，请联系客服 with the store's phone (errCode 01).
/// `reason`: why they come back (cancelled, refund).
pub async fn ensure_given_back(state: &AppState, order: &OrderRow, reason: &str) -> ApiResult<()> {
    // Any failure on the way (reading what the order holds, the outbox, the moves) is the
    // customer's 退券失败: their coupon is not back yet.
    if let Err(e) = give_back_if_held(state, &order.order_no, reason).await {
        let content = e.to_string();
        tracing::error!(error = %content, order_no = %order.order_no, "coupon give-back failed");
        return Err(err::give_back_failed(
            content,
            order
                .doc
                .get("storeTel")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("")
                .to_string(),
        ));
    }
    Ok(())
}

async fn give_back_if_held(
    state: &AppState,
    order_no: &str,
    reason: &str,
) -> Result<(), actors::db::DbError> {
    let repo = state.coupons.repo();
    let held = repo
        .of_order(order_no)
        .await?
        .iter()
        .any(|c| matches!(c.status, CouponStatus::Locked | CouponStatus::Used));
    if held || repo.return_pending(order_no).await?.is_some() {
        state.coupons.give_back(order_no, reason).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_in_words() {
        // 2026-12-01 00:00 to 2027-01-01 00:00, China time (the end is exclusive).
        let (from, to) = (1_796_054_400_000, 1_798_732_800_000);
        let cases = [
            (
                Validity::AfterIssue { days: 30 },
                Lang::Zh,
                "领取后30天内有效",
            ),
            (
                Validity::AfterIssue { days: 30 },
                Lang::En,
                "Valid for 30 days after collecting",
            ),
            (
                Validity::AfterIssue { days: 1 },
                Lang::En,
                "Valid for 1 day after collecting",
            ),
            (
                Validity::Fixed { from, to },
                Lang::Zh,
                "2026.12.01至2026.12.31有效",
            ),
            (
                Validity::Fixed { from, to },
                Lang::En,
                "Valid 2026.12.01 to 2026.12.31",
            ),
            (Validity::MonthEnd, Lang::Zh, "当月有效"),
            (
                Validity::MonthEnd,
                Lang::En,
                "Valid until the end of the month",
            ),
        ];
        for (v, lang, want) in cases {
            assert_eq!(valid_text(&v, lang), want, "{v:?} {lang:?}");
        }
    }
}
