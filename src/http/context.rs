//! The request context: language (Accept-Language), channel (X-Channel-Id) and request id.
//! Parsed once by middleware at the edge of /api; handlers take `Ctx` and trust it.

use super::error::ApiError;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, ResponseError};
use actors::domain::channel::Channel;
use actors::domain::lang::Lang;
use std::future::{ready, Ready};

tokio::task_local! {
    static LANG: Lang;
}

/// The language of the request being served (zh outside a request).
pub fn current_lang() -> Lang {
    LANG.try_with(|lang| *lang).unwrap_or_default()
}

#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    pub lang: Lang,
    pub channel: Channel,
}

const CHANNEL_HEADER: &str = "x-channel-id";

/// Reads the language, refuses an unknown channel (a missing one is the web), and runs the
/// rest of the request with its language in scope so errors render in it. The app-wide
/// [`language`] middleware has put it in scope already: it is read, not parsed again.
pub async fn request_context(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    match LANG.try_with(|lang| *lang) {
        Ok(lang) => with_context(lang, req, next).await,
        Err(_) => {
            let lang = accept_language(&req);
            LANG.scope(lang, with_context(lang, req, next)).await
        }
    }
}

async fn with_context(
    lang: Lang,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let channel = match req.headers().get(CHANNEL_HEADER) {
        None => Some(Channel::Web),
        Some(v) => v.to_str().ok().and_then(Channel::parse),
    };
    let Some(channel) = channel else {
        let (http_req, _) = req.into_parts();
        let res = ApiError::UnknownChannel.error_response();
        return Ok(ServiceResponse::new(http_req, res));
    };
    req.extensions_mut().insert(Ctx { lang, channel });
    next.call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

fn accept_language(req: &ServiceRequest) -> Lang {
    Lang::from_accept_language(
        req.headers()
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// Runs any request, inside the API or not (the sandbox cashier's calls, the app's files), with
/// its language in scope, so an error rendered before a handler runs (a malformed body, say)
/// is in the request's language too.
pub async fn language(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let lang = accept_language(&req);
    LANG.scope(lang, next.call(req)).await
}

impl FromRequest for Ctx {
    type Error = ApiError;
    type Future = Ready<Result<Ctx, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Outside /api the middleware does not run; fall back to the defaults.
        let ctx = req.extensions().get::<Ctx>().copied().unwrap_or(Ctx {
            lang: current_lang(),
            channel: Channel::Web,
        });
        ready(Ok(ctx))
    }
}
