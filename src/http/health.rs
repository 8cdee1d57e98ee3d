//! Liveness (the process answers) and readiness (the database, and later the bus, answer).

use crate::state::AppState;
use actix_web::{get, web, HttpResponse};
use serde_json::json;

#[utoipa::path(tag = "health", responses((status = 200, description = "the process is up")))]
#[get("/health/live")]
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": "live"}))
}

#[utoipa::path(tag = "health", responses(
    (status = 200, description = "ready to serve"),
    (status = 503, description = "a dependency does not answer")
))]
#[get("/health/ready")]
pub async fn ready(state: web::Data<AppState>) -> HttpResponse {
    match state.db.ping().await {
        Ok(()) => HttpResponse::Ok().json(json!({"status": "ready", "database": "ok"})),
        Err(err) => {
            tracing::warn!(error = %err, "readiness: database does not answer");
            HttpResponse::ServiceUnavailable()
                .json(json!({"status": "unavailable", "database": "down"}))
        }
    }
}
