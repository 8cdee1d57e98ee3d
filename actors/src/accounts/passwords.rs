//! Password hashing off the async threads, and the failed-login throttle. Within 15 minutes,
//! 5 wrong passwords for a phone from one client address lock that phone for that address,
//! right password or not; 20 from all addresses together lock password logins to the phone
//! everywhere (the owner still has SMS-code login). Tablet PINs alike: per staff member and
//! address, and 30 per store. Each try is counted before the password is checked, under the
//! scope's lock, so parallel guesses get no extra tries.

use super::secrets;
use crate::db::login_failures::{FailureKey, LoginFailureRepo};
use crate::db::DbError;
use crate::domain::accounts::{
    login_retry_after, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES_PER_PHONE,
    LOGIN_MAX_FAILURES_PER_STORE,
};

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

/// Who is trying to log in, from where, and the scope whose ceiling also applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginKey {
    account: String,
    client_ip: String,
    scope: String,
    scope_max: usize,
}

impl LoginKey {
    /// A customer's password login: the phone, per address and as a whole.
    pub fn customer(phone: &str, client_ip: &str) -> LoginKey {
        LoginKey {
            account: phone.to_string(),
            client_ip: client_ip.to_string(),
            scope: phone.to_string(),
            scope_max: LOGIN_MAX_FAILURES_PER_PHONE,
        }
    }

    /// A tablet's PIN login: the staff member per address, and the store as a whole.
    pub fn staff(store_code: &str, staff_code: &str, client_ip: &str) -> LoginKey {
        LoginKey {
            account: format!("staff:{store_code}:{staff_code}"),
            client_ip: client_ip.to_string(),
            scope: format!("store:{store_code}"),
            scope_max: LOGIN_MAX_FAILURES_PER_STORE,
        }
    }

    pub fn account(&self) -> &str {
        &self.account
    }

    fn failure_key(&self) -> FailureKey<'_> {
        FailureKey {
            account: &self.account,
            client_ip: &self.client_ip,
            scope: &self.scope,
        }
    }
}

#[derive(Clone, Debug)]
pub struct LoginThrottle {
    repo: LoginFailureRepo,
}

impl LoginThrottle {
    pub fn new(repo: LoginFailureRepo) -> LoginThrottle {
        LoginThrottle { repo }
    }

    /// Starts a password check: refuses while the key is locked, and otherwise counts this
    /// try as a failure at once, so concurrent guesses use up the allowance one by one. Tell
    /// the outcome with `succeeded` (a login: this address's failures forgiven) or `forgive`
    /// (just this try), or leave the failure standing.
    pub async fn attempt(&self, key: &LoginKey, now: i64) -> Result<Attempt, ThrottleError> {
        let scope_max = key.scope_max;
        let recorded = self
            .repo
            .record_unless_locked(
                &key.failure_key(),
                now - LOGIN_FAILURE_WINDOW_MS,
                now,
                |pair, scope| login_retry_after(pair, scope, scope_max, now),
            )
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

    /// A login: the failures from this address are forgiven (the others still count).
    pub async fn succeeded(&self, key: &LoginKey) -> Result<(), DbError> {
        self.repo.clear_pair(&key.failure_key()).await
    }

    /// The account proved itself another way (a password reset by SMS code): every failure of
    /// it is forgotten.
    pub async fn reset(&self, account: &str) -> Result<(), DbError> {
        self.repo.clear_account(account).await
    }
}

/// A try counted as a failure until forgiven.
#[derive(Debug)]
#[must_use = "a right password must be forgiven or the throttle succeeded"]
pub struct Attempt {
    failure_id: i64,
}
