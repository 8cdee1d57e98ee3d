//! Password hashing off the async threads, and the failed-login throttle: after 5 wrong
//! passwords for a phone within 15 minutes, that phone's logins are refused until the window
//! has passed, right password or not, so guessing cannot continue. Each try is counted before
//! the password is checked, under the phone's lock, so parallel guesses get no extra tries.

use super::secrets;
use crate::db::login_failures::LoginFailureRepo;
use crate::db::DbError;
use crate::domain::account::{login_locked_until, LOGIN_FAILURE_WINDOW_MS};

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

    /// Starts a password check: refuses while the phone is locked, and otherwise counts this
    /// try as a failure at once, so concurrent guesses use up the allowance one by one. Tell
    /// the outcome with `succeeded` (a login: every failure forgiven) or `forgive` (just this
    /// try), or leave the failure standing.
    pub async fn attempt(&self, key: &str, now: i64) -> Result<Attempt, ThrottleError> {
        let recorded = self
            .repo
            .record_unless_locked(key, now - LOGIN_FAILURE_WINDOW_MS, now, |failures| {
                login_locked_until(failures)
                    .filter(|until| *until > now)
                    .map(|until| until - now)
            })
            .await?;
        match recorded {
            Ok(failure_id) => Ok(Attempt { failure_id }),
            Err(retry_after_ms) => Err(ThrottleError::Locked { retry_after_ms }),
        }
    }

    /// The password of this try was right: it does not count.
    pub async fn forgive(&self, attempt: Attempt) -> Result<(), DbError> {
        self.repo.forget(attempt.failure_id).await
    }

    pub async fn succeeded(&self, key: &str) -> Result<(), DbError> {
        self.repo.clear(key).await
    }
}

/// A try counted as a failure until forgiven.
#[derive(Debug)]
#[must_use = "a right password must be forgiven or the throttle succeeded"]
pub struct Attempt {
    failure_id: i64,
}
