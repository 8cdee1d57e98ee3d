//! Whether a product or promotion applies here and now (spec ordering §5): its date range,
//! daily time, weekday, store list, store group and order type must all match.

use crate::domain::catalogue::{DateRange, EffectiveRule, TimeWindow};
use crate::domain::stores::hours::{china_offset, parse_hms, within_windows};
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};

/// Where and when a rule is being asked about.
#[derive(Debug, Clone, Copy)]
pub struct RuleContext<'a> {
    /// Any offset; the rule is read in China time.
    pub at: DateTime<FixedOffset>,
    pub store_code: &'a str,
    pub store_group: &'a str,
    pub order_type: u8,
}

/// Why a rule does not apply, so the cart can say "expired" or "not on sale at this time"
/// (spec §4 cart) rather than just hiding the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    Available,
    /// The date range starts after today (China date).
    NotStarted,
    /// The date range ended before today.
    Expired,
    /// Right day range, wrong time of day or weekday.
    OffTime,
    /// Not for this store, store group or order type; also a rule too malformed to read.
    NotHere,
}

/// Checks are made in order of permanence: a rule that never applies here (NotHere) says so
/// even if it has also expired; then the date range; then the time of day and weekday.
pub fn availability(rule: Option<&EffectiveRule>, ctx: &RuleContext) -> Availability {
    let Some(rule) = rule else {
        return Availability::Available;
    };
    let Some(dates) = read_dates(rule.effective_date.as_ref()) else {
        return Availability::NotHere;
    };
    let Some(window) = read_window(rule.effective_time.as_ref()) else {
        return Availability::NotHere;
    };
    if !listed(&rule.effective_stores, ctx.store_code)
        || !listed(&rule.effective_store_groups, ctx.store_group)
        || !(rule.order_types.is_empty() || rule.order_types.contains(&ctx.order_type))
    {
        return Availability::NotHere;
    }
    let local = ctx.at.with_timezone(&china_offset());
    let today = local.date_naive();
    let (start, end) = dates;
    if end.is_some_and(|end| today > end) {
        return Availability::Expired;
    }
    if start.is_some_and(|start| today < start) {
        return Availability::NotStarted;
    }
    if let Some(window) = window {
        if !within_windows(std::slice::from_ref(window), local.time()) {
            return Availability::OffTime;
        }
    }
    let weekday = local.weekday().number_from_monday();
    let days = &rule.effective_day_of_week;
    if !days.is_empty() && !days.iter().any(|&d| u32::from(d) == weekday) {
        return Availability::OffTime;
    }
    Availability::Available
}

pub fn rule_matches(rule: Option<&EffectiveRule>, ctx: &RuleContext) -> bool {
    availability(rule, ctx) == Availability::Available
}

/// An empty list means every store (or group).
fn listed(list: &[String], code: &str) -> bool {
    list.is_empty() || list.iter().any(|c| c.trim() == code)
}

/// Inclusive bounds; a blank side is open-ended (back-office forms leave the end empty for
/// "until further notice"). `None` when a non-blank side does not parse: a rule we cannot
/// read must not switch a product on, and calling it expired would be a guess.
fn read_dates(range: Option<&DateRange>) -> Option<(Option<NaiveDate>, Option<NaiveDate>)> {
    let Some(range) = range else {
        return Some((None, None));
    };
    Some((read_date(&range.start)?, read_date(&range.end)?))
}

fn read_date(s: &str) -> Option<Option<NaiveDate>> {
    let s = s.trim();
    if s.is_empty() {
        return Some(None);
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok().map(Some)
}

/// Both ends blank means no daily restriction; one unparsable end makes the rule unreadable.
fn read_window(window: Option<&TimeWindow>) -> Option<Option<&TimeWindow>> {
    let Some(w) = window else {
        return Some(None);
    };
    if w.start.trim().is_empty() && w.end.trim().is_empty() {
        return Some(None);
    }
    parse_hms(&w.start)?;
    parse_hms(&w.end)?;
    Some(Some(w))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use chrono::TimeZone;
    use Availability::*;

    /// 2024-05-01 is a Wednesday (ISO 3); 2024-05-05 is a Sunday (ISO 7).
    fn at(day: u32, h: u32, m: u32, s: u32) -> DateTime<FixedOffset> {
        china_offset()
            .with_ymd_and_hms(2024, 5, day, h, m, s)
            .unwrap()
    }

    fn ctx(at: DateTime<FixedOffset>) -> RuleContext<'static> {
        RuleContext {
            at,
            store_code: "S001",
            store_group: "G1",
            order_type: 0,
        }
    }

    fn dates(start: &str, end: &str) -> EffectiveRule {
        EffectiveRule {
            effective_date: Some(DateRange {
                start: start.into(),
                end: end.into(),
            }),
            ..Default::default()
        }
    }

    fn times(start: &str, end: &str) -> EffectiveRule {
        EffectiveRule {
            effective_time: Some(TimeWindow {
                start: start.into(),
                end: end.into(),
            }),
            ..Default::default()
        }
    }

    fn days(d: &[u8]) -> EffectiveRule {
        EffectiveRule {
            effective_day_of_week: d.to_vec(),
            ..Default::default()
        }
    }

    fn stores(s: &[&str]) -> EffectiveRule {
        EffectiveRule {
            effective_stores: s.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn groups(g: &[&str]) -> EffectiveRule {
        EffectiveRule {
            effective_store_groups: g.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn types(t: &[u8]) -> EffectiveRule {
        EffectiveRule {
            order_types: t.to_vec(),
            ..Default::default()
        }
    }

    fn check(cases: &[(EffectiveRule, DateTime<FixedOffset>, Availability)]) {
        for (rule, when, want) in cases {
            let c = ctx(*when);
            assert_eq!(availability(Some(rule), &c), *want, "{rule:?} at {when}");
            assert_eq!(rule_matches(Some(rule), &c), *want == Available);
        }
    }

    #[test]
    fn no_rule_or_empty_rule_is_available() {
        let c = ctx(at(1, 12, 0, 0));
        assert_eq!(availability(None, &c), Available);
        assert!(rule_matches(None, &c));
        check(&[(EffectiveRule::default(), at(1, 12, 0, 0), Available)]);
    }

    #[test]
    fn date_range() {
        check(&[
            (dates("2024-05-01", "2024-05-31"), at(1, 0, 0, 0), Available), // first day
            (
                dates("2024-05-01", "2024-05-31"),
                at(31, 23, 59, 59),
                Available,
            ), // last day
            (
                dates("2024-05-02", "2024-05-31"),
                at(1, 23, 59, 59),
                NotStarted,
            ),
            (dates("2024-04-01", "2024-04-30"), at(1, 0, 0, 0), Expired),
            (
                dates("2024-05-01", "2024-05-01"),
                at(1, 12, 0, 0),
                Available,
            ),
            (dates("", "2024-05-31"), at(1, 12, 0, 0), Available),
            (dates("2024-04-01", ""), at(1, 12, 0, 0), Available),
            (dates("", "2024-04-30"), at(1, 12, 0, 0), Expired),
            (dates("2024-06-01", ""), at(1, 12, 0, 0), NotStarted),
            (dates("", ""), at(1, 12, 0, 0), Available),
            (dates("2024/05/01", "2024-05-31"), at(1, 12, 0, 0), NotHere),
            (dates("2024-05-01", "soon"), at(1, 12, 0, 0), NotHere),
            (dates("2024-02-30", "2024-05-31"), at(1, 12, 0, 0), NotHere),
        ]);
    }

    #[test]
    fn date_is_the_china_date() {
        // 2024-04-30 16:00 UTC is 2024-05-01 00:00 in China: the May range has started.
        let utc = chrono::Utc
            .with_ymd_and_hms(2024, 4, 30, 16, 0, 0)
            .unwrap()
            .fixed_offset();
        let c = ctx(utc);
        let rule = dates("2024-05-01", "2024-05-31");
        assert_eq!(availability(Some(&rule), &c), Available);
        let rule = dates("2024-04-01", "2024-04-30");
        assert_eq!(availability(Some(&rule), &c), Expired);
    }

    #[test]
    fn time_window() {
        check(&[
            (times("11:00:00", "14:00:00"), at(1, 11, 0, 0), Available), // exact start
            (times("11:00:00", "14:00:00"), at(1, 14, 0, 0), Available), // exact end
            (times("11:00:00", "14:00:00"), at(1, 10, 59, 59), OffTime),
            (times("11:00:00", "14:00:00"), at(1, 14, 0, 1), OffTime),
            (times("22:00:00", "02:00:00"), at(1, 23, 0, 0), Available), // wraps
            (times("22:00:00", "02:00:00"), at(1, 1, 59, 59), Available),
            (times("22:00:00", "02:00:00"), at(1, 2, 0, 1), OffTime),
            (times("11:00", "14:00"), at(1, 12, 0, 0), Available),
            (times("", ""), at(1, 3, 0, 0), Available),
            (times("lunch", "14:00:00"), at(1, 12, 0, 0), NotHere),
            (times("11:00:00", ""), at(1, 12, 0, 0), NotHere),
        ]);
    }

    #[test]
    fn weekday() {
        check(&[
            (days(&[3]), at(1, 12, 0, 0), Available), // Wednesday
            (days(&[1, 2, 4, 5, 6, 7]), at(1, 12, 0, 0), OffTime),
            (days(&[7]), at(5, 12, 0, 0), Available), // Sunday is 7
            (days(&[0]), at(5, 12, 0, 0), OffTime),   // 0 is not Sunday
            (days(&[6, 7]), at(4, 0, 0, 0), Available), // Saturday midnight
            (days(&[1]), at(6, 23, 59, 59), Available), // Monday last second
            (days(&[1]), at(7, 0, 0, 0), OffTime),
            (days(&[]), at(5, 12, 0, 0), Available),
        ]);
    }

    #[test]
    fn store_group_and_order_type() {
        let noon = at(1, 12, 0, 0);
        check(&[
            (stores(&["S001"]), noon, Available),
            (stores(&["S002", "S001"]), noon, Available),
            (stores(&[" S001 "]), noon, Available),
            (stores(&["S002"]), noon, NotHere),
            (stores(&[]), noon, Available),
            (groups(&["G1"]), noon, Available),
            (groups(&["G2"]), noon, NotHere),
            (groups(&[]), noon, Available),
            (types(&[0]), noon, Available),
            (types(&[1, 2]), noon, NotHere),
            (types(&[0, 1, 2]), noon, Available),
            (types(&[]), noon, Available),
        ]);
    }

    #[test]
    fn order_type_from_context() {
        let rule = types(&[1]);
        let mut c = ctx(at(1, 12, 0, 0));
        c.order_type = 1;
        assert_eq!(availability(Some(&rule), &c), Available);
        c.order_type = 2;
        assert_eq!(availability(Some(&rule), &c), NotHere);
    }

    #[test]
    fn combined() {
        let full = EffectiveRule {
            effective_date: Some(DateRange {
                start: "2024-05-01".into(),
                end: "2024-05-31".into(),
            }),
            effective_time: Some(TimeWindow {
                start: "11:00:00".into(),
                end: "14:00:00".into(),
            }),
            effective_day_of_week: vec![1, 2, 3, 4, 5],
            effective_stores: vec!["S001".into()],
            effective_store_groups: vec!["G1".into()],
            order_types: vec![0, 1],
        };
        let other_store = EffectiveRule {
            effective_stores: vec!["S009".into()],
            ..full.clone()
        };
        let bad_date = EffectiveRule {
            effective_date: Some(DateRange {
                start: "x".into(),
                end: "2024-05-31".into(),
            }),
            ..full.clone()
        };
        check(&[
            (full.clone(), at(1, 12, 0, 0), Available), // Wednesday lunch
            (full.clone(), at(1, 15, 0, 0), OffTime),   // after lunch
            (full.clone(), at(4, 12, 0, 0), OffTime),   // Saturday
            (full.clone(), at(31, 14, 0, 0), Available), // last day, last second
            (full.clone(), at(31, 14, 0, 1), OffTime),
            // Not here outranks expired; expired outranks off-time.
            (other_store.clone(), at(1, 12, 0, 0), NotHere),
            (other_store, at(2, 3, 0, 0), NotHere),
            (bad_date, at(1, 12, 0, 0), NotHere),
        ]);
        let june = china_offset()
            .with_ymd_and_hms(2024, 6, 1, 3, 0, 0)
            .unwrap();
        let april = china_offset()
            .with_ymd_and_hms(2024, 4, 30, 3, 0, 0)
            .unwrap();
        check(&[(full.clone(), june, Expired), (full, april, NotStarted)]);
    }
}
