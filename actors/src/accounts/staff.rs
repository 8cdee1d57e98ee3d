//! Tablet sessions that end (issue 34): a tablet's logout, and a staff member's PIN change,
//! which logs out every other tablet of that staff member (whoever learnt the old PIN) and
//! keeps the one that changed it, as a password change does for customers. The change is
//! written first; then every node hears of it on the sessions channel
//! (`Event::StaffSessionsEnded`) and disconnects the tablet sockets whose session is gone.

use crate::accounts::passwords::{self, LoginKey, LoginThrottle, PasswordError, ThrottleError};
use crate::bus::{Bus, Event};
use crate::db::staff::{StaffRepo, StaffSession};
use crate::db::DbError;
use crate::domain::accounts::pin::{NewPin, PinError};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum PinChangeError {
    /// The current PIN typed is not the staff member's.
    #[error("wrong current PIN")]
    WrongPin,
    /// The new PIN breaks a rule.
    #[error("new PIN refused: {0:?}")]
    Rule(PinError),
    #[error(transparent)]
    Throttle(#[from] ThrottleError),
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// A PIN change asked by a logged-in tablet.
pub struct PinChange<'a> {
    pub session: &'a StaffSession,
    /// The asking tablet's session, which stays.
    pub token_hash: &'a str,
    pub current: &'a str,
    pub new: &'a str,
    /// Wrong current PINs count towards the PIN login lock of this address.
    pub client_ip: &'a str,
}

pub struct StaffSessions {
    repo: StaffRepo,
    ends: Arc<dyn Bus>,
}

impl StaffSessions {
    /// `ends`: the channel every node hears ended sessions on.
    pub fn new(repo: StaffRepo, ends: Arc<dyn Bus>) -> StaffSessions {
        StaffSessions { repo, ends }
    }

    /// Ends one tablet's session.
    pub async fn logout(&self, session: &StaffSession, token_hash: &str) -> Result<(), DbError> {
        self.repo.delete_session(token_hash).await?;
        self.tell_nodes(session).await;
        Ok(())
    }

    /// Sets a new PIN after checking the current one (throttled like a PIN login).
    pub async fn change_pin(
        &self,
        change: PinChange<'_>,
        throttle: &LoginThrottle,
        now: i64,
    ) -> Result<(), PinChangeError> {
        let new = NewPin::parse(change.new, change.current).map_err(PinChangeError::Rule)?;
        let staff = self
            .repo
            .get(change.session.staff_id)
            .await?
            .ok_or(PinChangeError::WrongPin)?;
        let key = LoginKey::staff(&staff.store_code, &staff.staff_code, change.client_ip);
        let attempt = throttle.attempt(&key, now).await?;
        if !passwords::verify(change.current.to_string(), Some(staff.pin_hash)).await? {
            return Err(PinChangeError::WrongPin);
        }
        throttle.forgive(attempt).await?;
        let hash = passwords::hash(new.expose().to_string()).await?;
        self.repo
            .set_pin(staff.id, &hash, change.token_hash)
            .await?;
        tracing::info!(store = %staff.store_code, staff = %staff.staff_code, "tablet PIN changed");
        self.tell_nodes(change.session).await;
        Ok(())
    }

    async fn tell_nodes(&self, session: &StaffSession) {
        let event = Event::StaffSessionsEnded {
            staff_id: session.staff_id,
            store_code: session.store_code.clone(),
        };
        if let Err(e) = self.ends.publish(&event).await {
            tracing::warn!(error = %e, staff_id = session.staff_id, "tablet sockets of ended sessions not told; they are refused at their next connection");
        }
    }
}
