//! Whose cart a request works on: the logged-in user's, or a visitor's by `X-Cart-Token`. A
//! visitor without a (well-formed) token gets a new one, returned in the `X-Cart-Token` header
//! and in the cart's `cartToken`.

use crate::http::edge::error::ApiError;
use crate::http::edge::session::AuthUser;
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use actors::carts::CartKey;
use std::future::Future;
use std::pin::Pin;

pub const CART_TOKEN_HEADER: &str = "X-Cart-Token";

#[derive(Debug, Clone)]
pub struct CartOwner {
    pub key: CartKey,
    /// Set when this request issued the visitor's token: the response must carry it.
    pub issued: bool,
}

impl CartOwner {
    pub fn user_id(&self) -> Option<i64> {
        self.key.user_id()
    }

    /// The visitor's token, for the response.
    pub fn token(&self) -> Option<String> {
        self.key.token().map(String::from)
    }
}

/// `c_` and 32 lower-case hex digits: 128 random bits.
pub fn is_cart_token(s: &str) -> bool {
    s.len() == 34
        && s.starts_with("c_")
        && s[2..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub fn new_cart_token() -> String {
    // A v4 uuid: 122 random bits from the OS generator.
    format!("c_{}", uuid::Uuid::new_v4().simple())
}

/// The visitor's token of the request, when it sends a well-formed one.
pub fn cart_token(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(CART_TOKEN_HEADER)?.to_str().ok()?.trim();
    is_cart_token(value).then(|| value.to_string())
}

impl FromRequest for CartOwner {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<CartOwner, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let has_auth = req
            .headers()
            .contains_key(actix_web::http::header::AUTHORIZATION);
        let user = AuthUser::from_request(req, payload);
        let token = cart_token(req);
        Box::pin(async move {
            if has_auth {
                // A bad or expired login is an error, not a silent switch to a visitor cart.
                let user = user.await?;
                return Ok(CartOwner {
                    key: CartKey::User(user.user_id),
                    issued: false,
                });
            }
            Ok(match token {
                Some(token) => CartOwner {
                    key: CartKey::Visitor(token),
                    issued: false,
                },
                None => CartOwner {
                    key: CartKey::Visitor(new_cart_token()),
                    issued: true,
                },
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_well_formed() {
        let t = new_cart_token();
        assert!(is_cart_token(&t), "{t}");
        assert_ne!(t, new_cart_token());
        for bad in [
            "",
            "c_",
            "c_XYZ",
            "x_0123456789abcdef0123456789abcdef",
            "c_0123456789ABCDEF0123456789abcdef",
        ] {
            assert!(!is_cart_token(bad), "{bad}");
        }
    }
}
