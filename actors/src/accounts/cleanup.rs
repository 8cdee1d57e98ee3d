//! Housekeeping of the account tables: rows that no rule reads any more are deleted, so the
//! tables do not grow without end. Run periodically by the server; safe to run anywhere,
//! any time, on any number of nodes (each delete is idempotent).

use super::sessions::{SessionStore, StoreError};
use crate::db::login_failures::LoginFailureRepo;
use crate::db::sms_codes::SmsCodeRepo;
use crate::db::Db;
use crate::domain::accounts::{DAY_MS, LOGIN_FAILURE_WINDOW_MS};

/// How many rows each table lost.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub sessions: u64,
    pub sms_codes: u64,
    pub login_failures: u64,
}

/// Deletes expired sessions (a store that expires its own answers 0), SMS codes dead for more
/// than a day (the longest send limit counts a China day, and a code dies 5 minutes after it
/// was sent), and failed logins older than the lock window.
pub async fn sweep(db: &Db, sessions: &dyn SessionStore, now: i64) -> Result<Swept, StoreError> {
    Ok(Swept {
        sessions: sessions.purge_expired(now).await?,
        sms_codes: SmsCodeRepo::new(db.clone())
            .delete_dead(now, DAY_MS)
            .await?,
        login_failures: LoginFailureRepo::new(db.clone())
            .delete_older_than(now - LOGIN_FAILURE_WINDOW_MS)
            .await?,
    })
}
