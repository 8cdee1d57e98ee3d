//! Opaque session tokens: 32 random bytes handed to the client once, only their sha256
//! stored. A session lives 30 days from its last use. Where they are stored is the
//! `SessionStore`'s business: the database by default, Redis when configured (sessions are
//! read on every request and expire by themselves there).

pub mod cached;
mod db_store;
mod redis_store;

pub use cached::CachedSessions;
pub use db_store::DbSessionStore;
pub use redis_store::RedisSessionStore;

use super::secrets::Token;
use crate::db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("session store: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("stored session is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Expired, logged out, account closed, or never issued: the client must log in again.
    #[error("session expired")]
    Expired,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<DbError> for SessionError {
    fn from(e: DbError) -> SessionError {
        SessionError::Store(e.into())
    }
}

impl From<redis::RedisError> for SessionError {
    fn from(e: redis::RedisError) -> SessionError {
        SessionError::Store(e.into())
    }
}

/// A resolved session: whose it is, and the key to end it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user_id: i64,
    pub token_hash: String,
}

/// Where sessions live. Times are the caller's clock (epoch ms), so tests can move it.
#[async_trait::async_trait]
pub trait SessionStore: Send + Sync {
    /// A new session; the token is returned to hand to the client and is not kept. Answers
    /// the token and its expiry.
    async fn create(&self, user_id: i64, now: i64) -> Result<(Token, i64), StoreError>;

    /// The live session of the token, its expiry slid forward when due.
    async fn resolve(&self, token: &Token, now: i64) -> Result<Session, SessionError>;

    /// The token's session if this store holds a fresh answer in memory, without waiting: the
    /// extractor's way around a boxed future on nearly every logged-in request. None: ask
    /// [`resolve`](Self::resolve).
    fn held(&self, _token: &str, _now: i64) -> Option<Session> {
        None
    }

    /// Ends one session (logout).
    async fn revoke(&self, session: &Session) -> Result<(), StoreError>;

    /// Ends every session of the user (password reset, account closed).
    async fn revoke_user(&self, user_id: i64) -> Result<(), StoreError>;

    /// Ends every other session of the user (password changed on this device).
    async fn revoke_others(&self, user_id: i64, keep: &Session) -> Result<(), StoreError>;

    /// Housekeeping: drops sessions expired by `now`; answers how many. A store whose entries
    /// expire by themselves answers 0.
    async fn purge_expired(&self, now: i64) -> Result<u64, StoreError>;
}
