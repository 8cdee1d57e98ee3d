//! The sandbox payment provider's own pages (API.md "Sandbox"): its cashier, and the call the
//! cashier's buttons make. They exist only while the sandbox is the configured provider.

use super::error::{ApiError, ApiResult};
use crate::providers::payment::sandbox::{
    cashier_not_found_page, cashier_page, SettleError, SettleOutcome,
};
use crate::state::AppState;
use actix_web::{get, post, web, HttpResponse};
use serde::Deserialize;

fn html(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(body)
}

/// The cashier: amount, merchant, order number, Pay / Fail / Cancel.
#[get("/sandbox/cashier/{paymentId}")]
pub async fn cashier(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let Some(sandbox) = &state.sandbox_payments else {
        return HttpResponse::NotFound().finish();
    };
    match sandbox.cashier_view(&path).await {
        Ok(Some(view)) => html(actix_web::http::StatusCode::OK, cashier_page(&view)),
        Ok(None) => html(
            actix_web::http::StatusCode::NOT_FOUND,
            cashier_not_found_page(),
        ),
        Err(e) => {
            tracing::error!(error = %e, "the sandbox cashier could not read its ledger");
            HttpResponse::ServiceUnavailable()
                .insert_header((actix_web::http::header::RETRY_AFTER, "5"))
                .finish()
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct PayBody {
    outcome: SettleOutcome,
}

#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayAnswer {
    return_url: String,
}

/// The payer's choice: the sandbox settles, then POSTs its signed notify to us (retrying until
/// we answer success) and answers where the browser goes back to.
#[post("/sandbox/api/pay/{paymentId}")]
pub async fn pay(
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Json<PayBody>,
) -> ApiResult<web::Json<PayAnswer>> {
    let Some(sandbox) = &state.sandbox_payments else {
        return Err(ApiError::not_found("接口不存在", "No such endpoint"));
    };
    match sandbox.settle(&path, body.outcome).await {
        Ok(return_url) => Ok(web::Json(PayAnswer { return_url })),
        Err(SettleError::NotFound) => Err(ApiError::not_found("支付记录不存在", "No such payment")),
        Err(e @ (SettleError::Expired | SettleError::AlreadySettled)) => Err(ApiError::conflict(
            format!("无法支付：{e}"),
            format!("Cannot pay: {e}"),
        )),
        Err(SettleError::Unavailable(e)) => {
            tracing::error!(error = %e, "the sandbox could not settle");
            Err(ApiError::Unavailable(super::error::Msg::fixed(
                "支付服务暂不可用，请稍后再试",
                "The payment service is unavailable, please try again later",
            )))
        }
    }
}
