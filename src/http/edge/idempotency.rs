//! The `Idempotency-Key` header (API.md): the same key and body within 24 hours answers the
//! first answer again; the same key with another body is 409. Order submit and payment create
//! use it; each records its answer in the transaction that does the work where it can.

use crate::http::edge::envelope::Envelope;
use crate::http::edge::error::{ApiError, ApiResult};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use actors::db::idempotency::{record_in, IdempotencyRepo, Recorded};
use serde::Serialize;
use sha2::{Digest, Sha256};

const HEADER: &str = "Idempotency-Key";

/// A request's key (when it sent one), its scope (the caller and the operation) and its body's
/// hash.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub scope: String,
    pub key: Option<String>,
    pub body_hash: String,
}

impl Idempotency {
    /// Reads the header: 1–64 visible ASCII characters (clients send a uuid).
    pub fn of(
        req: &HttpRequest,
        scope: String,
        body: &serde_json::Value,
    ) -> ApiResult<Idempotency> {
        let key = match req.headers().get(HEADER) {
            None => None,
            Some(value) => {
                let key = value.to_str().unwrap_or("").trim();
                if key.is_empty() || key.len() > 64 || !key.bytes().all(|b| b.is_ascii_graphic()) {
                    return Err(ApiError::bad_input(
                        "Idempotency-Key 无效",
                        "Idempotency-Key must be 1-64 visible ASCII characters",
                    ));
                }
                Some(key.to_string())
            }
        };
        // serde_json orders object keys, so the hash ignores key order and spacing.
        let body_hash = actors::hex::encode(&Sha256::digest(body.to_string().as_bytes()));
        Ok(Idempotency {
            scope,
            key,
            body_hash,
        })
    }

    /// The first answer to this key, replayed; 409 when the key came with another body.
    pub async fn recorded(&self, state: &AppState) -> ApiResult<Option<HttpResponse>> {
        let Some(key) = &self.key else {
            return Ok(None);
        };
        match IdempotencyRepo::new(state.db.clone())
            .find(&self.scope, key, state.clock.now_ms())
            .await?
        {
            Some(r) if r.body_hash == self.body_hash => Ok(Some(replay(&r))),
            Some(_) => Err(ApiError::conflict(
                "该请求已提交过不同的内容",
                "This Idempotency-Key was already used with another request",
            )),
            None => Ok(None),
        }
    }

    /// The envelope of a successful answer, as it is recorded.
    pub fn answer<T: Serialize>(&self, data: T) -> Recorded {
        Recorded {
            body_hash: self.body_hash.clone(),
            status: 200,
            response: serde_json::to_value(Envelope {
                err_code: "00".into(),
                err_msg: String::new(),
                data,
            })
            .unwrap_or_default(),
        }
    }

    /// Records an answer on its own (when the work had no transaction of ours to join).
    pub async fn record<T: Serialize>(&self, state: &AppState, data: T) -> ApiResult<()> {
        let Some(key) = &self.key else {
            return Ok(());
        };
        let mut tx = state
            .db
            .pool()
            .begin()
            .await
            .map_err(actors::db::DbError::from)?;
        record_in(
            &mut tx,
            &self.scope,
            key,
            &self.answer(data),
            state.clock.now_ms(),
        )
        .await?;
        tx.commit().await.map_err(actors::db::DbError::from)?;
        Ok(())
    }
}

fn replay(recorded: &Recorded) -> HttpResponse {
    HttpResponse::build(StatusCode::from_u16(recorded.status).unwrap_or(StatusCode::OK))
        .insert_header(("Idempotent-Replayed", "true"))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(&recorded.response)
}
