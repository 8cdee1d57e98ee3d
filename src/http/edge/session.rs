//! The logged-in user as an extractor: a handler that needs one takes `AuthUser`. No
//! Authorization header is errCode 401 (log in); a token that is expired, logged out, of a
//! closed account or unknown is 407 (登录过期!), on which the app clears its storage.

use crate::http::edge::error::ApiError;
use crate::state::AppState;
use actix_web::dev::Payload;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{web, FromRequest, HttpRequest};
use actors::accounts::secrets::Token;
use actors::accounts::sessions::{Session, SessionError};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: i64,
    /// The session this request came with, to log it out or keep it on a password change.
    pub session: Session,
}

/// The token of `Authorization: Bearer <token>`, if the header holds one.
pub fn bearer(req: &HttpRequest) -> Option<Token> {
    bearer_text(req).map(Token::from_client)
}

/// The same, borrowed from the request: no copy until one is needed.
fn bearer_text(req: &HttpRequest) -> Option<&str> {
    bearer_token(req.headers().get(AUTHORIZATION)?.as_bytes())
}

/// `<scheme> <token>`, the scheme `bearer` in any case, spaces around either ignored; None for
/// anything else, or a value with a byte `HeaderValue::to_str` refuses. On the bytes, and the
/// check one pass the compiler can vectorise: it runs on every logged-in request.
fn bearer_token(value: &[u8]) -> Option<&str> {
    let visible = value.iter().fold(true, |ok, &b| {
        ok & (b == b'\t' || (0x20..0x7f).contains(&b))
    });
    if !visible {
        return None;
    }
    let value = value.trim_ascii();
    let space = value.iter().position(|&b| b == b' ')?;
    let (scheme, token) = (&value[..space], value[space + 1..].trim_ascii());
    if !scheme.eq_ignore_ascii_case(b"bearer") || token.is_empty() {
        return None;
    }
    std::str::from_utf8(token).ok()
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = AuthFuture;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let Some(state) = req.app_data::<web::Data<AppState>>() else {
            let missing = ApiError::internal(anyhow::anyhow!("no app state"));
            return AuthFuture::Ready(Some(Err(missing)));
        };
        let Some(token) = bearer_text(req) else {
            return AuthFuture::Ready(Some(Err(ApiError::LoginRequired)));
        };
        let now = state.clock.now_ms();
        // Nearly every request: the session is in memory, and the answer is ready.
        if let Some(session) = state.sessions().held(token, now) {
            return AuthFuture::Ready(Some(Ok(AuthUser {
                user_id: session.user_id,
                session,
            })));
        }
        let token = Token::from_client(token);
        let state = state.clone();
        AuthFuture::Asking(Box::pin(async move {
            match state.sessions().resolve(&token, now).await {
                Ok(session) => Ok(AuthUser {
                    user_id: session.user_id,
                    session,
                }),
                Err(SessionError::Expired) => Err(ApiError::SessionExpired),
                Err(SessionError::Store(e)) => Err(e.into()),
            }
        }))
    }
}

/// The extractor's answer: ready when memory held the session, else the store's.
pub enum AuthFuture {
    Ready(Option<Result<AuthUser, ApiError>>),
    Asking(Pin<Box<dyn Future<Output = Result<AuthUser, ApiError>>>>),
}

impl Future for AuthFuture {
    type Output = Result<AuthUser, ApiError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            AuthFuture::Ready(answer) => Poll::Ready(
                answer
                    .take()
                    .unwrap_or_else(|| Err(ApiError::internal(anyhow::anyhow!("polled twice")))),
            ),
            AuthFuture::Asking(asking) => asking.as_mut().poll(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bearer_token;
    use actix_web::http::header::HeaderValue;
    use rand::{Rng, SeedableRng};

    /// What the header parser was before it worked on bytes: the oracle.
    fn by_str(value: &[u8]) -> Option<String> {
        let value = HeaderValue::from_bytes(value).ok()?;
        let value = value.to_str().ok()?;
        let (scheme, token) = value.trim().split_once(' ')?;
        let token = token.trim();
        (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| token.to_string())
    }

    #[test]
    fn examples() {
        for (value, token) in [
            ("Bearer abc", Some("abc")),
            ("bearer abc", Some("abc")),
            ("BEARER   abc  ", Some("abc")),
            ("  Bearer\tabc", None),
            ("Bearer a b", Some("a b")),
            ("Bearer ", None),
            ("Bearer", None),
            ("Basic abc", None),
            ("Bearerabc", None),
            ("", None),
        ] {
            assert_eq!(bearer_token(value.as_bytes()), token, "{value:?}");
        }
        assert_eq!(bearer_token("Bearer 令牌".as_bytes()), None);
    }

    /// Random header values from a small alphabet that has every case the parser tells apart,
    /// against the string-based parser it replaced.
    #[test]
    fn agrees_with_the_string_parser_on_random_values() {
        const PIECES: [&[u8]; 12] = [
            b"Bearer",
            b"bearer",
            b"BeArEr",
            b"Basic",
            b" ",
            b"  ",
            b"\t",
            b"abc",
            b"x",
            b"\x7f",
            b"\xe4\xbb\xa4",
            b"\x01",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        for _ in 0..20_000 {
            let mut value = Vec::new();
            for _ in 0..rng.gen_range(0..6) {
                value.extend_from_slice(PIECES[rng.gen_range(0..PIECES.len())]);
            }
            // A value a client cannot send (a control byte actix refuses) is not asked about.
            if HeaderValue::from_bytes(&value).is_err() {
                continue;
            }
            assert_eq!(
                bearer_token(&value).map(str::to_string),
                by_str(&value),
                "{:?}",
                String::from_utf8_lossy(&value)
            );
        }
    }
}
