//! The sandbox payment provider's own pages (API.md "Sandbox"): its cashier, and the call the
//! cashier's buttons make. They exist only while the sandbox is the configured provider.

use crate::http::edge::error::{ApiError, ApiResult};
use crate::providers::payment::sandbox::{
    cashier_not_found_page, cashier_page, SettleError, SettleOutcome, PAGE_SCRIPT, PAGE_STYLE,
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

fn asset(content_type: &str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// The cashier's script, a file of its own: the Content-Security-Policy allows no inline script.
#[get("/sandbox/cashier.js")]
pub async fn cashier_js(state: web::Data<AppState>) -> HttpResponse {
    match &state.sandbox_payments {
        Some(_) => asset("text/javascript; charset=utf-8", PAGE_SCRIPT),
        None => HttpResponse::NotFound().finish(),
    }
}

/// The cashier's style sheet.
#[get("/sandbox/cashier.css")]
pub async fn cashier_css(state: web::Data<AppState>) -> HttpResponse {
    match &state.sandbox_payments {
        Some(_) => asset("text/css; charset=utf-8", PAGE_STYLE),
        None => HttpResponse::NotFound().finish(),
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
    raw: web::Json<serde_json::Value>,
) -> ApiResult<web::Json<PayAnswer>> {
    let Some(sandbox) = &state.sandbox_payments else {
        return Err(ApiError::not_found("接口不存在", "No such endpoint"));
    };
    // Read as JSON first: serde_json calls a number where an enum belongs a syntax error, and
    // this way it is told as the wrong value it is.
    let body: PayBody = serde_json::from_value(raw.into_inner())
        .map_err(|e| crate::http::edge::extractor_errors::body_error(&e))?;
    match sandbox.settle(&path, body.outcome).await {
        Ok(return_url) => Ok(web::Json(PayAnswer { return_url })),
        Err(SettleError::NotFound) => Err(ApiError::not_found("支付记录不存在", "No such payment")),
        Err(SettleError::Expired) => Err(ApiError::conflict(
            "该支付已关闭，无法支付",
            "This payment is closed and cannot be paid",
        )),
        Err(SettleError::AlreadySettled) => Err(ApiError::conflict(
            "该支付已处理，无法再次支付",
            "This payment has already been settled",
        )),
        Err(SettleError::Unavailable(e)) => {
            tracing::error!(error = %e, "the sandbox could not settle");
            Err(ApiError::Unavailable(crate::http::edge::error::Msg::fixed(
                "支付服务暂不可用，请稍后再试",
                "The payment service is unavailable, please try again later",
            )))
        }
    }
}
