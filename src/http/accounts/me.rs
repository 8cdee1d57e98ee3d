//! The logged-in user's own account (spec account §4, §7): member detail, profile update,
//! closing the account, privacy consent, marketing and recommendation switches.

use crate::http::accounts::credentials::field;
use crate::http::accounts::dto::{
    MarketingSettings, MarketingState, MeDto, PrivacyDecisionRequest, PrivacyDto, ProfilePatch,
    RecommendationSwitch,
};
use crate::http::edge::envelope::{Envelope, NoData, Reply};
use crate::http::edge::error::{ApiError, ApiResult, FieldError};
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{delete, get, patch, post, web};
use actors::db::addresses::AddressRepo;
use actors::db::consents::ConsentRepo;
use actors::db::users::{Closure, ProfileFields, UserRepo, UserRow};
use actors::domain::accounts::profile::{
    default_birthday, Birthday, Email, Gender, PersonName, ProfileError,
};
use actors::domain::accounts::{consent_current as is_current, Decision};
use actors::domain::lang::Lang;

/// The member detail as every account endpoint answers it.
pub async fn me_dto(state: &AppState, user_id: i64) -> ApiResult<MeDto> {
    let user = open_user(state, user_id).await?;
    let address_id = AddressRepo::new(state.db.clone())
        .default_id(user_id)
        .await?;
    let consent_required = !consent_current(state, user_id).await?;
    let today = state.clock.china_now().date_naive();
    let picker = default_birthday(today).format("%Y-%m-%d").to_string();
    let mut dto = MeDto::new(&user, address_id, consent_required, picker);
    // Points are the ledger's (its cached balance), zero for non-members: never users.points.
    dto.userful_point = if user.is_loyalty {
        state.loyalty.points().account(user_id).await?.available
    } else {
        0
    };
    Ok(dto)
}

/// Whether the user's latest decision agrees to the policy in force.
pub async fn consent_current(state: &AppState, user_id: i64) -> ApiResult<bool> {
    let latest = ConsentRepo::new(state.db.clone())
        .latest(user_id, None)
        .await?;
    Ok(is_current(
        latest.map(|c| (c.decision, c.policy_version)),
        state.privacy_policy_updated_at,
    ))
}

/// A session always belongs to an open account; if it does not any more, it has ended.
async fn open_user(state: &AppState, user_id: i64) -> ApiResult<UserRow> {
    UserRepo::new(state.db.clone())
        .get(user_id)
        .await?
        .filter(|u| u.closed_at.is_none())
        .ok_or(ApiError::SessionExpired)
}

/// The member detail (memberDetail): profile, kind, points, default address, switches, and
/// whether the privacy policy must be agreed again. The phone is masked.
#[utoipa::path(tag = "me", security(("bearer" = [])),
    responses((status = 200, body = Envelope<MeDto>), (status = 401)))]
#[get("/me")]
pub async fn get_me(state: web::Data<AppState>, auth: AuthUser) -> ApiResult<Reply<MeDto>> {
    Ok(Reply::new(me_dto(&state, auth.user_id).await?))
}

/// Updates the profile (updateUser). Only the fields sent change; a field sent empty is an
/// error (name, email, gender and birthday cannot be empty). Every field error is answered.
#[utoipa::path(tag = "me", request_body = ProfilePatch, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MeDto>), (status = 400), (status = 401)))]
#[patch("/me")]
pub async fn patch_me(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: web::Json<ProfilePatch>,
) -> ApiResult<Reply<MeDto>> {
    let user = open_user(&state, auth.user_id).await?;
    let today = state.clock.china_now().date_naive();
    let mut errors: Vec<FieldError> = Vec::new();
    let name = match &body.name {
        Some(raw) => {
            checked(&mut errors, "name", PersonName::parse(raw)).map(|n| n.as_str().to_owned())
        }
        None => user.name.clone(),
    };
    let email = match &body.email {
        Some(raw) => {
            checked(&mut errors, "email", Email::parse(raw)).map(|e| e.as_str().to_owned())
        }
        None => user.email.clone(),
    };
    let gender = match body.gender {
        Some(code) => {
            checked(&mut errors, "gender", Gender::from_code(code)).map(|g| i64::from(g.code()))
        }
        None => Some(user.gender),
    };
    let birthday = match &body.birthday {
        Some(raw) => checked(&mut errors, "birthday", Birthday::parse(raw, today))
            .map(|b| b.date().format("%Y-%m-%d").to_string()),
        None => user.birthday.clone(),
    };
    if !errors.is_empty() {
        return Err(ApiError::Invalid(errors));
    }
    let fields = ProfileFields {
        name: name.as_deref(),
        email: email.as_deref(),
        gender: gender.unwrap_or(user.gender),
        birthday: birthday.as_deref(),
    };
    UserRepo::new(state.db.clone())
        .set_profile(user.id, &fields, state.clock.now_ms())
        .await?;
    Ok(Reply::new(me_dto(&state, user.id).await?))
}

/// Closes the account (userCancellation). Phone, name, email, birthday, password and the
/// address book are deleted and every session ends; points, coupons, gifts and the membership
/// are forfeited, as the page warns; the account row stays as a closed tombstone so orders
/// keep their reference. The phone may register again as a new account. Refused (409) while
/// an order is still in progress.
#[utoipa::path(tag = "me", security(("bearer" = [])),
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 401), (status = 409)))]
#[delete("/me")]
pub async fn close_account(state: web::Data<AppState>, auth: AuthUser) -> ApiResult<Reply<()>> {
    let closed = UserRepo::new(state.db.clone())
        .close(auth.user_id, state.clock.now_ms())
        .await?;
    if closed == Closure::OrdersInProgress {
        return Err(ApiError::conflict(
            "您还有进行中的订单，请在订单完成或取消后再注销",
            "An order of yours is still in progress: close the account once it is completed or cancelled",
        ));
    }
    // The database store lost them with the account; Redis keeps its own until told.
    state.sessions().revoke_user(auth.user_id).await?;
    tracing::info!(user_id = auth.user_id, "account closed");
    Ok(Reply::new(()))
}

/// The value, or None with its error noted: every field is checked before answering.
fn checked<T>(
    errors: &mut Vec<FieldError>,
    name: &'static str,
    r: Result<T, ProfileError>,
) -> Option<T> {
    r.map_err(|e| errors.push(field(name, |l| e.message(l))))
        .ok()
}

async fn privacy_dto(state: &AppState, user_id: i64) -> ApiResult<PrivacyDto> {
    let repo = ConsentRepo::new(state.db.clone());
    let agreed = repo.latest(user_id, Some(Decision::Agree)).await?;
    let refused = repo.latest(user_id, Some(Decision::Refuse)).await?;
    Ok(PrivacyDto {
        policy_updated_at: state.privacy_policy_updated_at,
        agreed_at: agreed.map(|c| c.decided_at),
        agreed_version: agreed.map(|c| c.policy_version),
        current: consent_current(state, user_id).await?,
        refused_at: refused.map(|c| c.decided_at),
    })
}

/// The user's privacy consent: the policy version in force, when they last agreed (and to
/// which version), whether that is current, and when they last refused.
#[utoipa::path(tag = "me", security(("bearer" = [])),
    responses((status = 200, body = Envelope<PrivacyDto>), (status = 401)))]
#[get("/me/privacy")]
pub async fn get_privacy(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> ApiResult<Reply<PrivacyDto>> {
    Ok(Reply::new(privacy_dto(&state, auth.user_id).await?))
}

/// Records a decision on the policy in force: `{decision: "agree" | "refuse"}`. Both are kept
/// (append-only); refusing withdraws the consent. Agreeing turns the recommendation switch on,
/// refusing turns it off.
#[utoipa::path(tag = "me", request_body = PrivacyDecisionRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PrivacyDto>), (status = 400), (status = 401)))]
#[post("/me/privacy")]
pub async fn post_privacy(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: web::Json<PrivacyDecisionRequest>,
) -> ApiResult<Reply<PrivacyDto>> {
    let decision = body
        .decision
        .as_deref()
        .and_then(|d| Decision::parse(d.trim()))
        .ok_or_else(|| {
            ApiError::Invalid(vec![field("decision", |l| match l {
                Lang::Zh => "decision 只能是 agree 或 refuse".into(),
                Lang::En => "decision must be agree or refuse".into(),
            })])
        })?;
    ConsentRepo::new(state.db.clone())
        .record(
            auth.user_id,
            decision,
            state.privacy_policy_updated_at,
            state.clock.now_ms(),
        )
        .await?;
    // Spec account §4: agreeing turns the recommendation switch on, refusing turns it off.
    UserRepo::new(state.db.clone())
        .set_recommendation(
            auth.user_id,
            decision == Decision::Agree,
            state.clock.now_ms(),
        )
        .await?;
    Ok(Reply::new(privacy_dto(&state, auth.user_id).await?))
}

/// The SMS-notification dialog (modifyPersonalized): agree to marketing messages, and "don't
/// remind me again". A field left out keeps its value; the answer has both.
#[utoipa::path(tag = "me", request_body = MarketingSettings, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MarketingState>), (status = 401)))]
#[patch("/me/marketing")]
pub async fn patch_marketing(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: web::Json<MarketingSettings>,
) -> ApiResult<Reply<MarketingState>> {
    let user = open_user(&state, auth.user_id).await?;
    let agree = body
        .is_personalized_agree
        .unwrap_or(user.personalized_agree);
    let remind = body.is_remind_again.unwrap_or(user.remind_again);
    UserRepo::new(state.db.clone())
        .set_marketing(user.id, agree, remind, state.clock.now_ms())
        .await?;
    Ok(Reply::new(MarketingState {
        is_personalized_agree: agree,
        is_remind_again: remind,
    }))
}

/// The personalised-recommendation switch (recommendationSwitch): `{flag: 1}` on, `{flag: 0}` off.
#[utoipa::path(tag = "me", request_body = RecommendationSwitch, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RecommendationSwitch>), (status = 400), (status = 401)))]
#[post("/me/recommendation")]
pub async fn post_recommendation(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: web::Json<RecommendationSwitch>,
) -> ApiResult<Reply<RecommendationSwitch>> {
    let on = match body.flag {
        Some(1) => true,
        Some(0) => false,
        _ => {
            return Err(ApiError::Invalid(vec![field("flag", |l| match l {
                Lang::Zh => "flag 只能是 0 或 1".into(),
                Lang::En => "flag must be 0 or 1".into(),
            })]))
        }
    };
    UserRepo::new(state.db.clone())
        .set_recommendation(auth.user_id, on, state.clock.now_ms())
        .await?;
    Ok(Reply::new(RecommendationSwitch {
        flag: Some(i64::from(on)),
    }))
}
