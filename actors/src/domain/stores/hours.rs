//! Business hours in China time (spec ordering §3, §9). China keeps one fixed offset, UTC+8,
//! with no daylight saving, so a `FixedOffset` is exact and no time-zone database is needed.

use crate::domain::catalogue::{Store, StoreStatus, TimeWindow, DEFAULT_CLOSE, DEFAULT_OPEN};
use chrono::{DateTime, FixedOffset, NaiveTime, Timelike};

/// Checked at compile time, so no runtime unwrap is needed.
const CHINA: FixedOffset = match FixedOffset::east_opt(8 * 3600) {
    Some(offset) => offset,
    None => panic!("UTC+8 is a valid offset"),
};

pub fn china_offset() -> FixedOffset {
    CHINA
}

/// Epoch milliseconds as China time. Values chrono cannot represent (hundreds of millennia
/// away) come from a broken clock or client; epoch 0 is an obviously wrong but safe answer.
pub fn china_time(epoch_ms: i64) -> DateTime<FixedOffset> {
    DateTime::from_timestamp_millis(epoch_ms)
        .unwrap_or(DateTime::UNIX_EPOCH)
        .with_timezone(&CHINA)
}

/// The first millisecond of the China day holding `epoch_ms` (the tablet's "today").
pub fn start_of_china_day(epoch_ms: i64) -> i64 {
    let day_ms = 24 * 3600 * 1000;
    let offset_ms = i64::from(CHINA.local_minus_utc()) * 1000;
    (epoch_ms + offset_ms).div_euclid(day_ms) * day_ms - offset_ms
}

/// "HH:MM:SS" as stored, or "HH:MM" as some back-office screens save it.
pub fn parse_hms(s: &str) -> Option<NaiveTime> {
    let s = s.trim();
    NaiveTime::parse_from_str(s, "%H:%M:%S")
        .or_else(|_| NaiveTime::parse_from_str(s, "%H:%M"))
        .ok()
}

/// A store with no configured hours keeps the chain default, 10:00:00 to 23:59:00 (spec §9).
pub fn effective_hours(store: &Store) -> Vec<TimeWindow> {
    if store.business_hours.is_empty() {
        vec![TimeWindow {
            start: DEFAULT_OPEN.into(),
            end: DEFAULT_CLOSE.into(),
        }]
    } else {
        store.business_hours.clone()
    }
}

/// Whether `at` falls in any window, both ends inclusive to the second (sub-seconds are
/// dropped so 23:59:00.5 is still "23:59:00"). A window ending before it starts runs past
/// midnight; one with equal ends is that single second. An unparsable window is skipped
/// rather than failing the whole list: one bad row must not shut the store.
pub fn within_windows(windows: &[TimeWindow], at: NaiveTime) -> bool {
    let at = at.with_nanosecond(0).unwrap_or(at);
    windows.iter().any(|w| {
        let (Some(start), Some(end)) = (parse_hms(&w.start), parse_hms(&w.end)) else {
            return false;
        };
        if start <= end {
            start <= at && at <= end
        } else {
            at >= start || at <= end
        }
    })
}

/// A temporarily closed store takes no orders whatever its hours; busy stores still do.
pub fn is_open_at(store: &Store, at: DateTime<FixedOffset>) -> bool {
    store.status != StoreStatus::Closed
        && within_windows(&effective_hours(store), at.with_timezone(&CHINA).time())
}

/// The store card's hours line (businessHourListText): "10:00-23:59", several joined with
/// ", ". Unparsable windows are left out, as `within_windows` ignores them too.
pub fn business_hour_text(windows: &[TimeWindow]) -> String {
    windows
        .iter()
        .filter_map(|w| Some((parse_hms(&w.start)?, parse_hms(&w.end)?)))
        .map(|(s, e)| format!("{}-{}", s.format("%H:%M"), e.format("%H:%M")))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::catalogue::virtual_store;
    use chrono::TimeZone;

    fn t(s: &str) -> NaiveTime {
        parse_hms(s).unwrap()
    }

    fn w(start: &str, end: &str) -> TimeWindow {
        TimeWindow {
            start: start.into(),
            end: end.into(),
        }
    }

    #[test]
    fn a_china_day_starts_at_midnight_utc_plus_eight() {
        // 2026-11-25 00:00 +08:00 = 2026-11-24 16:00 UTC = 1_795_536_000_000.
        let midnight = 1_795_536_000_000;
        for (at, want) in [
            (midnight, midnight),
            (midnight + 1, midnight),
            (midnight + 86_399_999, midnight),
            (midnight + 86_400_000, midnight + 86_400_000),
            (midnight - 1, midnight - 86_400_000),
        ] {
            assert_eq!(start_of_china_day(at), want, "{at}");
        }
        assert_eq!(china_time(midnight).format("%H:%M").to_string(), "00:00");
    }

    #[test]
    fn china_offset_is_plus_eight() {
        assert_eq!(china_offset().local_minus_utc(), 8 * 3600);
    }

    #[test]
    fn china_time_cases() {
        let cases = [
            (0, "1970-01-01T08:00:00+08:00"),
            (1_700_000_000_000, "2023-11-15T06:13:20+08:00"),
            (1_700_000_000_123, "2023-11-15T06:13:20.123+08:00"),
            // 16:00 UTC is already the next day in China.
            (1_704_124_800_000, "2024-01-02T00:00:00+08:00"),
            (-1000, "1970-01-01T07:59:59+08:00"),
            (i64::MAX, "1970-01-01T08:00:00+08:00"),
            (i64::MIN, "1970-01-01T08:00:00+08:00"),
        ];
        for (ms, want) in cases {
            assert_eq!(china_time(ms).to_rfc3339(), want, "{ms}");
        }
    }

    #[test]
    fn parse_hms_cases() {
        let hms = |h, m, s| NaiveTime::from_hms_opt(h, m, s);
        let cases = [
            ("10:00:00", hms(10, 0, 0)),
            ("23:59:00", hms(23, 59, 0)),
            ("00:00:00", hms(0, 0, 0)),
            ("10:30", hms(10, 30, 0)),
            (" 09:05:07 ", hms(9, 5, 7)),
            ("24:00:00", None),
            ("10:60:00", None),
            ("10", None),
            ("", None),
            ("ten", None),
            ("10:00:00:00", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_hms(s), want, "{s:?}");
        }
    }

    #[test]
    fn effective_hours_defaults_when_empty() {
        let mut store = virtual_store(None);
        assert_eq!(effective_hours(&store), vec![w("10:00:00", "23:59:00")]);
        store.business_hours = vec![w("08:00:00", "12:00:00"), w("14:00:00", "20:00:00")];
        assert_eq!(effective_hours(&store), store.business_hours);
    }

    #[test]
    fn within_windows_cases() {
        let day = [w("10:00:00", "23:59:00")];
        let night = [w("10:00:00", "02:00:00")];
        let split = [w("08:00:00", "12:00:00"), w("14:00", "20:00")];
        let bad = [w("ten", "23:00:00"), w("12:00:00", "13:00:00")];
        let point = [w("12:00:00", "12:00:00")];
        let cases: [(&[TimeWindow], &str, bool); 24] = [
            (&day, "10:00:00", true), // start inclusive
            (&day, "09:59:59", false),
            (&day, "15:00:00", true),
            (&day, "23:59:00", true), // end inclusive
            (&day, "23:59:01", false),
            (&day, "00:00:00", false),
            (&night, "01:30:00", true), // wraps midnight
            (&night, "02:00:00", true),
            (&night, "02:00:01", false),
            (&night, "09:59:59", false),
            (&night, "10:00:00", true),
            (&night, "23:59:59", true),
            (&night, "00:00:00", true),
            (&split, "07:59:59", false),
            (&split, "11:00:00", true),
            (&split, "13:00:00", false),
            (&split, "20:00:00", true),
            (&split, "20:00:01", false),
            (&bad, "22:00:00", false), // bad window ignored
            (&bad, "12:30:00", true),  // good one still counts
            (&point, "12:00:00", true),
            (&point, "12:00:01", false),
            (&point, "11:59:59", false),
            (&[], "12:00:00", false),
        ];
        for (windows, at, want) in cases {
            assert_eq!(within_windows(windows, t(at)), want, "{windows:?} at {at}");
        }
    }

    #[test]
    fn within_windows_drops_subseconds() {
        let at = NaiveTime::from_hms_milli_opt(23, 59, 0, 500).unwrap();
        assert!(within_windows(&[w("10:00:00", "23:59:00")], at));
    }

    #[test]
    fn is_open_at_cases() {
        let at = |h, m, s| CHINA.with_ymd_and_hms(2024, 5, 1, h, m, s).unwrap();
        let utc = |h, m, s| {
            chrono::Utc
                .with_ymd_and_hms(2024, 5, 1, h, m, s)
                .unwrap()
                .fixed_offset()
        };
        let custom = vec![w("07:00:00", "09:00:00")];
        let cases = [
            (StoreStatus::Open, vec![], at(10, 0, 0), true),
            (StoreStatus::Open, vec![], at(9, 59, 59), false),
            (StoreStatus::Open, vec![], at(23, 59, 0), true),
            (StoreStatus::Open, vec![], at(23, 59, 1), false),
            (StoreStatus::Busy, vec![], at(12, 0, 0), true),
            (StoreStatus::Closed, vec![], at(12, 0, 0), false),
            (StoreStatus::Open, custom.clone(), at(8, 0, 0), true),
            (StoreStatus::Open, custom.clone(), at(12, 0, 0), false),
            // 02:00 UTC is 10:00 China time; 01:00 UTC is 09:00.
            (StoreStatus::Open, vec![], utc(2, 0, 0), true),
            (StoreStatus::Open, vec![], utc(1, 0, 0), false),
            (StoreStatus::Open, custom, utc(0, 30, 0), true),
        ];
        for (status, hours, when, want) in cases {
            let mut store = virtual_store(None);
            store.status = status;
            store.business_hours = hours;
            assert_eq!(is_open_at(&store, when), want, "{status:?} {when}");
        }
    }

    #[test]
    fn business_hour_text_cases() {
        let cases: [(&[TimeWindow], &str); 5] = [
            (&[w("10:00:00", "23:59:00")], "10:00-23:59"),
            (
                &[w("08:00:00", "12:00:00"), w("14:00", "20:30:00")],
                "08:00-12:00, 14:00-20:30",
            ),
            (&[w("10:00:00", "02:00:00")], "10:00-02:00"),
            (
                &[w("bad", "12:00:00"), w("13:00:00", "14:00:00")],
                "13:00-14:00",
            ),
            (&[], ""),
        ];
        for (windows, want) in cases {
            assert_eq!(business_hour_text(windows), want);
        }
    }
}
