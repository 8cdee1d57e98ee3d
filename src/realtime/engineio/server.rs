//! The Engine.IO server: the engine value kept in app data, the route, and the checks every
//! request passes before it reaches a transport (answered like the reference server).

use super::config::EngineConfig;
use super::handler::{EngineHandler, EngineSocket, RequestInfo, TransportKind};
use super::polling;
use super::session::Shared;
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use std::collections::HashMap;
use std::sync::Arc;

/// An Engine.IO v4 server over a handler. Mount it with [`configure`].
pub struct EngineIo<H: EngineHandler> {
    shared: Arc<Shared>,
    handler: Arc<H>,
}

impl<H: EngineHandler> EngineIo<H> {
    pub fn new(handler: H, config: EngineConfig) -> Self {
        Self::with_handler(Arc::new(handler), config)
    }

    /// An engine over a handler the caller keeps a reference to.
    pub fn with_handler(handler: Arc<H>, config: EngineConfig) -> Self {
        let shared = Shared::new(config, Arc::clone(&handler) as Arc<dyn EngineHandler>);
        EngineIo { shared, handler }
    }

    pub fn handler(&self) -> &Arc<H> {
        &self.handler
    }

    pub fn config(&self) -> &EngineConfig {
        &self.shared.config
    }

    pub(crate) fn shared(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    /// The open session with this id.
    pub fn socket(&self, sid: &str) -> Option<EngineSocket> {
        self.shared.get(sid).map(EngineSocket::new)
    }

    /// How many sessions are open.
    pub fn session_count(&self) -> usize {
        self.shared.len()
    }

    /// Closes every session (e.g. on shutdown).
    pub fn close_all(&self) {
        for session in self.shared.all() {
            session.server_close();
        }
    }
}

/// Mounts the engine at `path` (e.g. `/engine.io/` or `/socket.io/`): GET and POST for
/// polling, GET with `transport=websocket` for the WebSocket. Other methods are answered
/// with the protocol's errors.
pub fn configure<H: EngineHandler>(
    cfg: &mut web::ServiceConfig,
    path: &str,
    engine: Arc<EngineIo<H>>,
) {
    let shared = web::Data::from(Arc::clone(&engine.shared));
    cfg.service(
        web::resource(path)
            .app_data(shared)
            .app_data(web::Data::from(engine))
            .default_service(web::to(handle)),
    );
}

/// The protocol's request errors, answered as HTTP 400 (403 for `Forbidden`) with
/// `{"code": n, "message": "..."}`, as the reference server does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestError {
    UnknownTransport = 0,
    UnknownSid = 1,
    BadHandshakeMethod = 2,
    BadRequest = 3,
    Forbidden = 4,
    UnsupportedProtocolVersion = 5,
}

impl RequestError {
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn message(self) -> &'static str {
        match self {
            RequestError::UnknownTransport => "Transport unknown",
            RequestError::UnknownSid => "Session ID unknown",
            RequestError::BadHandshakeMethod => "Bad handshake method",
            RequestError::BadRequest => "Bad request",
            RequestError::Forbidden => "Forbidden",
            RequestError::UnsupportedProtocolVersion => "Unsupported protocol version",
        }
    }

    /// The JSON body of the error response.
    pub fn body(self) -> serde_json::Value {
        serde_json::json!({
            "code": self.code(),
            "message": self.message(),
        })
    }

    /// 403 for `Forbidden`, 400 for the rest.
    pub fn status(self) -> StatusCode {
        match self {
            RequestError::Forbidden => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    pub fn response(self) -> HttpResponse {
        HttpResponse::build(self.status()).json(self.body())
    }
}

async fn handle(req: HttpRequest, body: web::Payload, shared: web::Data<Shared>) -> HttpResponse {
    route(&req, body, shared.into_inner())
        .await
        .unwrap_or_else(RequestError::response)
}

/// The query every engine request carries.
pub(crate) struct EngineQuery {
    pub(crate) transport: TransportKind,
    /// `EIO=4`.
    pub(crate) eio_ok: bool,
    pub(crate) sid: Option<String>,
}

impl EngineQuery {
    pub(crate) fn parse(query: &str) -> Result<Self, RequestError> {
        let mut query = web::Query::<HashMap<String, String>>::from_query(query)
            .map_err(|_| RequestError::BadRequest)?
            .into_inner();
        let transport = match query.get("transport").map(String::as_str) {
            Some("polling") => TransportKind::Polling,
            Some("websocket") => TransportKind::WebSocket,
            _ => return Err(RequestError::UnknownTransport),
        };
        Ok(EngineQuery {
            transport,
            eio_ok: query.get("EIO").map(String::as_str) == Some("4"),
            sid: query.remove("sid"),
        })
    }
}

/// Polling requests, and WebSocket requests that are not real upgrades. (Real upgrades never
/// get here: [`super::listen`] hands them to [`super::upgrade`] first.)
async fn route(
    req: &HttpRequest,
    body: web::Payload,
    shared: Arc<Shared>,
) -> Result<HttpResponse, RequestError> {
    let query = EngineQuery::parse(req.query_string())?;
    let Some(sid) = query.sid else {
        // A handshake: GET only, over polling, in protocol 4.
        if req.method() != Method::GET {
            return Err(RequestError::BadHandshakeMethod);
        }
        if query.transport == TransportKind::WebSocket {
            return Err(RequestError::BadRequest);
        }
        if !query.eio_ok {
            return Err(RequestError::UnsupportedProtocolVersion);
        }
        return Ok(polling::handshake(&shared, request_info(req)));
    };

    if !query.eio_ok {
        return Err(RequestError::UnsupportedProtocolVersion);
    }
    let session = shared
        .get(&sid)
        .filter(|session| session.check_alive())
        .ok_or(RequestError::UnknownSid)?;
    if query.transport == TransportKind::WebSocket || session.transport() != TransportKind::Polling
    {
        return Err(RequestError::BadRequest);
    }
    match *req.method() {
        Method::GET => Ok(polling::poll(session).await),
        Method::POST => Ok(polling::post(session, req, body).await),
        _ => Err(RequestError::BadRequest),
    }
}

fn request_info(req: &HttpRequest) -> RequestInfo {
    RequestInfo::detached(req.uri(), req.headers(), req.peer_addr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_and_messages_match_the_reference_server() {
        let cases = [
            (RequestError::UnknownTransport, 0, "Transport unknown"),
            (RequestError::UnknownSid, 1, "Session ID unknown"),
            (RequestError::BadHandshakeMethod, 2, "Bad handshake method"),
            (RequestError::BadRequest, 3, "Bad request"),
            (RequestError::Forbidden, 4, "Forbidden"),
            (
                RequestError::UnsupportedProtocolVersion,
                5,
                "Unsupported protocol version",
            ),
        ];
        for (error, code, message) in cases {
            assert_eq!((error.code(), error.message()), (code, message));
        }
        assert_eq!(
            RequestError::Forbidden.response().status(),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            RequestError::UnknownSid.response().status(),
            StatusCode::BAD_REQUEST
        );
    }
}
