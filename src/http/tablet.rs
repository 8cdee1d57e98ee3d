//! The store tablet's API: staff login (store code, staff code, PIN). The order queue and its
//! moves come with the order actor.

use super::context::Ctx;
use super::credentials::{password_error, throttle_error};
use super::dto::pick;
use super::envelope::{Envelope, Reply};
use super::error::{ApiError, ApiResult, Msg};
use super::params;
use super::staff_session::StaffAuth;
use crate::state::AppState;
use actix_web::{post, web};
use actors::accounts::passwords;
use actors::accounts::secrets::Token;
use actors::db::staff::StaffRepo;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletLoginBody {
    store_code: String,
    staff_code: String,
    pin: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletLoginDto {
    /// Bearer token for the tablet endpoints and the /store namespace (auth `{token}`).
    pub token: String,
    pub expires_at: i64,
    pub store_code: String,
    pub store_name: String,
    pub staff_name: String,
}

fn wrong_pin() -> ApiError {
    ApiError::BadInput(Msg::fixed(
        "门店、工号或PIN错误",
        "Wrong store, staff code or PIN",
    ))
}

/// Logs a tablet in. Five wrong PINs for a staff code within 15 minutes lock it for the rest
/// of the window (429), like customer passwords.
#[utoipa::path(tag = "tablet", request_body = TabletLoginBody,
    responses((status = 200, body = inline(Envelope<TabletLoginDto>)), (status = 400), (status = 429)))]
#[post("/tablet/login")]
pub async fn login(
    state: web::Data<AppState>,
    ctx: Ctx,
    body: web::Json<TabletLoginBody>,
) -> ApiResult<Reply<TabletLoginDto>> {
    let store_code = params::code("storeCode", &body.store_code).map_err(|_| wrong_pin())?;
    let staff_code = params::code("staffCode", &body.staff_code).map_err(|_| wrong_pin())?;
    let pin = body.pin.trim();
    if pin.is_empty() || pin.len() > 32 {
        return Err(wrong_pin());
    }
    let now = state.clock.now_ms();
    let throttle = state.login_throttle();
    let key = format!("staff:{store_code}:{staff_code}");
    let _attempt = throttle.attempt(&key, now).await.map_err(throttle_error)?;
    let repo = StaffRepo::new(state.db.clone());
    let staff = repo.find(&store_code, &staff_code).await?;
    let ok = passwords::verify(pin.to_string(), staff.as_ref().map(|s| s.pin_hash.clone()))
        .await
        .map_err(password_error)?;
    let Some(staff) = staff.filter(|_| ok) else {
        return Err(wrong_pin());
    };
    throttle.succeeded(&key).await?;
    let token = Token::generate();
    let expires_at = repo.create_session(&token.hash(), &staff, now).await?;
    let snapshot = state.catalogue.get().await;
    let store_name = snapshot
        .store(&staff.store_code)
        .map(|s| pick(&s.name, ctx.lang))
        .unwrap_or_default();
    tracing::info!(store = %staff.store_code, staff = %staff.staff_code, "tablet logged in");
    Ok(Reply::new(TabletLoginDto {
        token: token.expose().to_string(),
        expires_at,
        store_code: staff.store_code,
        store_name,
        staff_name: staff.name,
    }))
}

/// Ends the tablet's session.
#[utoipa::path(tag = "tablet", responses((status = 200), (status = 401)))]
#[post("/tablet/logout")]
pub async fn logout(state: web::Data<AppState>, staff: StaffAuth) -> ApiResult<Reply<()>> {
    StaffRepo::new(state.db.clone())
        .delete_session(&staff.token_hash)
        .await?;
    Ok(Reply::new(()))
}
