//! When an order is for (spec ordering §4 "Order type and time", §5, §9): the as-soon-as-possible
//! time of each order type, the reset of a stale time, and the rules a booked time must pass.
//! Everything is epoch milliseconds read in China time (UTC+8, see [`crate::domain::stores::hours`]).

use crate::domain::catalogue::{ExclusionDay, Store, TimeWindow, DELIVERY};
use crate::domain::lang::Lang;
use crate::domain::stores::hours::{china_offset, china_time, effective_hours, within_windows};
use chrono::{DateTime, Days, FixedOffset, NaiveDate, NaiveTime};
use serde::Serialize;

/// No order, booked or not, is for earlier than now plus this (spec §9 reservation time floor).
pub const RESERVATION_FLOOR_MIN: i64 = 15;
/// Pickup and dine-in times are rounded up to a multiple of this (spec §9 ask-time rounding).
pub const ASK_ROUNDING_MIN: i64 = 5;
/// The booking picker offers times on this grid, aligned to :00, :15, :30 and :45.
pub const SLOT_MIN: i64 = 15;
/// bookDays is read as at most this many days. A larger value is a data error; capping it keeps
/// the slot list finite and the check and the picker in agreement.
pub const MAX_BOOK_DAYS: u32 = 90;

const MINUTE_MS: i64 = 60_000;
const SLOTS_PER_DAY: i64 = 24 * 60 / SLOT_MIN;

fn minutes(n: i64) -> i64 {
    n.saturating_mul(MINUTE_MS)
}

/// The next multiple of `step` at or after `t`. China is a whole number of hours from UTC, so a
/// multiple of 5 or 15 minutes in epoch time is the same multiple on the China wall clock.
fn round_up(t: i64, step: i64) -> i64 {
    match t.rem_euclid(step) {
        0 => t,
        rem => t.saturating_add(step - rem),
    }
}

/// The time of an order placed now and not booked (spec §5). Delivery: now plus the store's
/// deliveryTime, to the millisecond, no rounding. Pickup and dine-in (and any other type): now
/// plus estimateTime, then rounded up to the next 5-minute mark of the wall clock; seconds and
/// milliseconds count as a started minute, so 12:00:00.001 + 15 min is 12:20, while an exact
/// 12:00:00.000 + 15 min stays 12:15.
pub fn asap_time(store: &Store, order_type: u8, now_ms: i64) -> i64 {
    if order_type == DELIVERY {
        now_ms.saturating_add(minutes(store.delivery_time.into()))
    } else {
        let ready = now_ms.saturating_add(minutes(store.estimate_time.into()));
        round_up(ready, minutes(ASK_ROUNDING_MIN))
    }
}

/// The cart's order time when the client set none (spec §5): no time, or one already past,
/// becomes now plus 15 minutes. A time equal to now is not yet past and is kept.
pub fn stored_or_reset(stored: Option<i64>, now_ms: i64) -> i64 {
    match stored {
        Some(at) if at >= now_ms => at,
        _ => now_ms.saturating_add(minutes(RESERVATION_FLOOR_MIN)),
    }
}

/// Why a booked time is refused (contract: 400 with the reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderTimeError {
    /// The store's bookEnable is off.
    BookingDisabled,
    /// Before now + 15 minutes, or before the order type's ASAP time.
    TooEarly,
    /// On a China date after today + bookDays (or a time no calendar can show).
    BeyondBookDays,
    /// Inside one of the store's exclusion days.
    ExcludedDay,
    /// Outside the store's business hours.
    OutsideBusinessHours,
}

impl OrderTimeError {
    pub fn message(&self, lang: Lang) -> String {
        use OrderTimeError::*;
        let (zh, en) = match self {
            BookingDisabled => ("该门店不支持预约", "This store takes no bookings"),
            TooEarly => (
                "预约时间过早，请选择更晚的时间",
                "That time is too soon; please choose a later time",
            ),
            BeyondBookDays => ("超出可预约天数", "That date is too far ahead to book"),
            ExcludedDay => (
                "该日期不接受预约",
                "The store takes no bookings at that time",
            ),
            OutsideBusinessHours => (
                "不在门店营业时间内",
                "That time is outside the store's business hours",
            ),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }

    /// A stable name for logs and clients that branch on the reason.
    pub fn code(&self) -> &'static str {
        use OrderTimeError::*;
        match self {
            BookingDisabled => "bookingDisabled",
            TooEarly => "tooEarly",
            BeyondBookDays => "beyondBookDays",
            ExcludedDay => "excludedDay",
            OutsideBusinessHours => "outsideBusinessHours",
        }
    }
}

/// Unlike [`china_time`], which maps an unrepresentable server clock to epoch 0, a client's
/// time that no calendar can show is refused rather than read as 1970.
fn china(epoch_ms: i64) -> Option<DateTime<FixedOffset>> {
    DateTime::from_timestamp_millis(epoch_ms).map(|t| t.with_timezone(&china_offset()))
}

/// Whether a booked order may be for `at_ms` (spec §4, §5). Checked in this order, the first
/// failure answering: bookEnable; not before now + 15 minutes nor before the order type's ASAP
/// time; the China date of `at` at most today + bookDays (0 = today only); outside every
/// exclusion day; inside business hours (windows may run past midnight). The store's current
/// status (temporarily closed) is about now, not the booked time, and is left to the caller,
/// as is whether the store offers this order type.
pub fn check_booking(
    store: &Store,
    order_type: u8,
    at_ms: i64,
    now_ms: i64,
) -> Result<(), OrderTimeError> {
    if !store.book_enable {
        return Err(OrderTimeError::BookingDisabled);
    }
    let floor = now_ms
        .saturating_add(minutes(RESERVATION_FLOOR_MIN))
        .max(asap_time(store, order_type, now_ms));
    if at_ms < floor {
        return Err(OrderTimeError::TooEarly);
    }
    let Some(at) = china(at_ms) else {
        return Err(OrderTimeError::BeyondBookDays);
    };
    let date = at.date_naive();
    if last_booking_day(store, now_ms).is_none_or(|last| date > last) {
        return Err(OrderTimeError::BeyondBookDays);
    }
    if excluded(&store.exclusion_day_list, date, at.time()) {
        return Err(OrderTimeError::ExcludedDay);
    }
    if !within_windows(&effective_hours(store), at.time()) {
        return Err(OrderTimeError::OutsideBusinessHours);
    }
    Ok(())
}

fn last_booking_day(store: &Store, now_ms: i64) -> Option<NaiveDate> {
    let today = china_time(now_ms).date_naive();
    today.checked_add_days(Days::new(store.book_days.min(MAX_BOOK_DAYS).into()))
}

/// An exclusion covers its dates inclusive, and on each of them the time from startTime to
/// endTime inclusive (a window ending before it starts runs past midnight, as business hours
/// do; both times blank means the whole day). A row whose dates or times do not parse is
/// ignored, as `within_windows` ignores a bad business-hours row: one bad row must not stop
/// all bookings.
fn excluded(days: &[ExclusionDay], date: NaiveDate, time: NaiveTime) -> bool {
    let parse = |s: &str| NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").ok();
    days.iter().any(|d| {
        let (Some(start), Some(end)) = (parse(&d.start_date), parse(&d.end_date)) else {
            return false;
        };
        if date < start || date > end {
            return false;
        }
        if d.start_time.trim().is_empty() && d.end_time.trim().is_empty() {
            return true;
        }
        let window = TimeWindow {
            start: d.start_time.clone(),
            end: d.end_time.clone(),
        };
        within_windows(std::slice::from_ref(&window), time)
    })
}

/// Why a store takes no order now (issue 22: a closed store does not take items or orders as if
/// it were open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotTaking {
    /// Its staff closed it for now (休息中).
    Closed,
    /// Outside its business hours.
    OutsideHours,
    /// Booked for a time the store does not take (see [`check_booking`]).
    Booking(OrderTimeError),
}

impl NotTaking {
    /// What the customer reads: why, and what they can do instead (book, when the store
    /// takes bookings, or choose another store).
    pub fn message(&self, store: &Store, lang: Lang) -> String {
        let books = store.book_enable;
        let (zh, en) = match (self, books) {
            (NotTaking::Booking(e), _) => return e.message(lang),
            (NotTaking::Closed, true) => (
                "门店休息中，请预约稍后的时间或选择其他门店",
                "The store is closed for now; book a later time or choose another store",
            ),
            (NotTaking::Closed, false) => (
                "门店休息中，请选择其他门店",
                "The store is closed for now; please choose another store",
            ),
            (NotTaking::OutsideHours, true) => (
                "门店当前不在营业时间，请预约营业时间内的时间或选择其他门店",
                "The store is not open now; book a time within its hours or choose another store",
            ),
            (NotTaking::OutsideHours, false) => (
                "门店当前不在营业时间，请选择其他门店",
                "The store is not open now; please choose another store",
            ),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            NotTaking::Closed => "closed",
            NotTaking::OutsideHours => "outsideHours",
            NotTaking::Booking(e) => e.code(),
        }
    }
}

/// Whether the store takes this order (or an item for it) now: an order for as soon as
/// possible needs the store open now (not closed by its staff, inside its hours); a booked one
/// (`booked_at`) needs a slot [`check_booking`] accepts, whatever the store's state now — a
/// store resting this afternoon still takes tomorrow's bookings. `status_closed` is the staff's
/// status as customers meet it (the board over the catalogue).
pub fn check_taking(
    store: &Store,
    order_type: u8,
    booked_at: Option<i64>,
    now_ms: i64,
) -> Result<(), NotTaking> {
    if let Some(at) = booked_at {
        return check_booking(store, order_type, at, now_ms).map_err(NotTaking::Booking);
    }
    if store.status == crate::domain::catalogue::StoreStatus::Closed {
        return Err(NotTaking::Closed);
    }
    if !within_windows(&effective_hours(store), china_time(now_ms).time()) {
        return Err(NotTaking::OutsideHours);
    }
    Ok(())
}

/// A day of the booking picker and its bookable times (epoch ms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BookingDay {
    pub date: NaiveDate,
    pub slots: Vec<i64>,
}

/// The booking picker (contract `GET /orders/reservation/slots`): today through today +
/// bookDays (China dates), each with the 15-minute marks that pass [`check_booking`]; a day with
/// none (an exclusion day, or today once it is too late) is left out. Empty when the store takes
/// no bookings.
pub fn booking_days(store: &Store, order_type: u8, now_ms: i64) -> Vec<BookingDay> {
    if !store.book_enable {
        return Vec::new();
    }
    let today = china_time(now_ms).date_naive();
    (0..=store.book_days.min(MAX_BOOK_DAYS))
        .filter_map(|n| today.checked_add_days(Days::new(n.into())))
        .filter_map(|date| {
            let midnight = date
                .and_time(NaiveTime::MIN)
                .and_local_timezone(china_offset())
                .single()?
                .timestamp_millis();
            let slots: Vec<i64> = (0..SLOTS_PER_DAY)
                .map(|i| midnight + i * minutes(SLOT_MIN))
                .filter(|&at| check_booking(store, order_type, at, now_ms).is_ok())
                .collect();
            (!slots.is_empty()).then_some(BookingDay { date, slots })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::catalogue::{virtual_store, DINE_IN, PICKUP};
    use chrono::TimeZone;
    use OrderTimeError::*;

    /// China wall-clock time as epoch ms.
    fn ms(s: &str) -> i64 {
        let local = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S%.f").unwrap();
        china_offset()
            .from_local_datetime(&local)
            .unwrap()
            .timestamp_millis()
    }

    /// The China wall clock of epoch ms, for readable failures.
    fn show(t: i64) -> String {
        china_time(t).format("%Y-%m-%d %H:%M:%S%.3f").to_string()
    }

    fn window(start: &str, end: &str) -> TimeWindow {
        TimeWindow {
            start: start.into(),
            end: end.into(),
        }
    }

    fn exclusion(start_date: &str, end_date: &str, start: &str, end: &str) -> ExclusionDay {
        ExclusionDay {
            start_date: start_date.into(),
            end_date: end_date.into(),
            start_time: start.into(),
            end_time: end.into(),
        }
    }

    /// Like the seed's booking store: 3 days ahead, closed for bookings over Christmas.
    fn booking_store() -> Store {
        let mut s = virtual_store(None);
        s.book_enable = true;
        s.book_days = 3;
        s.exclusion_day_list = vec![exclusion(
            "2026-12-24",
            "2026-12-25",
            "10:00:00",
            "23:59:00",
        )];
        s
    }

    #[test]
    fn asap_time_cases() {
        let d = "2026-11-24";
        let cases: [(u32, u32, u8, &str, &str); 14] = [
            // (deliveryTime, estimateTime, type, now, want) on 2026-11-24 unless it rolls over
            (30, 15, DELIVERY, "12:00:00", "2026-11-24 12:30:00.000"),
            (30, 15, DELIVERY, "12:00:00.001", "2026-11-24 12:30:00.001"), // no rounding
            (45, 15, DELIVERY, "12:07:13", "2026-11-24 12:52:13.000"),
            (30, 15, PICKUP, "12:00:00", "2026-11-24 12:15:00.000"), // exact multiple stays
            (30, 15, PICKUP, "12:00:00.001", "2026-11-24 12:20:00.000"), // partial minute: up
            (30, 15, PICKUP, "12:00:59", "2026-11-24 12:20:00.000"),
            (30, 15, PICKUP, "12:01:00", "2026-11-24 12:20:00.000"),
            (30, 15, PICKUP, "12:04:59.999", "2026-11-24 12:20:00.000"),
            (30, 15, PICKUP, "12:05:00", "2026-11-24 12:20:00.000"),
            (30, 15, DINE_IN, "12:05:00.001", "2026-11-24 12:25:00.000"),
            (30, 12, DINE_IN, "12:00:00", "2026-11-24 12:15:00.000"),
            (30, 20, PICKUP, "23:58:00", "2026-11-25 00:20:00.000"), // past midnight
            (30, 0, PICKUP, "12:03:00", "2026-11-24 12:05:00.000"),
            (30, 15, 7, "12:01:00", "2026-11-24 12:20:00.000"), // unknown type: not delivery
        ];
        for (delivery, estimate, order_type, now, want) in cases {
            let mut store = virtual_store(None);
            store.delivery_time = delivery;
            store.estimate_time = estimate;
            let got = asap_time(&store, order_type, ms(&format!("{d} {now}")));
            assert_eq!(show(got), want, "type {order_type} at {now}");
        }
    }

    #[test]
    fn asap_time_saturates() {
        let store = virtual_store(None);
        assert_eq!(asap_time(&store, DELIVERY, i64::MAX), i64::MAX);
        assert_eq!(asap_time(&store, PICKUP, i64::MAX), i64::MAX);
    }

    #[test]
    fn stored_or_reset_cases() {
        let now = ms("2026-11-24 12:00:00");
        let later = ms("2026-11-24 12:15:00");
        let cases = [
            (None, later),
            (Some(now - 1), later),                   // just past: reset
            (Some(ms("2026-11-23 12:00:00")), later), // yesterday
            (Some(now), now),                         // not yet past
            (Some(now + 1), now + 1),                 // kept, even if soon
            (Some(ms("2026-11-26 18:00:00")), ms("2026-11-26 18:00:00")),
        ];
        for (stored, want) in cases {
            assert_eq!(stored_or_reset(stored, now), want, "{stored:?}");
        }
    }

    /// Checks `(order type, at, want)` rows against one store at one "now" (China time).
    fn expect(store: &Store, now: &str, rows: &[(u8, &str, Result<(), OrderTimeError>)]) {
        for &(order_type, at, want) in rows {
            assert_eq!(
                check_booking(store, order_type, ms(at), ms(now)),
                want,
                "type {order_type} at {at} now {now}"
            );
        }
    }

    #[test]
    fn check_booking_cases() {
        let noon = "2026-11-24 12:00:00";
        let store = booking_store();

        let mut disabled = booking_store();
        disabled.book_enable = false;
        expect(
            &disabled,
            noon,
            &[(PICKUP, "2026-11-24 18:00:00", Err(BookingDisabled))],
        );

        // The floor: now + 15 minutes, and the order type's ASAP time.
        expect(
            &store,
            noon,
            &[
                (PICKUP, "2026-11-24 12:14:59.999", Err(TooEarly)),
                (PICKUP, "2026-11-24 12:15:00", Ok(())),
                (PICKUP, "2026-11-23 12:00:00", Err(TooEarly)),
                (DELIVERY, "2026-11-24 12:15:00", Err(TooEarly)),
                (DELIVERY, "2026-11-24 12:29:59", Err(TooEarly)),
                (DELIVERY, "2026-11-24 12:30:00", Ok(())),
            ],
        );
        // A millisecond past noon, pickup's ASAP time rounds up to 12:20.
        expect(
            &store,
            "2026-11-24 12:00:00.001",
            &[
                (PICKUP, "2026-11-24 12:16:00", Err(TooEarly)),
                (PICKUP, "2026-11-24 12:20:00", Ok(())),
            ],
        );
        let mut slow_kitchen = booking_store();
        slow_kitchen.estimate_time = 40;
        expect(
            &slow_kitchen,
            noon,
            &[
                (DINE_IN, "2026-11-24 12:30:00", Err(TooEarly)),
                (DINE_IN, "2026-11-24 12:40:00", Ok(())),
            ],
        );

        // bookDays 3: today + 3 is the last China date; 0 is today only.
        expect(
            &store,
            noon,
            &[
                (PICKUP, "2026-11-27 23:45:00", Ok(())),
                (PICKUP, "2026-11-28 10:00:00", Err(BeyondBookDays)),
                // Before the exclusion is even looked at.
                (PICKUP, "2026-12-24 12:00:00", Err(BeyondBookDays)),
            ],
        );
        let mut today_only = booking_store();
        today_only.book_days = 0;
        expect(
            &today_only,
            noon,
            &[
                (PICKUP, "2026-11-24 23:45:00", Ok(())),
                (PICKUP, "2026-11-25 10:00:00", Err(BeyondBookDays)),
            ],
        );

        // Exclusion days: dates inclusive, and within their times on those dates.
        let dec23 = "2026-12-23 12:00:00";
        expect(
            &store,
            dec23,
            &[
                (PICKUP, "2026-12-23 18:00:00", Ok(())),
                (PICKUP, "2026-12-24 12:00:00", Err(ExcludedDay)),
                (PICKUP, "2026-12-25 23:59:00", Err(ExcludedDay)),
                (PICKUP, "2026-12-26 10:00:00", Ok(())),
                // Outside the exclusion's times, but outside business hours too.
                (PICKUP, "2026-12-24 09:00:00", Err(OutsideBusinessHours)),
            ],
        );
        let mut evening_off = booking_store();
        evening_off.exclusion_day_list = vec![exclusion(
            "2026-12-24",
            "2026-12-24",
            "18:00:00",
            "23:59:00",
        )];
        expect(
            &evening_off,
            dec23,
            &[
                (PICKUP, "2026-12-24 12:00:00", Ok(())),
                (PICKUP, "2026-12-24 18:00:00", Err(ExcludedDay)),
            ],
        );
        let mut whole_day_off = booking_store();
        whole_day_off.exclusion_day_list = vec![exclusion("2026-12-24", "2026-12-24", "", "")];
        expect(
            &whole_day_off,
            dec23,
            &[(PICKUP, "2026-12-24 10:30:00", Err(ExcludedDay))],
        );
        // Unreadable rows are ignored, like unreadable business hours.
        let mut bad_rows = booking_store();
        bad_rows.exclusion_day_list = vec![
            exclusion("24/12/2026", "2026-12-25", "10:00:00", "23:59:00"),
            exclusion("2026-12-24", "2026-12-25", "ten", "23:59:00"),
        ];
        expect(&bad_rows, dec23, &[(PICKUP, "2026-12-24 12:00:00", Ok(()))]);

        // Business hours, default 10:00–23:59, both ends inclusive.
        expect(
            &store,
            noon,
            &[
                (PICKUP, "2026-11-25 09:59:59", Err(OutsideBusinessHours)),
                (PICKUP, "2026-11-25 10:00:00", Ok(())),
                (PICKUP, "2026-11-25 23:59:00", Ok(())),
                (PICKUP, "2026-11-25 23:59:01", Err(OutsideBusinessHours)),
            ],
        );
        // Hours past midnight: 10:00–02:00.
        let mut late_night = booking_store();
        late_night.business_hours = vec![window("10:00:00", "02:00:00")];
        expect(
            &late_night,
            noon,
            &[
                (PICKUP, "2026-11-24 23:45:00", Ok(())),
                (PICKUP, "2026-11-25 01:30:00", Ok(())),
                (PICKUP, "2026-11-25 02:00:00", Ok(())),
                (PICKUP, "2026-11-25 02:15:00", Err(OutsideBusinessHours)),
            ],
        );
    }

    #[test]
    fn check_booking_refuses_unrepresentable_times() {
        let now = ms("2026-11-24 12:00:00");
        let store = booking_store();
        assert_eq!(check_booking(&store, PICKUP, i64::MIN, now), Err(TooEarly));
        assert_eq!(
            check_booking(&store, PICKUP, i64::MAX, now),
            Err(BeyondBookDays)
        );
    }

    #[test]
    fn book_days_are_capped() {
        let mut store = booking_store();
        store.book_days = u32::MAX;
        let now = ms("2026-01-01 12:00:00");
        let last = ms("2026-04-01 12:00:00"); // 2026-01-01 + 90 days
        assert_eq!(check_booking(&store, PICKUP, last, now), Ok(()));
        assert_eq!(
            check_booking(&store, PICKUP, last + 86_400_000, now),
            Err(BeyondBookDays)
        );
        assert_eq!(booking_days(&store, PICKUP, now).len(), 91);
    }

    /// The slots of each day as "HH:MM" China time: first, last and count.
    fn summary(days: &[BookingDay]) -> Vec<(String, String, String, usize)> {
        let hm = |t: i64| china_time(t).format("%H:%M").to_string();
        days.iter()
            .map(|d| {
                (
                    d.date.to_string(),
                    hm(d.slots[0]),
                    hm(*d.slots.last().unwrap()),
                    d.slots.len(),
                )
            })
            .collect()
    }

    fn day(date: &str, first: &str, last: &str, n: usize) -> (String, String, String, usize) {
        (date.into(), first.into(), last.into(), n)
    }

    #[test]
    fn booking_days_cases() {
        let store = booking_store();
        let mut disabled = booking_store();
        disabled.book_enable = false;
        let mut today_only = booking_store();
        today_only.book_days = 0;
        let mut one_day = booking_store();
        one_day.book_days = 1;
        let mut late_night = booking_store();
        late_night.book_days = 1;
        late_night.business_hours = vec![window("10:00:00", "02:00:00")];

        let noon = ms("2026-11-24 12:00:00");
        assert!(booking_days(&disabled, PICKUP, noon).is_empty());
        // 12:15 to 23:45: 47 marks; full days 10:00 to 23:45: 56 marks.
        assert_eq!(
            summary(&booking_days(&store, PICKUP, noon)),
            vec![
                day("2026-11-24", "12:15", "23:45", 47),
                day("2026-11-25", "10:00", "23:45", 56),
                day("2026-11-26", "10:00", "23:45", 56),
                day("2026-11-27", "10:00", "23:45", 56),
            ]
        );
        // Delivery starts at its own ASAP time; 12:07 pickup at 12:25, so the 12:30 mark.
        assert_eq!(
            summary(&booking_days(&today_only, DELIVERY, noon)),
            vec![day("2026-11-24", "12:30", "23:45", 46)]
        );
        let odd = ms("2026-11-24 12:07:00");
        assert_eq!(
            summary(&booking_days(&today_only, PICKUP, odd)),
            vec![day("2026-11-24", "12:30", "23:45", 46)]
        );
        // Too late for today: the day is dropped.
        let late = ms("2026-11-24 23:50:00");
        assert!(booking_days(&today_only, PICKUP, late).is_empty());
        assert_eq!(
            summary(&booking_days(&one_day, PICKUP, late)),
            vec![day("2026-11-25", "10:00", "23:45", 56)]
        );
        // Exclusion days are dropped whole.
        let dec23 = ms("2026-12-23 12:00:00");
        assert_eq!(
            summary(&booking_days(&store, PICKUP, dec23)),
            vec![
                day("2026-12-23", "12:15", "23:45", 47),
                day("2026-12-26", "10:00", "23:45", 56),
            ]
        );
        // Hours past midnight: tomorrow's 00:00–02:00 marks are offered too.
        let days = booking_days(&late_night, PICKUP, noon);
        assert_eq!(
            summary(&days),
            vec![
                day("2026-11-24", "12:15", "23:45", 47),
                day("2026-11-25", "00:00", "23:45", 9 + 56),
            ]
        );
        assert!(days[1].slots.contains(&ms("2026-11-25 02:00:00")));
        assert!(!days[1].slots.contains(&ms("2026-11-25 02:15:00")));
    }

    #[test]
    fn slots_are_on_the_quarter_hour_and_pass_the_check() {
        let store = booking_store();
        let now = ms("2026-11-24 13:07:42.5");
        for order_type in [DELIVERY, PICKUP, DINE_IN] {
            for d in booking_days(&store, order_type, now) {
                for &t in &d.slots {
                    assert_eq!(t % minutes(SLOT_MIN), 0, "{}", show(t));
                    assert_eq!(china_time(t).date_naive(), d.date);
                    assert_eq!(check_booking(&store, order_type, t, now), Ok(()));
                }
            }
        }
    }

    #[test]
    fn error_messages() {
        let all = [
            BookingDisabled,
            TooEarly,
            BeyondBookDays,
            ExcludedDay,
            OutsideBusinessHours,
        ];
        let mut seen = std::collections::HashSet::new();
        for e in all {
            let (zh, en) = (e.message(Lang::Zh), e.message(Lang::En));
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{e:?}"
            );
            assert!(en.is_ascii() && !en.is_empty(), "{e:?}");
            assert!(seen.insert(zh) && seen.insert(en) && seen.insert(e.code().into()));
        }
        assert_eq!(BookingDisabled.message(Lang::Zh), "该门店不支持预约");
        assert_eq!(
            BookingDisabled.message(Lang::En),
            "This store takes no bookings"
        );
    }

    /// (name, store, now, booked at, answer)
    type TakingRow<'a> = (&'a str, Store, &'a str, Option<i64>, Result<(), NotTaking>);

    #[test]
    fn check_taking_table() {
        use crate::domain::catalogue::StoreStatus;
        let now = "2026-11-24 12:00:00";
        let night = "2026-11-24 02:00:00";
        let tomorrow_noon = Some(ms("2026-11-25 12:00:00"));
        let tomorrow_dawn = Some(ms("2026-11-25 03:00:00"));
        let store = |status: StoreStatus, books: bool| {
            let mut s = booking_store();
            s.status = status;
            s.book_enable = books;
            s
        };
        use StoreStatus::*;
        #[rustfmt::skip]
        let cases: [TakingRow; 10] = [
            ("open, in hours, now", store(Open, true), now, None, Ok(())),
            ("busy still takes orders", store(Busy, false), now, None, Ok(())),
            ("closed by staff, now", store(Closed, true), now, None, Err(NotTaking::Closed)),
            ("closed by staff, booked for an open slot", store(Closed, true), now, tomorrow_noon, Ok(())),
            ("closed, no bookings", store(Closed, false), now, tomorrow_noon, Err(NotTaking::Booking(BookingDisabled))),
            ("night, now", store(Open, true), night, None, Err(NotTaking::OutsideHours)),
            ("night, booked for noon", store(Open, true), night, tomorrow_noon, Ok(())),
            ("booked outside hours", store(Open, true), now, tomorrow_dawn, Err(NotTaking::Booking(OutsideBusinessHours))),
            ("booked too soon", store(Open, true), now, Some(ms("2026-11-24 12:05:00")), Err(NotTaking::Booking(TooEarly))),
            ("night, store takes no bookings", store(Open, false), night, None, Err(NotTaking::OutsideHours)),
        ];
        for (name, store, now, booked, want) in cases {
            assert_eq!(
                check_taking(&store, PICKUP, booked, ms(now)),
                want,
                "{name}"
            );
        }
        // Every refusal says why in both languages, and offers booking only when there is one.
        let books = store(Closed, true);
        let no_books = store(Closed, false);
        assert!(NotTaking::Closed.message(&books, Lang::Zh).contains("预约"));
        assert!(!NotTaking::Closed
            .message(&no_books, Lang::Zh)
            .contains("预约"));
        assert!(NotTaking::OutsideHours
            .message(&books, Lang::En)
            .contains("book"));
        assert!(NotTaking::OutsideHours
            .message(&no_books, Lang::En)
            .is_ascii());
    }
}
