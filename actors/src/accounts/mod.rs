//! Account services over the repositories: SMS codes (send limits, checking), passwords
//! (hashing off the async threads, the failed-login throttle) and sessions (opaque tokens).
//! Each answers typed errors; the HTTP edge maps them to the error catalogue.

pub mod cleanup;
pub mod passwords;
pub mod secrets;
pub mod sessions;
pub mod sms_codes;
