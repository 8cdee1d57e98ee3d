//! Liveness (the process answers) and readiness (the database and the event bus answer).

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
    let database = state.db.ping().await;
    let bus = state.bus.ping().await;
    if let Err(err) = &database {
        tracing::warn!(error = %err, "readiness: database does not answer");
    }
    if let Err(err) = &bus {
        tracing::warn!(error = %err, "readiness: event bus does not answer");
    }
    let word = |ok: bool| if ok { "ok" } else { "down" };
    let body = json!({
        "status": if database.is_ok() && bus.is_ok() { "ready" } else { "unavailable" },
        "database": word(database.is_ok()),
        "bus": word(bus.is_ok()),
    });
    if database.is_ok() && bus.is_ok() {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
