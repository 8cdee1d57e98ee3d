//! Development helpers that exist only while the sandbox providers are configured; with real
//! providers they answer 404 like any unknown path.

use crate::http::accounts::credentials;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::providers::sms::OutboxMessage;
use crate::state::AppState;
use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct OutboxQuery {
    cell_phone: Option<String>,
}

/// What the sandbox SMS provider "sent" to a phone, newest first: how people and tests read
/// their verification codes. 404 unless the sandbox SMS provider is configured.
#[utoipa::path(tag = "dev", params(OutboxQuery),
    responses((status = 200, body = Envelope<Vec<OutboxMessage>>), (status = 400), (status = 404)))]
#[get("/dev/sms-outbox")]
pub async fn sms_outbox(
    state: web::Data<AppState>,
    query: web::Query<OutboxQuery>,
) -> ApiResult<Reply<Vec<OutboxMessage>>> {
    let Some(outbox) = &state.sms_outbox else {
        return Err(ApiError::not_found("接口不存在", "No such endpoint"));
    };
    let phone =
        credentials::phone(query.cell_phone.as_deref()).map_err(|e| ApiError::Invalid(vec![e]))?;
    Ok(Reply::new(outbox.sent_to(&phone)))
}
