//! Welcome and upgrade gifts (/members/gifts): granted with the join or the level change
//! (once per user, level and cycle), claimed with one option, delivered through the outbox.

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{loyalty as err, ApiResult};
use crate::http::edge::session::AuthUser;
use crate::http::loyalty::dto::{ClaimRequest, GiftDto, GiftOptionDto};
use crate::state::AppState;
use actix_web::{get, post, web};
use actors::db::gifts::{Claim, GiftRow};
use actors::domain::lang::Lang;
use actors::domain::loyalty::lot_expiry;

/// After a member joined: nothing to do here (the welcome gift is granted in the join's own
/// transaction); kept as the place a notification would go.
pub async fn after_join(_state: &AppState, _user_id: i64) {}

fn gift_dto(g: GiftRow, lang: Lang, now: i64) -> GiftDto {
    let status = if g.status == "available" && g.expires_at <= now {
        "expired".to_string()
    } else {
        g.status
    };
    GiftDto {
        gift_id: g.gift_id,
        kind: g.kind,
        level: g.level,
        status,
        options: g
            .options
            .into_iter()
            .map(|o| GiftOptionDto {
                option_id: o.option_id,
                kind: o.kind,
                points: o.points,
                product_code: o.product_code,
                name: match lang {
                    Lang::Zh => o.name_zh,
                    Lang::En => o.name_en,
                },
            })
            .collect(),
        chosen_option_id: g.chosen_option,
        claimed_at: g.claimed_at,
        expires_at: g.expires_at,
    }
}

/// The member's gifts: welcome and upgrade, with their options and status.
#[utoipa::path(tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<GiftDto>>), (status = 401)))]
#[get("/members/gifts")]
pub async fn list(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
) -> ApiResult<Reply<Vec<GiftDto>>> {
    let now = state.clock.now_ms();
    let gifts = state.loyalty.gifts().for_user(auth.user_id).await?;
    Ok(Reply::new(
        gifts
            .into_iter()
            .map(|g| gift_dto(g, ctx.lang, now))
            .collect(),
    ))
}

/// Claims a gift with one of its options: points are credited at once; a product waits for
/// the member's next order as a free gift line. Claimed once; the delivery goes through the
/// outbox, so it happens once even if this request dies halfway.
#[utoipa::path(tag = "loyalty", request_body = ClaimRequest, security(("bearer" = [])),
    params(("giftId" = String, Path, description = "The gift")),
    responses((status = 200, body = Envelope<GiftDto>), (status = 400), (status = 401), (status = 404), (status = 409)))]
#[post("/members/gifts/{giftId}/claim")]
pub async fn claim(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    path: web::Path<String>,
    body: web::Json<ClaimRequest>,
) -> ApiResult<Reply<GiftDto>> {
    let option = body
        .option_id
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .ok_or_else(err::gift_option_invalid)?;
    let now = state.clock.now_ms();
    let gifts = state.loyalty.gifts();
    match gifts.claim(auth.user_id, path.trim(), option, now).await? {
        Claim::Claimed(g) => {
            // Delivered now if it can be; the outbox worker retries otherwise.
            if let Err(e) = gifts
                .deliver(&g.gift_id, auth.user_id, option, lot_expiry(now), now)
                .await
            {
                tracing::warn!(error = %e, gift_id = %g.gift_id, "gift delivery left for the worker");
            }
            Ok(Reply::new(gift_dto(g, ctx.lang, now)))
        }
        Claim::NotFound => Err(err::gift_not_found()),
        Claim::Closed(_) => Err(err::gift_closed()),
        Claim::BadOption => Err(err::gift_option_invalid()),
    }
}
