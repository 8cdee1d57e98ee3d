//! Membership: the agreement, joining, the member detail, levels and level history.

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{loyalty as err, ApiResult};
use crate::http::edge::session::AuthUser;
use crate::http::loyalty::dto::{
    AgreementDto, JoinRequest, LevelChangeDto, LevelDto, MemberDto, MemberPrivilegeDto,
    NextLevelDto, PointsSummaryDto, PrivilegeDto,
};
use crate::state::AppState;
use actix_web::{get, post, web};
use actors::db::members::LevelRow;
use actors::domain::lang::Lang;
use actors::domain::loyalty::privileges::Privilege;
use actors::domain::loyalty::{next_level, EXPIRING_SOON_MS};
use actors::loyalty::{rules, JoinError};

fn level_name(rows: &[LevelRow], level: i64, lang: Lang) -> Option<String> {
    rows.iter().find(|l| l.level == level).map(|l| match lang {
        Lang::Zh => l.name_zh.clone(),
        Lang::En => l.name_en.clone(),
    })
}

/// The member detail of the programme; due pending points are matured first and the
/// privileges' coupons due now issued (the jobs' compare-and-sets), so a member reading their
/// member centre sees them the moment they are due.
pub async fn member_dto(state: &AppState, user_id: i64, lang: Lang) -> ApiResult<MemberDto> {
    let loyalty = &state.loyalty;
    let members = loyalty.members();
    let member = members.member(user_id).await?;
    let rows = members.levels().await?;
    let spend = loyalty.qualifying_spend(user_id).await?;
    let Some(m) = member else {
        return Ok(MemberDto {
            is_loyalty: false,
            loyalty_level: None,
            level_name: None,
            points: PointsSummaryDto {
                available: 0,
                pending: 0,
                expiring_soon: 0,
                expiring_soon_at: None,
            },
            qualifying_spend: spend,
            next_level: None,
            joined_at: None,
            privileges: Vec::new(),
        });
    };
    loyalty.mature_for(user_id).await?;
    let privileges = privileges_dto(state, &rows, m.level, user_id, lang).await?;
    let now = state.clock.now_ms();
    let points = loyalty.points();
    let account = points.account(user_id).await?;
    let (soon, soon_at) = points
        .expiring(user_id, now, now + EXPIRING_SOON_MS)
        .await?;
    let next = next_level(spend, m.level, &rules(&rows)).map(|(l, remaining)| NextLevelDto {
        level: l.level,
        name: level_name(&rows, l.level, lang).unwrap_or_default(),
        threshold: l.threshold,
        remaining,
    });
    Ok(MemberDto {
        is_loyalty: true,
        loyalty_level: Some(m.level),
        level_name: level_name(&rows, m.level, lang),
        points: PointsSummaryDto {
            available: account.available,
            pending: account.pending,
            expiring_soon: soon,
            expiring_soon_at: soon_at,
        },
        qualifying_spend: spend,
        next_level: next,
        joined_at: Some(m.joined_at),
        privileges,
    })
}

/// The level's privileges with where the member stands, after granting what is due now (a
/// failed grant is logged and left to the job: the member still reads their centre).
async fn privileges_dto(
    state: &AppState,
    rows: &[LevelRow],
    level: i64,
    user_id: i64,
    lang: Lang,
) -> ApiResult<Vec<MemberPrivilegeDto>> {
    let privileges = state.loyalty.privileges();
    grant_due_now(state, user_id).await;
    let standings = privileges.standings(user_id).await?;
    let Some(row) = rows.iter().find(|l| l.level == level) else {
        return Ok(Vec::new());
    };
    Ok(row
        .privileges
        .iter()
        .map(|p| {
            let status = Privilege::parse(&p.code)
                .and_then(|code| standings.iter().find(|(c, _)| *c == code))
                .and_then(|(_, standing)| standing.text(lang));
            let (name, description) = match lang {
                Lang::Zh => (p.name_zh.clone(), p.description_zh.clone()),
                Lang::En => (p.name_en.clone(), p.description_en.clone()),
            };
            MemberPrivilegeDto {
                code: p.code.clone(),
                name,
                description,
                status,
            }
        })
        .collect())
}

/// Issues the member's privilege coupons due now (the job's rule and compare-and-set), so a
/// member opening their member centre or coupons sees this period's at once.
pub async fn grant_due_now(state: &AppState, user_id: i64) {
    if let Err(e) = state.loyalty.privileges().grant_due_for(user_id).await {
        tracing::warn!(error = %e, user_id, "privileges not granted on read; the job grants them");
    }
}

/// The member agreement in force (its version is what joining sends back).
#[utoipa::path(tag = "loyalty",
    responses((status = 200, body = Envelope<AgreementDto>), (status = 503)))]
#[get("/members/agreement")]
pub async fn agreement(state: web::Data<AppState>, ctx: Ctx) -> ApiResult<Reply<AgreementDto>> {
    let a = state
        .loyalty
        .members()
        .current_agreement()
        .await?
        .ok_or_else(err::no_programme)?;
    let (title, content) = match ctx.lang {
        Lang::Zh => (a.title_zh, a.content_zh),
        Lang::En => (a.title_en, a.content_en),
    };
    Ok(Reply::new(AgreementDto {
        version: a.version,
        title,
        content,
    }))
}

/// Joins the member club (joinLoyalty) with the current agreement accepted; its version is
/// recorded. Already a member: the same answer, nothing joins twice.
#[utoipa::path(tag = "loyalty", request_body = JoinRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MemberDto>), (status = 400), (status = 401), (status = 503)))]
#[post("/members/join")]
pub async fn join(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
    body: web::Json<JoinRequest>,
) -> ApiResult<Reply<MemberDto>> {
    let version = body
        .agreement_version
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(err::agreement_required)?;
    match state.loyalty.join(auth.user_id, version).await {
        Ok(joined) => {
            if joined {
                tracing::info!(user_id = auth.user_id, version, "joined the member club");
                crate::http::loyalty::gifts::after_join(&state, auth.user_id).await;
            }
        }
        Err(JoinError::WrongAgreement { current }) => {
            return Err(err::agreement_outdated(current.as_deref()))
        }
        Err(JoinError::NoLevels) => return Err(err::no_programme()),
        Err(JoinError::Db(e)) => return Err(e.into()),
    }
    Ok(Reply::new(
        member_dto(&state, auth.user_id, ctx.lang).await?,
    ))
}

/// The member detail (memberDetail): level, points (available, pending, expiring soon),
/// qualifying spend in the window and the next level. A non-member: isLoyalty false, zero
/// points (computed, never stored).
#[utoipa::path(tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = Envelope<MemberDto>), (status = 401)))]
#[get("/members/me")]
pub async fn me(
    state: web::Data<AppState>,
    ctx: Ctx,
    auth: AuthUser,
) -> ApiResult<Reply<MemberDto>> {
    Ok(Reply::new(
        member_dto(&state, auth.user_id, ctx.lang).await?,
    ))
}

/// The levels: threshold of qualifying spend in the rolling 365 days, points per yuan, and
/// privileges.
#[utoipa::path(tag = "loyalty", responses((status = 200, body = Envelope<Vec<LevelDto>>)))]
#[get("/members/levels")]
pub async fn levels(state: web::Data<AppState>, ctx: Ctx) -> ApiResult<Reply<Vec<LevelDto>>> {
    let rows = state.loyalty.members().levels().await?;
    Ok(Reply::new(
        rows.into_iter()
            .map(|l| LevelDto {
                level: l.level,
                name: match ctx.lang {
                    Lang::Zh => l.name_zh,
                    Lang::En => l.name_en,
                },
                threshold: l.threshold,
                points_per_yuan: l.points_per_yuan,
                privileges: l
                    .privileges
                    .into_iter()
                    .map(|p| match ctx.lang {
                        Lang::Zh => PrivilegeDto {
                            code: p.code,
                            name: p.name_zh,
                            description: p.description_zh,
                        },
                        Lang::En => PrivilegeDto {
                            code: p.code,
                            name: p.name_en,
                            description: p.description_en,
                        },
                    })
                    .collect(),
            })
            .collect(),
    ))
}

/// The member's level changes, newest first (append-only: join, upgrade, downgrade).
#[utoipa::path(tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<LevelChangeDto>>), (status = 401)))]
#[get("/members/levels/history")]
pub async fn history(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> ApiResult<Reply<Vec<LevelChangeDto>>> {
    let rows = state.loyalty.members().history(auth.user_id).await?;
    Ok(Reply::new(
        rows.into_iter()
            .map(|c| LevelChangeDto {
                from_level: c.from_level,
                to_level: c.to_level,
                reason: c.reason,
                at: c.at,
            })
            .collect(),
    ))
}
