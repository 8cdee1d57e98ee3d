//! Password hashing off the async threads, and the failed-login throttle: after 5 wrong
//! passwords for a phone within 15 minutes, that phone's logins are refused until the window
//! has passed, right password or not, so guessing cannot continue.

use super::secrets;
use crate::db::login_failures::LoginFailureRepo;
use crate::db::DbError;
use crate::domain::account::{login_locked_until, LOGIN_FAILURE_WINDOW_MS};
use crate::domain::phone::Phone;

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error(transparent)]
    Hash(#[from] secrets::HashError),
    #[error("hashing task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Argon2 takes tens of milliseconds of CPU: run it on the blocking pool.
pub async fn hash(plain: String) -> Result<String, PasswordError> {
    Ok(tokio::task::spawn_blocking(move || secrets::hash_password(&plain)).await??)
}

/// Checks against the stored hash, or against a decoy when there is none, so the answer takes
/// as long either way.
pub async fn verify(plain: String, stored: Option<String>) -> Result<bool, PasswordError> {
    Ok(tokio::task::spawn_blocking(move || match stored {
        Some(hash) => secrets::verify_password(&plain, &hash),
        None => {
            secrets::verify_password(&plain, secrets::decoy_hash());
            false
        }
    })
    .await?)
}

#[derive(Debug, thiserror::Error)]
pub enum ThrottleError {
    #[error("too many failed logins")]
    Locked { retry_after_ms: i64 },
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(Clone, Debug)]
pub struct LoginThrottle {
    repo: LoginFailureRepo,
}

impl LoginThrottle {
    pub fn new(repo: LoginFailureRepo) -> LoginThrottle {
        LoginThrottle { repo }
    }

    /// Refuses while the phone is locked.
    pub async fn check(&self, phone: &Phone, now: i64) -> Result<(), ThrottleError> {
        let failures = self
            .repo
            .since(phone, now - LOGIN_FAILURE_WINDOW_MS)
            .await?;
        match login_locked_until(&failures) {
            Some(until) if until > now => Err(ThrottleError::Locked {
                retry_after_ms: until - now,
            }),
            _ => Ok(()),
        }
    }

    pub async fn failed(&self, phone: &Phone, now: i64) -> Result<(), DbError> {
        self.repo.record(phone, now).await
    }

    pub async fn succeeded(&self, phone: &Phone) -> Result<(), DbError> {
        self.repo.clear(phone).await
    }
}
