//! Liveness (the process answers) and readiness (the database and the event bus answer).

use crate::state::AppState;
use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LiveStatus {
    Live,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Liveness {
    pub status: LiveStatus,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadyStatus {
    Ready,
    Unavailable,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Dependency {
    Ok,
    Down,
}

/// Not the envelope: load balancers and probes read these.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    pub status: ReadyStatus,
    pub database: Dependency,
    pub bus: Dependency,
}

#[utoipa::path(tag = "health",
    responses((status = 200, description = "the process is up", body = inline(Liveness))))]
#[get("/health/live")]
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(Liveness {
        status: LiveStatus::Live,
    })
}

#[utoipa::path(tag = "health", responses(
    (status = 200, description = "ready to serve", body = inline(Readiness)),
    (status = 503, description = "a dependency does not answer", body = inline(Readiness))
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
    let word = |ok: bool| if ok { Dependency::Ok } else { Dependency::Down };
    let ready = database.is_ok() && bus.is_ok();
    let body = Readiness {
        status: if ready {
            ReadyStatus::Ready
        } else {
            ReadyStatus::Unavailable
        },
        database: word(database.is_ok()),
        bus: word(bus.is_ok()),
    };
    if ready {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
