//! Sign-up and sign-in (spec account §4, §7): SMS codes, registration, login by password or
//! by SMS code (which registers a new phone on the fly), logout, reset and change password.

use crate::http::accounts::credentials as input;
use crate::http::accounts::dto::{
    ChangePasswordRequest, LoginReply, LoginRequest, RegisterRequest, ResetPasswordRequest,
    SendCodeRequest, SentCode, SmsLoginRequest,
};
use crate::http::accounts::me::{consent_current, me_dto};
use crate::http::edge::client_ip::client_ip;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, NoData, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{post, web, HttpRequest};
use actors::accounts::passwords::{self, LoginKey};
use actors::db::consents::ConsentRepo;
use actors::db::users::UserRepo;
use actors::domain::accounts::phone::Phone;
use actors::domain::accounts::{
    seconds_ceil, Decision, Scene, SMS_CODE_TTL_MS, SMS_RESEND_COOLDOWN_MS,
};

const ALREADY_REGISTERED: Msg = Msg::fixed(
    "该手机号已注册，请直接登录",
    "This phone number is already registered, please log in",
);

/// Sends a 6-digit code (sendRandomNum) for registering, logging in or resetting the password.
/// One a minute per phone and scene (429 with the seconds left), 10 a day per phone, 20 an
/// hour per client.
#[utoipa::path(tag = "auth", request_body = SendCodeRequest,
    responses((status = 200, body = Envelope<SentCode>), (status = 400), (status = 429)))]
#[post("/auth/sms-code")]
pub async fn send_code(
    state: web::Data<AppState>,
    ctx: Ctx,
    req: HttpRequest,
    body: web::Json<SendCodeRequest>,
) -> ApiResult<Reply<SentCode>> {
    let (phone, scene) = match (
        input::phone(body.cell_phone.as_deref()),
        input::scene(body.scene.as_deref()),
    ) {
        (Ok(p), Ok(s)) => (p, s),
        (p, s) => return Err(input::invalid([p.err(), s.err()])),
    };
    let now = state.clock.now_ms();
    state
        .sms_codes()
        .send(&phone, scene, &client_ip(&req), ctx.lang, now)
        .await
        .map_err(input::send_error)?;
    Ok(Reply::new(SentCode {
        expires_in_seconds: seconds_ceil(SMS_CODE_TTL_MS),
        resend_after_seconds: seconds_ceil(SMS_RESEND_COOLDOWN_MS),
    }))
}

/// Registers with phone, SMS code (scene register) and password; the privacy policy must be
/// agreed (`privacyAgreed: true`), and that consent is recorded. Logs the new user in.
#[utoipa::path(tag = "auth", request_body = RegisterRequest,
    responses((status = 200, body = Envelope<LoginReply>), (status = 400), (status = 409)))]
#[post("/auth/register")]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<RegisterRequest>,
) -> ApiResult<Reply<LoginReply>> {
    let (phone, code, password) = match (
        input::phone(body.cell_phone.as_deref()),
        input::sms_code(body.sms_code.as_ref()),
        input::new_password("password", body.password.as_ref()),
        input::privacy_agreed(body.privacy_agreed),
    ) {
        (Ok(p), Ok(c), Ok(pw), Ok(())) => (p, c, pw),
        (p, c, pw, a) => {
            return Err(input::invalid([p.err(), c.err(), pw.err(), a.err()]));
        }
    };
    let now = state.clock.now_ms();
    // The code first: without it nobody learns whether the phone is registered.
    state
        .sms_codes()
        .check(&phone, Scene::Register, &code, now)
        .await
        .map_err(input::check_error)?;
    let users = UserRepo::new(state.db.clone());
    if users.find_by_phone(&phone).await?.is_some() {
        return Err(ApiError::Conflict(ALREADY_REGISTERED));
    }
    let hash = passwords::hash(password.expose().to_owned())
        .await
        .map_err(input::password_error)?;
    let user_id = users
        .create(&phone, Some(&hash), now)
        .await?
        .ok_or(ApiError::Conflict(ALREADY_REGISTERED))?;
    record_agreement(&state, user_id, now).await?;
    login_reply(&state, &req, user_id, true).await
}

/// Logs in by phone and password (userLoginByPassWord). Within 15 minutes, 5 wrong passwords
/// for a phone from one client address lock that phone for that address, and 20 from all
/// addresses lock it everywhere (429 with the seconds left, until the window has passed);
/// logging in with an SMS code is never locked by them.
#[utoipa::path(tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = Envelope<LoginReply>), (status = 400), (status = 429)))]
#[post("/auth/login")]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<LoginRequest>,
) -> ApiResult<Reply<LoginReply>> {
    let (phone, password) = match (
        input::phone(body.cell_phone.as_deref()),
        input::login_password("password", body.password.as_ref()),
    ) {
        (Ok(p), Ok(pw)) => (p, pw),
        (p, pw) => return Err(input::invalid([p.err(), pw.err()])),
    };
    let now = state.clock.now_ms();
    let throttle = state.login_throttle();
    let key = LoginKey::customer(phone.as_str(), &client_ip(&req));
    // Counted as a failure until the password proves right.
    let _attempt = throttle
        .attempt(&key, now)
        .await
        .map_err(input::throttle_error)?;
    let user = UserRepo::new(state.db.clone())
        .find_by_phone(&phone)
        .await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let ok = passwords::verify(password, stored)
        .await
        .map_err(input::password_error)?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(input::wrong_credentials());
    };
    throttle.succeeded(&key).await?;
    login_reply(&state, &req, user.id, false).await
}

/// Logs in by SMS code (fastLogin, scene login). A phone without an account is registered on
/// the spot, which needs `privacyAgreed: true` (recorded as consent). The code is checked
/// (and used up) before anything else, so the answer never tells whether a phone is registered.
#[utoipa::path(tag = "auth", request_body = SmsLoginRequest,
    responses((status = 200, body = Envelope<LoginReply>), (status = 400)))]
#[post("/auth/login/sms")]
pub async fn login_sms(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<SmsLoginRequest>,
) -> ApiResult<Reply<LoginReply>> {
    let (phone, code) = match (
        input::phone(body.cell_phone.as_deref()),
        input::sms_code(body.sms_code.as_ref()),
    ) {
        (Ok(p), Ok(c)) => (p, c),
        (p, c) => return Err(input::invalid([p.err(), c.err()])),
    };
    let now = state.clock.now_ms();
    // The code first: without it nobody learns whether the phone is registered.
    state
        .sms_codes()
        .check(&phone, Scene::Login, &code, now)
        .await
        .map_err(input::check_error)?;
    let agreed = body.privacy_agreed == Some(true);
    let (user_id, new_user) = match existing_or_new(&state, &phone, agreed, now).await? {
        Some(found) => found,
        None => return Err(input::invalid([input::privacy_agreed(None).err()])),
    };
    // An existing user ticking the box again renews an outdated consent.
    if agreed && (new_user || !consent_current(&state, user_id).await?) {
        record_agreement(&state, user_id, now).await?;
    }
    login_reply(&state, &req, user_id, new_user).await
}

/// The account of the phone, or a new one when the user agreed to the policy; None when a
/// new account is needed but the policy was not agreed.
async fn existing_or_new(
    state: &AppState,
    phone: &Phone,
    agreed: bool,
    now: i64,
) -> ApiResult<Option<(i64, bool)>> {
    let users = UserRepo::new(state.db.clone());
    if let Some(user) = users.find_by_phone(phone).await? {
        return Ok(Some((user.id, false)));
    }
    if !agreed {
        return Ok(None);
    }
    match users.create(phone, None, now).await? {
        Some(id) => Ok(Some((id, true))),
        // Another request registered it meanwhile: log into that account.
        None => Ok(users.find_by_phone(phone).await?.map(|u| (u.id, false))),
    }
}

/// Ends this session (logout); the token stops working at once.
#[utoipa::path(tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 401)))]
#[post("/auth/logout")]
pub async fn logout(state: web::Data<AppState>, user: AuthUser) -> ApiResult<Reply<()>> {
    state.sessions().revoke(&user.session).await?;
    Ok(Reply::new(()))
}

/// Sets a new password with an SMS code (resetPassword, scene reset). Every session of the
/// account ends: whoever knew the old password is logged out.
#[utoipa::path(tag = "auth", request_body = ResetPasswordRequest,
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 400), (status = 404)))]
#[post("/auth/password/reset")]
pub async fn reset_password(
    state: web::Data<AppState>,
    body: web::Json<ResetPasswordRequest>,
) -> ApiResult<Reply<()>> {
    let (phone, code, password) = match (
        input::phone(body.cell_phone.as_deref()),
        input::sms_code(body.sms_code.as_ref()),
        input::new_password("password", body.password.as_ref()),
    ) {
        (Ok(p), Ok(c), Ok(pw)) => (p, c, pw),
        (p, c, pw) => {
            return Err(input::invalid([p.err(), c.err(), pw.err()]));
        }
    };
    let now = state.clock.now_ms();
    state
        .sms_codes()
        .check(&phone, Scene::Reset, &code, now)
        .await
        .map_err(input::check_error)?;
    let users = UserRepo::new(state.db.clone());
    let user = users.find_by_phone(&phone).await?.ok_or_else(|| {
        ApiError::not_found("该手机号未注册", "This phone number is not registered")
    })?;
    let hash = passwords::hash(password.expose().to_owned())
        .await
        .map_err(input::password_error)?;
    users.set_password(user.id, &hash, now).await?;
    state.sessions().revoke_user(user.id).await?;
    state.login_throttle().reset(phone.as_str()).await?;
    Ok(Reply::new(()))
}

/// Changes the password (changePassword). The old one is required when the account has one,
/// and wrong old passwords count towards the login throttle. Other sessions end; this one stays.
#[utoipa::path(tag = "auth", request_body = ChangePasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 400), (status = 401), (status = 429)))]
#[post("/auth/password/change")]
pub async fn change_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    auth: AuthUser,
    body: web::Json<ChangePasswordRequest>,
) -> ApiResult<Reply<()>> {
    let new = input::new_password("newPassword", body.new_password.as_ref())
        .map_err(|e| ApiError::Invalid(vec![e]))?;
    let now = state.clock.now_ms();
    let users = UserRepo::new(state.db.clone());
    let user = users
        .get(auth.user_id)
        .await?
        .ok_or(ApiError::SessionExpired)?;
    if let (Some(stored), Some(phone)) = (user.password_hash.clone(), user.phone.as_deref()) {
        let phone = Phone::parse(phone).map_err(|_| ApiError::SessionExpired)?;
        let old = input::login_password("oldPassword", body.old_password.as_ref())
            .map_err(|e| ApiError::Invalid(vec![e]))?;
        let throttle = state.login_throttle();
        let key = LoginKey::customer(phone.as_str(), &client_ip(&req));
        let attempt = throttle
            .attempt(&key, now)
            .await
            .map_err(input::throttle_error)?;
        if !passwords::verify(old, Some(stored))
            .await
            .map_err(input::password_error)?
        {
            return Err(input::wrong_old_password());
        }
        throttle.forgive(attempt).await?;
    }
    let hash = passwords::hash(new.expose().to_owned())
        .await
        .map_err(input::password_error)?;
    users.set_password(user.id, &hash, now).await?;
    state
        .sessions()
        .revoke_others(user.id, &auth.session)
        .await?;
    Ok(Reply::new(()))
}

async fn record_agreement(state: &AppState, user_id: i64, now: i64) -> ApiResult<()> {
    ConsentRepo::new(state.db.clone())
        .record(
            user_id,
            Decision::Agree,
            state.privacy_policy_updated_at,
            now,
        )
        .await?;
    Ok(())
}

/// Logs the user in; a visitor's cart (`X-Cart-Token`) is merged into the user's first.
async fn login_reply(
    state: &AppState,
    req: &HttpRequest,
    user_id: i64,
    new_user: bool,
) -> ApiResult<Reply<LoginReply>> {
    let now = state.clock.now_ms();
    if let Some(token) = crate::http::cart::owner::cart_token(req) {
        // The login matters more than the cart: a failed merge leaves the visitor cart in
        // place (the app can still show it) and is logged.
        if let Err(e) = state.carts.merge_visitor(&token, user_id).await {
            tracing::warn!(error = %e, user_id, "visitor cart not merged at login");
        }
    }
    let (token, expires_at) = state.sessions().create(user_id, now).await?;
    Ok(Reply::new(LoginReply {
        token: token.expose().to_owned(),
        expires_at,
        new_user,
        user: me_dto(state, user_id).await?,
    }))
}
