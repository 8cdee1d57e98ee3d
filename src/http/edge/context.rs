//! The request context: language (Accept-Language), channel (X-Channel-Id) and request id.
//! Parsed once at the edge ([`crate::http::edge`]) into a task-local for the whole request; handlers
//! take `Ctx` and trust it. (A task-local, not the request's extensions: those are a map with
//! a boxed value, a few hundred instructions a request for two bytes of facts.)

use crate::http::edge::error::ApiError;
use crate::http::edge::request_log::RequestId;
use actix_web::dev::Payload;
use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpRequest};
use actors::domain::channel::Channel;
use actors::domain::lang::Lang;
use std::future::{ready, Ready};

/// What the code serving a request may ask about it from anywhere, through [`current_lang`]
/// and [`current_request_id`]: errors render in its language, log lines carry its id. One
/// task-local for both, set by the edge for the whole request.
#[derive(Debug, Clone, Copy)]
pub struct RequestScope {
    pub lang: Lang,
    pub id: RequestId,
    /// The API's channel; the web outside the API, where the edge does not read it.
    pub channel: Channel,
}

tokio::task_local! {
    pub(super) static SCOPE: RequestScope;
}

/// The language of the request being served (zh outside a request).
pub fn current_lang() -> Lang {
    SCOPE.try_with(|scope| scope.lang).unwrap_or_default()
}

/// The id of the request being served, for the lines its handlers write (`crate::telemetry`).
pub fn current_request_id() -> Option<RequestId> {
    SCOPE.try_with(|scope| scope.id).ok()
}

#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    pub lang: Lang,
    pub channel: Channel,
}

const CHANNEL_HEADER: actix_web::http::header::HeaderName =
    actix_web::http::header::HeaderName::from_static("x-channel-id");

/// The request's channel: a missing header is the web; None for one we do not know, which the
/// API refuses.
pub fn channel(headers: &HeaderMap) -> Option<Channel> {
    match headers.get(CHANNEL_HEADER) {
        None => Some(Channel::Web),
        Some(v) => v.to_str().ok().and_then(Channel::parse),
    }
}

pub fn accept_language(headers: &HeaderMap) -> Lang {
    Lang::from_accept_language(
        headers
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

impl FromRequest for Ctx {
    type Error = ApiError;
    type Future = Ready<Result<Ctx, ApiError>>;

    fn from_request(_: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Outside a request the edge served (a unit test's), the defaults.
        let ctx = SCOPE
            .try_with(|scope| Ctx {
                lang: scope.lang,
                channel: scope.channel,
            })
            .unwrap_or(Ctx {
                lang: Lang::default(),
                channel: Channel::Web,
            });
        ready(Ok(ctx))
    }
}

/// The text in the request's language, owned for a DTO (English falls back to Chinese).
pub fn pick(text: &actors::domain::catalogue::Bilingual, lang: Lang) -> String {
    lang.pick(text).to_string()
}
