//! The logged-in user as an extractor: a handler that needs one takes `AuthUser`. No
//! Authorization header is errCode 401 (log in); a token that is expired, logged out, of a
//! closed account or unknown is 407 (登录过期!), on which the app clears its storage.

use super::error::ApiError;
use crate::state::AppState;
use actix_web::dev::Payload;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{web, FromRequest, HttpRequest};
use actors::accounts::secrets::Token;
use actors::accounts::sessions::{Session, SessionError};
use std::future::Future;
use std::pin::Pin;

#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: i64,
    /// The session this request came with, to log it out or keep it on a password change.
    pub session: Session,
}

/// The token of `Authorization: Bearer <token>`, if the header holds one.
pub fn bearer(req: &HttpRequest) -> Option<Token> {
    let value = req.headers().get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| Token::from_client(token))
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<AuthUser, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let token = token.ok_or(ApiError::LoginRequired)?;
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let now = state.clock.now_ms();
            match state.sessions().resolve(&token, now).await {
                Ok(session) => Ok(AuthUser {
                    user_id: session.user_id,
                    session,
                }),
                Err(SessionError::Expired) => Err(ApiError::SessionExpired),
                Err(SessionError::Store(e)) => Err(e.into()),
            }
        })
    }
}
