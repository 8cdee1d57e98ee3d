//! The request context: language (Accept-Language), channel (X-Channel-Id) and request id.
//! Parsed once by middleware at the edge of /api; handlers take `Ctx` and trust it.

use super::access_log::AccessLog;
use super::error::ApiError;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest, ResponseError};
use actors::domain::channel::Channel;
use actors::domain::lang::Lang;
use std::future::{ready, Ready};
use tracing_actix_web::RequestId;

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
/// rest of the request with its language in scope so errors render in it.
pub async fn request_context(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let lang = Lang::from_accept_language(
        req.headers()
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    let channel = match req.headers().get(CHANNEL_HEADER) {
        None => Some(Channel::Web),
        Some(v) => v.to_str().ok().and_then(Channel::parse),
    };
    LANG.scope(lang, async move {
        let Some(channel) = channel else {
            let (http_req, _) = req.into_parts();
            let res = ApiError::UnknownChannel.error_response();
            return Ok(ServiceResponse::new(http_req, res));
        };
        req.extensions_mut().insert(Ctx { lang, channel });
        next.call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body)
    })
    .await
}

/// Runs any request, inside the API or not (the sandbox cashier's calls, the app's files), with
/// its language in scope, so an error rendered before a handler runs (a malformed body, say)
/// is in the request's language too.
pub async fn language(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let lang = Lang::from_accept_language(
        req.headers()
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    LANG.scope(lang, next.call(req)).await
}

/// Echoes the request id (the one tracing puts on the request's span) as `X-Request-Id`, and
/// logs one line per request as `[log] access_sample` says (every one without it); it runs
/// inside the request's span, so the line carries its fields.
pub async fn request_id_and_log(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req.extensions().get::<RequestId>().copied();
    let policy = req.app_data::<web::Data<AccessLog>>().cloned();
    let started = std::time::Instant::now();
    let mut res = next.call(req).await?;
    let status = res.status().as_u16();
    let elapsed = started.elapsed();
    if policy.is_none_or(|p| p.should_log(status, elapsed)) {
        tracing::info!(
            status,
            elapsed_ms = elapsed.as_secs_f64() * 1000.0,
            "request"
        );
    }
    if let Some(id) = id {
        if let Ok(value) = HeaderValue::from_str(&id.to_string()) {
            res.headers_mut()
                .insert(HeaderName::from_static("x-request-id"), value);
        }
    }
    Ok(res)
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

/// The request's span, as tracing-actix-web's default builds it but with the client address
/// from our trusted proxies rule: the default believes X-Forwarded-For from anyone.
pub struct RootSpan;

impl tracing_actix_web::RootSpanBuilder for RootSpan {
    fn on_request_start(request: &ServiceRequest) -> tracing::Span {
        let request_id = request
            .extensions()
            .get::<RequestId>()
            .map(|id| id.to_string())
            .unwrap_or_default();
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let client_ip = super::client_ip::client_ip(request.request());
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.client_ip = %client_ip,
            http.target = %request.uri().path_and_query().map(|p| p.as_str()).unwrap_or(""),
            http.status_code = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
            request_id = %request_id,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(
        span: tracing::Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
