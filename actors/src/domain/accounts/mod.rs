//! Account rules (spec account §1, §4): who a user is, whether their privacy consent is
//! current, and the limits on SMS codes, logins and sessions. Pure: times are passed in.

pub mod phone;
pub mod pin;
pub mod profile;
pub mod validators;

use serde::{Deserialize, Serialize};

/// A code lives 5 minutes.
pub const SMS_CODE_TTL_MS: i64 = 5 * 60 * 1000;
/// One code per phone and scene per minute.
pub const SMS_RESEND_COOLDOWN_MS: i64 = 60 * 1000;
/// A code dies after this many wrong tries, so guessing one is hopeless.
pub const SMS_MAX_ATTEMPTS: i64 = 5;
/// Codes a phone may receive per China calendar day (all scenes together).
pub const SMS_PER_PHONE_PER_DAY: i64 = 10;
/// Codes one client address may request per rolling hour (all phones together).
pub const SMS_PER_IP_PER_HOUR: i64 = 20;
pub const HOUR_MS: i64 = 60 * 60 * 1000;
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// Wrong passwords for one account from one client address within the window before that
/// address may not try the account again. Counting per address means a stranger elsewhere
/// cannot lock the owner out.
pub const LOGIN_MAX_FAILURES: usize = 5;
/// Wrong passwords for one phone from all addresses together before password logins to it
/// are refused everywhere: a guesser with many addresses is slowed to this many tries a
/// window. The owner can still log in with an SMS code.
pub const LOGIN_MAX_FAILURES_PER_PHONE: usize = 20;
/// Wrong PINs for all staff of one store together. Higher than a phone's: a store has several
/// staff, and its tablets, once logged in, stay so for a week whatever happens here.
pub const LOGIN_MAX_FAILURES_PER_STORE: usize = 30;
pub const LOGIN_FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;

/// A session lives 30 days from its last use (sliding); it is pushed forward at most once a
/// day so a busy client does not write on every request.
pub const SESSION_TTL_MS: i64 = 30 * DAY_MS;
pub const SESSION_SLIDE_STEP_MS: i64 = DAY_MS;

/// At most this many saved addresses per user.
pub const MAX_ADDRESSES: i64 = 20;

/// What the code is for; a code sent for one scene does not work for another.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scene {
    Register,
    Login,
    Reset,
}

impl Scene {
    pub fn as_str(self) -> &'static str {
        match self {
            Scene::Register => "register",
            Scene::Login => "login",
            Scene::Reset => "reset",
        }
    }
}

/// Spec §1: Visitor has no token; the others are logged in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UserKind {
    Guest,
    Authorised,
    Member,
}

/// Member wins over the authorisation flag: a loyalty member is shown as one whatever channel
/// authorised them.
pub fn user_kind(is_loyalty: bool, anonymous_flag: i64) -> UserKind {
    if is_loyalty {
        UserKind::Member
    } else if anonymous_flag != 0 {
        UserKind::Authorised
    } else {
        UserKind::Guest
    }
}

/// Points are shown as zero for non-members (spec §1, §6), whatever is stored.
pub fn visible_points(is_loyalty: bool, points: i64) -> i64 {
    if is_loyalty {
        points
    } else {
        0
    }
}

/// The latest decision a user made about the privacy policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Agree,
    Refuse,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Agree => "agree",
            Decision::Refuse => "refuse",
        }
    }

    pub fn parse(text: &str) -> Option<Decision> {
        match text {
            "agree" => Some(Decision::Agree),
            "refuse" => Some(Decision::Refuse),
            _ => None,
        }
    }
}

/// Spec §4: consent is current when the user's latest decision is an agreement to a policy
/// version (its update time) not older than the policy in force. A later refusal withdraws it.
pub fn consent_current(latest: Option<(Decision, i64)>, policy_updated_at: i64) -> bool {
    matches!(latest, Some((Decision::Agree, version)) if version >= policy_updated_at)
}

/// Milliseconds until a resend is allowed, when the last code went out less than a cooldown ago.
pub fn cooldown_left_ms(last_sent_at: Option<i64>, now: i64) -> Option<i64> {
    let left = last_sent_at? + SMS_RESEND_COOLDOWN_MS - now;
    (left > 0).then_some(left)
}

/// Whole seconds to tell the user, never 0 while still waiting.
pub fn seconds_ceil(ms: i64) -> u64 {
    u64::try_from((ms.max(0) + 999) / 1000).unwrap_or(0)
}

/// Start of the China calendar day holding `now` (UTC+8, no daylight saving).
pub fn china_day_start(now: i64) -> i64 {
    const OFFSET: i64 = 8 * HOUR_MS;
    now - (now + OFFSET).rem_euclid(DAY_MS)
}

/// When a key locked by `max` failed logins may try again: the window counted from the
/// failure that reached the limit. `failures_desc` are failure times in the window, newest
/// first.
pub fn locked_until(failures_desc: &[i64], max: usize) -> Option<i64> {
    failures_desc
        .get(max.max(1) - 1)
        .map(|oldest_counted| oldest_counted + LOGIN_FAILURE_WINDOW_MS)
}

/// Milliseconds until a login may be tried, or None when it may now: locked when this account
/// and address reached [`LOGIN_MAX_FAILURES`], or the whole scope (the phone, the store)
/// reached `scope_max`; the later of the two ends it. Times are newest first.
pub fn login_retry_after(
    pair_desc: &[i64],
    scope_desc: &[i64],
    scope_max: usize,
    now: i64,
) -> Option<i64> {
    let pair = locked_until(pair_desc, LOGIN_MAX_FAILURES);
    let scope = locked_until(scope_desc, scope_max);
    pair.max(scope)
        .filter(|until| *until > now)
        .map(|until| until - now)
}

/// The new expiry when a sliding session is used, or None when it need not be written yet.
pub fn slid_expiry(expires_at: i64, now: i64) -> Option<i64> {
    let fresh = now + SESSION_TTL_MS;
    (fresh - expires_at >= SESSION_SLIDE_STEP_MS).then_some(fresh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_points() {
        assert_eq!(user_kind(false, 0), UserKind::Guest);
        assert_eq!(user_kind(false, 2), UserKind::Authorised);
        assert_eq!(user_kind(true, 0), UserKind::Member);
        assert_eq!(user_kind(true, 1), UserKind::Member);
        assert_eq!(visible_points(false, 120), 0);
        assert_eq!(visible_points(true, 120), 120);
    }

    #[test]
    fn consent_table() {
        let policy = 1_000;
        let cases = [
            (None, false),
            (Some((Decision::Agree, 1_000)), true),
            (Some((Decision::Agree, 1_500)), true),
            (Some((Decision::Agree, 999)), false),
            (Some((Decision::Refuse, 1_000)), false),
        ];
        for (latest, want) in cases {
            assert_eq!(consent_current(latest, policy), want, "{latest:?}");
        }
    }

    #[test]
    fn cooldown_table() {
        let cases = [
            (None, 10_000, None),
            (Some(10_000), 10_000, Some(60_000)),
            (Some(10_000), 69_999, Some(1)),
            (Some(10_000), 70_000, None),
        ];
        for (last, now, want) in cases {
            assert_eq!(cooldown_left_ms(last, now), want, "{last:?} {now}");
        }
        assert_eq!(seconds_ceil(1), 1);
        assert_eq!(seconds_ceil(60_000), 60);
        assert_eq!(seconds_ceil(59_001), 60);
        assert_eq!(seconds_ceil(-5), 0);
    }

    #[test]
    fn china_day() {
        // 2026-11-23 12:00 China is 04:00 UTC; the day began at 2026-11-22 16:00 UTC.
        let noon = 1_795_406_400_000;
        assert_eq!(china_day_start(noon), noon - 12 * HOUR_MS);
        // 23:59 China is still the same day; 00:00 the next.
        assert_eq!(
            china_day_start(noon + 12 * HOUR_MS - 1),
            noon - 12 * HOUR_MS
        );
        assert_eq!(china_day_start(noon + 12 * HOUR_MS), noon + 12 * HOUR_MS);
    }

    #[test]
    fn login_lock() {
        let max = LOGIN_MAX_FAILURES;
        assert_eq!(locked_until(&[5, 4, 3, 2], max), None);
        assert_eq!(
            locked_until(&[50, 40, 30, 20, 10], max),
            Some(10 + LOGIN_FAILURE_WINDOW_MS)
        );
        assert_eq!(
            locked_until(&[60, 50, 40, 30, 20, 10], max),
            Some(20 + LOGIN_FAILURE_WINDOW_MS)
        );
    }

    #[test]
    fn login_retry_after_table() {
        const W: i64 = LOGIN_FAILURE_WINDOW_MS;
        let five: Vec<i64> = (1..=5).rev().map(|m| m * 1000).collect(); // 5000 … 1000
        let twenty: Vec<i64> = (1..=20).rev().map(|m| m * 1000).collect();
        let nineteen = &twenty[..19];
        /// (this pair's failures, the scope's, the scope's ceiling, now, the wait)
        type Case<'a> = (&'a [i64], &'a [i64], usize, i64, Option<i64>);
        let cases: &[Case] = &[
            // Nothing yet.
            (&[], &[], 20, 0, None),
            // Four from this address: one more try.
            (&five[..4], &five[..4], 20, 6000, None),
            // Five from this address: locked until the window after the first of them.
            (&five, &five, 20, 6000, Some(1000 + W - 6000)),
            // ... and free again once it has passed.
            (&five, &five, 20, 1000 + W, None),
            // Nineteen across the phone, none from here: this address may try.
            (&[], nineteen, 20, 30_000, None),
            // Twenty across the phone: every address waits, even one that never failed.
            (&[], &twenty, 20, 30_000, Some(1000 + W - 30_000)),
            // A store's higher ceiling: twenty is not yet a lock.
            (&[], &twenty, 30, 30_000, None),
            // Both locked: the later end counts.
            (&five[..5], &twenty, 20, 30_000, Some(1000 + W - 30_000)),
            (
                &[90_000, 80_000, 70_000, 60_000, 50_000],
                &twenty,
                20,
                95_000,
                Some(50_000 + W - 95_000),
            ),
        ];
        for (pair, scope, max, now, want) in cases {
            assert_eq!(
                login_retry_after(pair, scope, *max, *now),
                *want,
                "{pair:?} {scope:?} {max} {now}"
            );
        }
    }

    #[test]
    fn sliding_sessions() {
        let now = 100 * DAY_MS;
        assert_eq!(slid_expiry(now + SESSION_TTL_MS, now), None);
        assert_eq!(slid_expiry(now + SESSION_TTL_MS - DAY_MS + 1, now), None);
        assert_eq!(
            slid_expiry(now + SESSION_TTL_MS - DAY_MS, now),
            Some(now + SESSION_TTL_MS)
        );
    }

    #[test]
    fn words() {
        assert_eq!(Decision::parse("agree"), Some(Decision::Agree));
        assert_eq!(Decision::parse("Agree"), None);
        assert_eq!(Decision::Refuse.as_str(), "refuse");
        assert_eq!(
            serde_json::from_str::<Scene>("\"reset\"").ok(),
            Some(Scene::Reset)
        );
        assert!(serde_json::from_str::<Scene>("\"other\"").is_err());
    }
}
