//! Sessions in Redis: `<prefix>session:<token sha256 hex>` holds
//! `{userId, createdAt, expiresAt}` with a PX expiry, so Redis drops dead sessions itself;
//! `<prefix>user-sessions:<userId>` is the set of a user's token hashes, to end them all.
//! The expiry is also kept in the value and checked against the caller's clock, which is the
//! one the rest of the app (and the tests' manual clock) goes by.

use super::{Session, SessionError, SessionStore, StoreError};
use crate::accounts::secrets::Token;
use crate::domain::accounts::{slid_expiry, SESSION_TTL_MS};
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    user_id: i64,
    created_at: i64,
    expires_at: i64,
}

/// Deletes the session keys of the hashes in the user's set, except ARGV[2], in one step so
/// a session created meanwhile is either ended or left in the set, never lost from it.
const REVOKE_SCRIPT: &str = r"
local ended = 0
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if hash ~= ARGV[2] then
    redis.call('DEL', ARGV[1] .. hash)
    redis.call('SREM', KEYS[1], hash)
    ended = ended + 1
  end
end
return ended
";

#[derive(Clone)]
pub struct RedisSessionStore {
    conn: ConnectionManager,
    /// Put before every key, e.g. `pizza:`; tests give each app its own.
    prefix: String,
}

impl RedisSessionStore {
    /// Connects now, so a wrong url fails at start rather than at the first login.
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisSessionStore, StoreError> {
        let conn = redis::Client::open(url)?.get_connection_manager().await?;
        Ok(RedisSessionStore {
            conn,
            prefix: prefix.to_owned(),
        })
    }

    fn session_key(&self, token_hash: &str) -> String {
        format!("{}session:{token_hash}", self.prefix)
    }

    fn user_key(&self, user_id: i64) -> String {
        format!("{}user-sessions:{user_id}", self.prefix)
    }

    /// Writes the session and refreshes the user's set expiry: every member expires at most
    /// a full TTL after its last write, so the set outlives them all. `only_existing` (XX)
    /// keeps a slide from bringing back a session revoked meanwhile.
    async fn write(
        &self,
        token_hash: &str,
        stored: &Stored,
        now: i64,
        only_existing: bool,
    ) -> Result<(), StoreError> {
        let mut set = redis::cmd("SET");
        set.arg(self.session_key(token_hash))
            .arg(serde_json::to_string(stored)?)
            .arg("PX")
            .arg((stored.expires_at - now).max(1));
        if only_existing {
            set.arg("XX");
        }
        let user_key = self.user_key(stored.user_id);
        redis::pipe()
            .atomic()
            .add_command(set)
            .ignore()
            .cmd("SADD")
            .arg(&user_key)
            .arg(token_hash)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&user_key)
            .arg(SESSION_TTL_MS)
            .ignore()
            .query_async::<()>(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    async fn revoke_except(&self, user_id: i64, keep: &str) -> Result<(), StoreError> {
        redis::Script::new(REVOKE_SCRIPT)
            .key(self.user_key(user_id))
            .arg(format!("{}session:", self.prefix))
            .arg(keep)
            .invoke_async::<i64>(&mut self.conn.clone())
            .await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessionStore {
    async fn create(&self, user_id: i64, now: i64) -> Result<(Token, i64), StoreError> {
        let token = Token::generate();
        let expires_at = now + SESSION_TTL_MS;
        let stored = Stored {
            user_id,
            created_at: now,
            expires_at,
        };
        self.write(&token.hash(), &stored, now, false).await?;
        Ok((token, expires_at))
    }

    async fn resolve(&self, token: &Token, now: i64) -> Result<Session, SessionError> {
        let token_hash = token.hash();
        let text: Option<String> = redis::cmd("GET")
            .arg(self.session_key(&token_hash))
            .query_async(&mut self.conn.clone())
            .await?;
        let text = text.ok_or(SessionError::Expired)?;
        let mut stored: Stored = serde_json::from_str(&text).map_err(StoreError::from)?;
        let session = Session {
            user_id: stored.user_id,
            token_hash,
        };
        if stored.expires_at <= now {
            self.revoke(&session).await?;
            return Err(SessionError::Expired);
        }
        if let Some(later) = slid_expiry(stored.expires_at, now) {
            stored.expires_at = later;
            self.write(&session.token_hash, &stored, now, true).await?;
        }
        Ok(session)
    }

    async fn revoke(&self, session: &Session) -> Result<(), StoreError> {
        redis::pipe()
            .atomic()
            .cmd("DEL")
            .arg(self.session_key(&session.token_hash))
            .ignore()
            .cmd("SREM")
            .arg(self.user_key(session.user_id))
            .arg(&session.token_hash)
            .ignore()
            .query_async::<()>(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    async fn revoke_user(&self, user_id: i64) -> Result<(), StoreError> {
        // No token hashes to "", so this keeps none.
        self.revoke_except(user_id, "").await
    }

    async fn revoke_others(&self, user_id: i64, keep: &Session) -> Result<(), StoreError> {
        self.revoke_except(user_id, &keep.token_hash).await
    }

    async fn purge_expired(&self, _now: i64) -> Result<u64, StoreError> {
        // Redis expires the keys itself (PX); stale hashes in a user's set go with the set.
        Ok(0)
    }
}
