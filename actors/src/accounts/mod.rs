//! Account services over the repositories: SMS codes (send limits, checking), passwords
//! (hashing off the async threads, the failed-login throttle), sessions (opaque tokens) and
//! the staff's tablet sessions. Each answers typed errors; the HTTP edge maps them to the
//! error catalogue.

pub mod cleanup;
pub mod passwords;
pub mod secrets;
pub mod sessions;
pub mod sms_codes;
pub mod staff;
