//! A staff member changes their tablet PIN from a logged-in tablet (issue 34). Every other
//! tablet session of theirs ends, and its sockets are disconnected on every node; the tablet
//! that changed it stays logged in.

use crate::http::accounts::credentials::{field, password_error, pin_throttle_error};
use crate::http::accounts::dto::Secret;
use crate::http::edge::client_ip::client_ip;
use crate::http::edge::envelope::{Envelope, NoData, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::staff_session::StaffAuth;
use crate::state::AppState;
use actix_web::{post, web, HttpRequest};
use actors::accounts::staff::{PinChange, PinChangeError};
use actors::domain::lang::Lang;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PinChangeBody {
    /// The current PIN.
    #[schema(value_type = String, format = Password)]
    pin: Option<Secret>,
    /// 6 to 12 digits, not one digit repeated nor a run (123456), not the current one.
    #[schema(value_type = String, format = Password)]
    new_pin: Option<Secret>,
}

/// Changes the PIN of the tablet's staff member. A wrong current PIN counts towards the PIN
/// login lock (429 when locked); the staff member's other tablets are logged out.
#[utoipa::path(tag = "tablet", request_body = PinChangeBody,
    responses((status = 200, body = Envelope<NoData>, description = "data is null"),
        (status = 400), (status = 401), (status = 429)))]
#[post("/tablet/pin")]
pub async fn change_pin(
    state: web::Data<AppState>,
    req: HttpRequest,
    staff: StaffAuth,
    body: web::Json<PinChangeBody>,
) -> ApiResult<Reply<()>> {
    let text = |s: &Option<Secret>| {
        s.as_ref()
            .map(Secret::expose)
            .unwrap_or_default()
            .to_string()
    };
    let (current, new) = (text(&body.pin), text(&body.new_pin));
    let change = PinChange {
        session: &staff.session,
        token_hash: &staff.token_hash,
        current: &current,
        new: &new,
        client_ip: &client_ip(&req),
    };
    state
        .staff_sessions()
        .change_pin(change, &state.login_throttle(), state.clock.now_ms())
        .await
        .map_err(pin_change_error)?;
    Ok(Reply::new(()))
}

fn pin_change_error(e: PinChangeError) -> ApiError {
    match e {
        PinChangeError::WrongPin => ApiError::Invalid(vec![field("pin", |l| match l {
            Lang::Zh => "PIN错误".into(),
            Lang::En => "The PIN is wrong".into(),
        })]),
        PinChangeError::Rule(rule) => {
            ApiError::Invalid(vec![field("newPin", |l| rule.message(l).into())])
        }
        PinChangeError::Throttle(e) => pin_throttle_error(e),
        PinChangeError::Password(e) => password_error(e),
        PinChangeError::Db(e) => e.into(),
    }
}
