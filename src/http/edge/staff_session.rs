//! The tablet's staff member as an extractor: a staff token (from POST /tablet/login), good
//! only for its store. A customer token is not a staff token (401), and a staff token is not a
//! customer token (customer endpoints answer 407 to it).

use crate::http::edge::error::ApiError;
use crate::http::edge::session::bearer;
use crate::state::AppState;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use actors::db::staff::{StaffRepo, StaffSession};
use std::future::Future;
use std::pin::Pin;

#[derive(Debug, Clone)]
pub struct StaffAuth {
    pub session: StaffSession,
    pub token_hash: String,
}

impl StaffAuth {
    pub fn store_code(&self) -> &str {
        &self.session.store_code
    }

    /// An order of another store is out of bounds: 403, and nothing changes.
    pub fn check_store(&self, store_code: &str) -> Result<(), ApiError> {
        if self.session.store_code == store_code {
            Ok(())
        } else {
            Err(ApiError::Forbidden)
        }
    }
}

impl FromRequest for StaffAuth {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<StaffAuth, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let token = token.ok_or(ApiError::LoginRequired)?;
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let hash = token.hash();
            match StaffRepo::new(state.db.clone())
                .resolve(&hash, state.clock.now_ms())
                .await?
            {
                Some(session) => Ok(StaffAuth {
                    session,
                    token_hash: hash,
                }),
                None => Err(ApiError::SessionExpired),
            }
        })
    }
}
