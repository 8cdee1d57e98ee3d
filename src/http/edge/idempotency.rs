//! The `Idempotency-Key` header (API.md): the same key and body within 24 hours answers the
//! first answer again; the same key with another body is 409. Order submit records its answer
//! in the transaction that creates the order (the cart's version keeps a concurrent twin from
//! creating a second). Payment create has no such guard, so it claims the key first
//! ([`Idempotency::begin`]): a twin arriving while the first is at work, on any node, waits for
//! its answer (or, past [`WAIT`], is told it is still being processed: 409) and never does the
//! work a second time.

use crate::http::edge::envelope::Envelope;
use crate::http::edge::error::{ApiError, ApiResult};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use actors::db::idempotency::{Claim, IdempotencyRepo, Recorded};
use actors::db::Db;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};

const HEADER: &str = "Idempotency-Key";
/// How long a request waits for the answer of a twin holding its key. Well past a payment
/// create's usual time, under the app's 20 s request timeout.
pub const WAIT: Duration = Duration::from_secs(10);
/// The first look again after this; each next one waits twice as long, at most [`POLL_MAX`].
const POLL_FIRST: Duration = Duration::from_millis(10);
const POLL_MAX: Duration = Duration::from_millis(100);

/// What a request with a key does: answer what its key already answered, or the work.
pub enum Begun {
    Replay(HttpResponse),
    Work(KeyClaim),
}

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

    /// Claims the key for this request (no key: nothing to claim): the work is this request's
    /// to do, or the key's first answer is replayed. A twin at work with the same body is
    /// waited for; one with another body is the usual 409.
    pub async fn begin(&self, state: &AppState) -> ApiResult<Begun> {
        let Some(key) = &self.key else {
            return Ok(Begun::Work(KeyClaim::none()));
        };
        let repo = IdempotencyRepo::new(state.db.clone());
        let token = uuid::Uuid::new_v4().simple().to_string();
        let since = Instant::now();
        let mut poll = POLL_FIRST;
        loop {
            let claim = repo
                .claim(
                    &self.scope,
                    key,
                    &self.body_hash,
                    &token,
                    state.clock.now_ms(),
                )
                .await?;
            match claim {
                Claim::Held => {
                    return Ok(Begun::Work(KeyClaim {
                        held: Some(Held {
                            db: state.db.clone(),
                            scope: self.scope.clone(),
                            key: key.clone(),
                            token,
                        }),
                    }))
                }
                Claim::Answered(r) if r.body_hash == self.body_hash => {
                    return Ok(Begun::Replay(replay(&r)))
                }
                Claim::Answered(_) => return Err(another_body()),
                Claim::Busy {
                    body_hash: Some(theirs),
                } if theirs != self.body_hash => return Err(another_body()),
                Claim::Busy { .. } if since.elapsed() >= WAIT => return Err(still_in_progress()),
                Claim::Busy { .. } => {
                    tokio::time::sleep(poll).await;
                    poll = (poll * 2).min(POLL_MAX);
                }
            }
        }
    }
}

fn another_body() -> ApiError {
    ApiError::conflict(
        "该请求已提交过不同的内容",
        "This Idempotency-Key was already used with another request",
    )
}

fn still_in_progress() -> ApiError {
    ApiError::conflict(
        "相同的请求正在处理中，请稍后再试",
        "The same request is still being processed; please try again shortly",
    )
}

/// The claim a request holds on its key while it works. Answer it ([`KeyClaim::answer`]) or
/// release it ([`KeyClaim::release`]); one dropped without either (the request was cancelled
/// midway) is released in the background.
pub struct KeyClaim {
    held: Option<Held>,
}

struct Held {
    db: Db,
    scope: String,
    key: String,
    token: String,
}

impl KeyClaim {
    fn none() -> KeyClaim {
        KeyClaim { held: None }
    }

    /// Writes the answer for the key's twins and later replays. The work is done whatever
    /// happens here, so a failure is logged, not answered: the claim then stays until its
    /// lease runs out (twins wait, then hear 409), and a retry after it redoes the request,
    /// which a payment create answers with the attempt it opened.
    pub async fn answer(mut self, state: &AppState, recorded: &Recorded) {
        let Some(held) = self.held.take() else {
            return;
        };
        let repo = IdempotencyRepo::new(held.db.clone());
        let now = state.clock.now_ms();
        match repo
            .answer_claim(&held.scope, &held.key, &held.token, recorded, now)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(scope = %held.scope, "idempotency claim taken over before its answer; the other request's answer stands")
            }
            Err(e) => {
                tracing::warn!(error = %e, scope = %held.scope, "idempotency answer not recorded")
            }
        }
    }

    /// The work failed: the next request with the key does it again.
    pub async fn release(mut self) {
        if let Some(held) = self.held.take() {
            held.release().await;
        }
    }
}

impl Held {
    async fn release(self) {
        let repo = IdempotencyRepo::new(self.db);
        if let Err(e) = repo
            .release_claim(&self.scope, &self.key, &self.token)
            .await
        {
            // Its lease runs out and the next request with the key takes it over.
            tracing::warn!(error = %e, scope = %self.scope, "idempotency claim not released");
        }
    }
}

impl Drop for KeyClaim {
    fn drop(&mut self) {
        if let (Some(held), Ok(runtime)) = (self.held.take(), tokio::runtime::Handle::try_current())
        {
            runtime.spawn(held.release());
        }
    }
}

fn replay(recorded: &Recorded) -> HttpResponse {
    HttpResponse::build(StatusCode::from_u16(recorded.status).unwrap_or(StatusCode::OK))
        .insert_header(("Idempotent-Replayed", "true"))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(&recorded.response)
}
