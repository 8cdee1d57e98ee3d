//! Opaque session tokens: 32 random bytes handed to the client once, only their sha256
//! stored. A session lives 30 days from its last use.

use super::secrets::Token;
use crate::db::sessions::SessionRepo;
use crate::db::DbError;
use crate::domain::account::{slid_expiry, SESSION_TTL_MS};

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Expired, logged out, account closed, or never issued: the client must log in again.
    #[error("session expired")]
    Expired,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// A resolved session: whose it is, and the key to end it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user_id: i64,
    pub token_hash: String,
}

#[derive(Clone, Debug)]
pub struct Sessions {
    repo: SessionRepo,
}

impl Sessions {
    pub fn new(repo: SessionRepo) -> Sessions {
        Sessions { repo }
    }

    /// A new session; the token is returned to hand to the client and is not kept.
    pub async fn open(&self, user_id: i64, now: i64) -> Result<(Token, i64), DbError> {
        let token = Token::generate();
        let expires_at = now + SESSION_TTL_MS;
        self.repo
            .create(&token.hash(), user_id, now, expires_at)
            .await?;
        Ok((token, expires_at))
    }

    pub async fn resolve(&self, token: &Token, now: i64) -> Result<Session, SessionError> {
        let token_hash = token.hash();
        let row = self
            .repo
            .find(&token_hash)
            .await?
            .ok_or(SessionError::Expired)?;
        if row.expires_at <= now {
            self.repo.delete(&token_hash).await?;
            return Err(SessionError::Expired);
        }
        if let Some(later) = slid_expiry(row.expires_at, now) {
            self.repo.extend(&token_hash, later).await?;
        }
        Ok(Session {
            user_id: row.user_id,
            token_hash,
        })
    }

    pub async fn close(&self, session: &Session) -> Result<(), DbError> {
        self.repo.delete(&session.token_hash).await
    }

    /// Ends every other session of the user (password changed), or all of them (reset).
    pub async fn close_others(&self, user_id: i64, keep: Option<&Session>) -> Result<(), DbError> {
        self.repo
            .delete_for_user(user_id, keep.map(|s| s.token_hash.as_str()))
            .await
    }
}
