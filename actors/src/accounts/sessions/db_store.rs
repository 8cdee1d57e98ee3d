//! Sessions in the database's sessions table (the embedded default).

use super::{Session, SessionError, SessionStore, StoreError};
use crate::accounts::secrets::Token;
use crate::db::sessions::SessionRepo;
use crate::domain::accounts::{slid_expiry, SESSION_TTL_MS};

#[derive(Clone, Debug)]
pub struct DbSessionStore {
    repo: SessionRepo,
}

impl DbSessionStore {
    pub fn new(repo: SessionRepo) -> DbSessionStore {
        DbSessionStore { repo }
    }
}

#[async_trait::async_trait]
impl SessionStore for DbSessionStore {
    async fn create(&self, user_id: i64, now: i64) -> Result<(Token, i64), StoreError> {
        let token = Token::generate();
        let expires_at = now + SESSION_TTL_MS;
        self.repo
            .create(&token.hash(), user_id, now, expires_at)
            .await?;
        Ok((token, expires_at))
    }

    async fn resolve(&self, token: &Token, now: i64) -> Result<Session, SessionError> {
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

    async fn revoke(&self, session: &Session) -> Result<(), StoreError> {
        Ok(self.repo.delete(&session.token_hash).await?)
    }

    async fn revoke_user(&self, user_id: i64) -> Result<(), StoreError> {
        Ok(self.repo.delete_for_user(user_id, None).await?)
    }

    async fn revoke_others(&self, user_id: i64, keep: &Session) -> Result<(), StoreError> {
        Ok(self
            .repo
            .delete_for_user(user_id, Some(&keep.token_hash))
            .await?)
    }

    async fn purge_expired(&self, now: i64) -> Result<u64, StoreError> {
        Ok(self.repo.delete_expired(now).await?)
    }
}
